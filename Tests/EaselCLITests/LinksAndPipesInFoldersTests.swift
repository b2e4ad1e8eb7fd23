import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// Links and pipes planted in folders Easel writes to or reads from: nothing is written
/// through a link, nothing outside a document's folder is read, and nothing blocks.
@Suite("Links and pipes in Easel's folders are never written through, read outside, or waited on")
struct LinksAndPipesInFoldersTests {
    /// Runs easel, killing it if it has not finished within `seconds`; returns its status,
    /// or nil when it had to be killed.
    func runBounded(_ s: CLIScratch, _ arguments: [String], seconds: Double = 20) throws -> Int32? {
        let process = try s.launch(arguments)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    func documents(_ s: CLIScratch) throws {
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        try s.ok(["new", "drawing", "in/b.drawing", "--size", "20x20"])
    }

    @Test func aLinkPlantedAtTheJournalIsNotWrittenThrough() throws {
        let s = CLIScratch()
        try documents(s)
        try FileManager.default.createDirectory(at: s.folder.file("out"), withIntermediateDirectories: true)
        let victim = try s.folder.write("precious", to: "victim.txt")
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("out/.easel-manifest.json.journal"), withDestinationURL: victim)
        #expect(try runBounded(s, ["export", "in", "--out", "out"]) == 0)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out/a.png").path))
    }

    @Test func aPipePlantedAtTheJournalOrManifestDoesNotBlock() throws {
        let s = CLIScratch()
        try documents(s)
        try FileManager.default.createDirectory(at: s.folder.file("out"), withIntermediateDirectories: true)
        #expect(mkfifo(s.folder.file("out/.easel-manifest.json.journal").path, 0o644) == 0)
        #expect(try runBounded(s, ["export", "in", "--out", "out"]) == 0, "finishes instead of blocking on the pipe")
        try FileManager.default.createDirectory(at: s.folder.file("out2"), withIntermediateDirectories: true)
        #expect(mkfifo(s.folder.file("out2/.easel-manifest.json").path, 0o644) == 0)
        #expect(try runBounded(s, ["export", "in", "--out", "out2"]) == 0)
    }

    @Test func aPipeNamedLikeADocumentIsRefusedNotWaitedOn() throws {
        let s = CLIScratch()
        #expect(mkfifo(s.folder.file("x.rwcard").path, 0o644) == 0)
        #expect(try runBounded(s, ["info", "x.rwcard"]) == 1)
        #expect(try runBounded(s, ["validate", "x.rwcard"]) == 1)
    }

    @Test func aPackagesJSONLinkedOutsideIsNotRead() throws {
        let s = CLIScratch()
        try s.folder.write(DrawingEncoder.encode(Drawing(background: .black)), to: "outside.json")
        try FileManager.default.createDirectory(at: s.folder.file("art.drawing"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("art.drawing/drawing.json"), withDestinationURL: s.folder.file("outside.json"))
        let result = try s.run(["info", "art.drawing"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("must contain drawing.json as a file of its own (not a symbolic link)"), "\(result.stderr)")
    }
}
