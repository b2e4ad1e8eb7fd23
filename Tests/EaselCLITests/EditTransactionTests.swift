import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// An edit is one transaction: the document and its history change together or not at all,
/// and the message says which. Earlier Easel versions' sidecars move into the state folder.
@Suite("Edit transactions")
struct EditTransactionTests {
    /// Runs easel under a file-size limit of `kilobytes`, so writing a larger file fails with
    /// EFBIG as on a full disk (SIGXFSZ ignored, as a full disk sends no signal).
    func runLimited(_ s: CLIScratch, kilobytes: Int, _ arguments: [String]) throws -> ProcessResult {
        let command = "trap '' XFSZ; ulimit -f \(kilobytes); exec \"$0\" \"$@\""
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", command, s.easel.path] + arguments, environment: s.environment,
            currentDirectory: s.folder.url)
    }

    @Test func aWriteThatFailsChangesNeitherTheDocumentNorItsHistory() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        for _ in 0..<40 { try s.ok(["add", "d.drawing", "star", "--at", "100,100"]) }
        let before = try s.bytes("d.drawing")
        #expect(before.count > 8 * 1024)
        let failed = try runLimited(s, kilobytes: 4, ["add", "d.drawing", "heart"])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.contains("nothing was saved: the document and its undo history are as they were"), "\(failed.stderr)")
        #expect(try s.bytes("d.drawing") == before, "the document is as it was")
        // The history is as it was too: undo takes back the 40th star, not a phantom heart.
        try s.ok(["undo", "d.drawing"])
        let info = try s.ok(["info", "d.drawing"]).stdout
        #expect(info.contains("39 elements"), "\(info)")
        // A retry adds exactly one element.
        try s.ok(["redo", "d.drawing"])
        try s.ok(["add", "d.drawing", "heart"])
        #expect(try s.ok(["info", "d.drawing"]).stdout.contains("41 elements"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.folder.path).sorted() == [".easel.lock", "d.drawing"],
            "no temporary file is left (the folder's lock stays)")
    }

    @Test func sidecarsOfEarlierVersionsMoveIntoTheStateFolder() throws {
        let s = CLIScratch()
        let older = Drawing(background: .white)
        let current = Drawing(background: .black)
        try s.folder.write(DrawingEncoder.encode(current), to: "d.drawing")
        // Easel 1's history: whole earlier versions beside the document, and its lock file.
        let hash = { (bytes: [UInt8]) -> String in
            var value: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return String(value, radix: 16)
        }
        let legacy: [String: Any] = [
            "format": "org.easel.history", "version": 1, "documentHash": hash(DrawingEncoder.encode(current)),
            "undo": [String(decoding: DrawingEncoder.encode(older), as: UTF8.self)], "redo": [String](),
        ]
        try s.folder.write(Array(try JSONSerialization.data(withJSONObject: legacy)), to: ".d.drawing.easel-history")
        try s.folder.write("", to: ".d.drawing.easel-lock")

        let result = try s.ok(["undo", "d.drawing"])
        #expect(result.stdout == "undid the last edit of d.drawing\n")
        #expect(result.stderr.contains("moved the undo history"))
        #expect(try DocumentRegistry.standard.open(s.folder.file("d.drawing")).document as? Drawing == older)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.folder.path).sorted() == [".easel.lock", "d.drawing"],
            "the sidecars are gone (the folder's lock stays)")
        try s.ok(["redo", "d.drawing"])
        #expect(try DocumentRegistry.standard.open(s.folder.file("d.drawing")).document as? Drawing == current)
    }
}
