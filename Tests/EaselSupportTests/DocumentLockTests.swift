import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// The advisory lock every editor takes beside a document (easel processes, server
/// replicas, a server's threads): one holder at a time, a clear message for one that waited
/// too long, free again when released, and nothing planted in its place followed.
@Suite("The document lock lets one editor at a time in")
struct DocumentLockTests {
    let folder = TemporaryFolder()

    @Test func aSecondEditorWaitsItsTimeOutThenSaysWhyAndGetsInOnceItIsFree() throws {
        let document = try folder.write("{}", to: "d.drawing")
        do {
            let held = try DocumentLock(beside: document)
            #expect(held.url.lastPathComponent == ".easel.lock")
            try withExtendedLifetime(held) {
                let started = Date()
                #expect {
                    _ = try DocumentLock(beside: document, timeout: 0.2)
                } throws: { error in
                    "\(error)" == "\(document.path): another easel is editing this document; try again when it has finished"
                }
                #expect(Date().timeIntervalSince(started) >= 0.2, "it waited its time out")
                // Another document of the folder is not held by it.
                _ = try DocumentLock(beside: try folder.write("{}", to: "e.drawing"), timeout: 0)
            }
        }
        // Released with the value: free at once.
        _ = try DocumentLock(beside: document, timeout: 0)
    }

    @Test func editorsOnManyThreadsTakeTurns() throws {
        let document = try folder.write("", to: "d.drawing")
        // Each appends one line under the lock after reading what is there: a lost turn
        // would show as a lost line.
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            guard let lock = try? DocumentLock(beside: document, timeout: 30) else { return }
            withExtendedLifetime(lock) {
                let before = (try? String(contentsOf: document, encoding: .utf8)) ?? ""
                try? (before + "\(index)\n").write(to: document, atomically: false, encoding: .utf8)
            }
        }
        let lines = try String(contentsOf: document, encoding: .utf8).split(separator: "\n")
        #expect(Set(lines) == Set((0..<12).map { Substring("\($0)") }), "\(lines)")
    }

    @Test func aLockFileThatIsNotARegularFileIsRefusedNotFollowed() throws {
        let document = try folder.write("{}", to: "d.drawing")
        let victim = try folder.write("precious", to: "victim")
        try FileManager.default.createSymbolicLink(at: folder.file(".easel.lock"), withDestinationURL: victim)
        #expect(throws: DocumentError.self) { try DocumentLock(beside: document, timeout: 0) }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        try FileManager.default.removeItem(at: folder.file(".easel.lock"))
        try FileManager.default.createDirectory(at: folder.file(".easel.lock"), withIntermediateDirectories: false)
        #expect {
            _ = try DocumentLock(beside: document, timeout: 0)
        } throws: { error in
            "\(error)".contains("cannot open the lock file") || "\(error)".contains("is not a regular file")
        }
    }

    /// Whoever can open the lock file can hold a lock in it and keep every editor out, so
    /// only those who may write the folder's documents can open it.
    @Test func theLockFileOpensOnlyForThoseWhoMayWriteTheFolder() throws {
        func lockFileMode(folderMode: mode_t) throws -> mode_t {
            let sub = folder.file("folder-\(String(folderMode, radix: 8))")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
            chmod(sub.path, folderMode)
            let document = sub.appendingPathComponent("d.drawing")
            try "{}".write(to: document, atomically: false, encoding: .utf8)
            _ = try DocumentLock(beside: document, timeout: 0)
            var status = stat()
            #expect(stat(sub.appendingPathComponent(".easel.lock").path, &status) == 0)
            return status.st_mode & 0o7777
        }
        #expect(try lockFileMode(folderMode: 0o755) == 0o600)
        #expect(try lockFileMode(folderMode: 0o775) == 0o660)
        #expect(try lockFileMode(folderMode: 0o1777) == 0o666)

        // One an earlier Easel left open to everyone is mended by its owner.
        let document = try folder.write("{}", to: "d.drawing")
        chmod(folder.url.path, 0o755)
        let lockFile = folder.file(".easel.lock").path
        let made = creat(lockFile, 0o666)
        #expect(made >= 0)
        close(made)
        chmod(lockFile, 0o666)
        _ = try DocumentLock(beside: document, timeout: 0)
        var status = stat()
        #expect(stat(lockFile, &status) == 0 && status.st_mode & 0o7777 == 0o600)
    }
}
