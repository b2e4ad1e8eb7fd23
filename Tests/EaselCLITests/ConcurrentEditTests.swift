import Testing
import Foundation
import EaselDocuments
import EaselTestSupport

/// Two easel processes editing one document never corrupt it or lose an edit: each edit
/// command takes the document's lock (tested in process in EaselSupportTests), and one that
/// waits too long says so in one line, after `EASEL_LOCK_TIMEOUT` seconds.
@Suite("Concurrent edits")
struct ConcurrentEditTests {
    func drawing(_ s: CLIScratch) throws -> Drawing {
        var warnings: [DocumentWarning] = []
        return try Drawing(decoding: s.bytes("d.drawing"), file: "d", warnings: &warnings)
    }

    func graphics(_ s: CLIScratch) throws -> Int { try drawing(s).graphics.count }

    @Test func simultaneousEditsAreSerialisedAndNoneIsLost() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing", 800, 600)
        let count = 8
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

    @Test func anEditWaitingTooLongForTheLockGivesUpInOneLine() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing", 800, 600)
        var environment = s.environment
        environment["EASEL_LOCK_TIMEOUT"] = "0.3"
        // Held here, as another editor holds it.
        try withExtendedLifetime(try DocumentLock(beside: s.folder.file("d.drawing"))) {
            let loser = try ProcessRunner.run(
                s.easel, ["add", "d.drawing", "star"], environment: environment, currentDirectory: s.folder.url)
            #expect(loser.status == 1)
            #expect(
                loser.stderr
                    == "easel: error: \(s.folder.file("d.drawing").path): another easel is editing this document; try again when it has finished\n"
            )
        }
        #expect(try graphics(s) == 0, "nothing was written")
    }

    @Test func readingTakesNoLockAndWritesNothing() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing", 800, 600)
        try s.ok(["info", "d.drawing"])
        try s.ok(["validate", "d.drawing"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.path) == ["d.drawing"])
    }
}

final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int32]
    init(count: Int) { values = Array(repeating: -2, count: count) }
    func set(_ i: Int, _ value: Int32) { lock.withLock { values[i] = value } }
    var all: [Int32] { lock.withLock { values } }
}
