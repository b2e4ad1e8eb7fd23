import Testing
import Foundation
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselTestSupport

/// Two easel processes editing one document never corrupt it or lose an edit: the
/// advisory lock serialises them, and the loser of a long wait gets a clear message.
@Suite("Concurrent edits")
struct ConcurrentEditTests {
    func graphics(_ s: CLIScratch) throws -> Int {
        var warnings: [DocumentWarning] = []
        return try Drawing(decoding: s.bytes("d.drawing"), file: "d", warnings: &warnings).graphics.count
    }

    @Test func simultaneousEditsAreSerialisedAndNoneIsLost() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let count = 12
        let statuses = StatusBox(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let result = try? s.run(["add", "d.drawing", i % 2 == 0 ? "star" : "ellipse", "--at", "\(i * 10),\(i * 10)"])
            statuses.set(i, result?.status ?? -1)
        }
        #expect(statuses.all.allSatisfy { $0 == 0 }, "\(statuses.all)")
        #expect(try graphics(s) == count, "every edit is in the document")
        // And each is one undo step.
        for _ in 0..<count { try s.ok(["undo", "d.drawing"]) }
        #expect(try graphics(s) == 0)
    }

    @Test func anEditWaitingTooLongForASessionGivesUpClearly() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let session = Process()
        session.executableURL = s.easel
        session.arguments = ["edit", "d.drawing", "--autosave", "0"]
        session.currentDirectoryURL = s.folder.url
        session.environment = s.environment
        let input = Pipe()
        session.standardInput = input
        session.standardOutput = FileHandle.nullDevice
        session.standardError = FileHandle.nullDevice
        try session.run()
        defer {
            try? input.fileHandleForWriting.close()
            session.waitUntilExit()
        }
        // The session holds the lock once its first edit is on disk (waiting for that, not
        // for a fixed time: a sanitizer build on a busy machine can take seconds to start).
        input.fileHandleForWriting.write(Data("add heart\n".utf8))
        let deadline = Date().addingTimeInterval(60)
        while (try? graphics(s)) != 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try graphics(s) == 1, "the session saved its edit")
        var environment = s.environment
        environment["EASEL_LOCK_TIMEOUT"] = "0.3"
        let loser = try ProcessRunner.run(
            s.easel, ["set", "d.drawing", "0", "--fill", "red"], environment: environment, currentDirectory: s.folder.url)
        #expect(loser.status == 1)
        #expect(
            loser.stderr
                == "easel: error: \(s.folder.file("d.drawing").path): another easel is editing this document; try again when it has finished\n"
        )
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        session.waitUntilExit()
        #expect(try graphics(s) == 1, "the session's edit is saved")
        try s.ok(["add", "d.drawing", "star"])
        #expect(try graphics(s) == 2, "the lock is free again")
    }

    @Test func readingTakesNoLockAndWritesNothing() throws {
        let s = CLIScratch()
        try s.folder.write(DrawingEncoder.encode(Drawing()), to: "d.drawing")
        try s.ok(["info", "d.drawing"])
        try s.ok(["validate", "d.drawing"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.path) == ["d.drawing"])
    }

    @Test func aWriterOutsideEaselIsNoticedBeforeSaving() throws {
        // The library's compare-before-save guard, for writers that do not take the lock.
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        var editor = try DocumentEditor(
            opening: s.folder.file("d.drawing"), stateFolder: s.state.url.appendingPathComponent("easel"))
        _ = try editor.add(ElementRequest(kind: "ellipse", documentName: "d.drawing"))
        try s.folder.write(String(decoding: DrawingEncoder.encode(Drawing(background: .black)), as: UTF8.self), to: "d.drawing")
        #expect { try editor.save() } throws: { error in "\(error)".contains("the file changed on disk since easel opened it") }
        var warnings: [DocumentWarning] = []
        #expect(
            try Drawing(decoding: s.bytes("d.drawing"), file: "d", warnings: &warnings).background == .black,
            "the other writer's version is kept")
    }
}

final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int32]
    init(count: Int) { values = Array(repeating: -2, count: count) }
    func set(_ i: Int, _ value: Int32) { lock.withLock { values[i] = value } }
    var all: [Int32] { lock.withLock { values } }
}

import EaselGeometry
