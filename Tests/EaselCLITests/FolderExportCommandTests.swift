import EaselBatch
import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// `easel export` into a folder, as a shell or a script sees it: one line per file as it
/// happens, paths as they were typed, failures and the summary on standard error, JSON
/// lines with --json, a live line only on a terminal, and the exit status. (What the export
/// writes, skips and refuses is tested in process, in EaselBatchTests.)
@Suite("easel export into a folder: its lines, streams and exit status")
struct FolderExportCommandTests {
    @Test func anyMixOfDocumentsAndFoldersGoesIntoAFolderNamedAsTyped() throws {
        let s = CLIScratch()
        try s.card("a.rwcard")
        try s.drawing("b.drawing", 40, 30)
        try s.drawing("Album/sub/c.drawing", 20, 10)
        let mixed = try s.ok(["export", "a.rwcard", "b.drawing", "Album", "--out", "pngs"])
        #expect(mixed.stdout.contains("wrote pngs/Album/sub/c.png\n"), "paths as given: \(mixed.stdout)")
        for name in ["pngs/a.png", "pngs/b.png", "pngs/Album/sub/c.png"] {
            #expect(FileManager.default.fileExists(atPath: s.folder.file(name).path), "\(name)")
        }
        // One document into a folder: an existing one, or a path ending in /, made with its parents.
        try s.ok(["export", "b.drawing", "--out", "pngs"])
        #expect(try s.image("pngs/b.png").width == 40)
        try s.ok(["export", "b.drawing", "--out", "new/deep/"])
        #expect(try s.image("new/deep/b.png").width == 40)
        try s.ok(["export", "b.drawing", "--out", "made/for/it.png"])
        #expect(try s.image("made/for/it.png").height == 30, "parent folders are created")
    }

    @Test func outputPathsAreShownAsGivenWholeComponentsOnly() throws {
        // The output folder's name starts with the input folder's: the input's prefix must
        // not be replaced inside the output's path ("/tmp/x/in-out" given in full, with
        // "in" given for /tmp/x/in, used to be shown as "in-out"; "." for /tmp/x with
        // /tmp/x-out as ".-out").
        let s = CLIScratch()
        try s.drawing("in/a.drawing", 30, 20)
        let relative = try s.ok(["export", "in", "--out", "in-out"])
        #expect(relative.stdout == "wrote in-out/a.png\n", "\(relative.stdout)")
        let mixed = try s.ok(["export", "in", "--out", s.folder.file("in-out2").path])
        #expect(mixed.stdout == "wrote \(s.folder.file("in-out2").path)/a.png\n", "\(mixed.stdout)")
        let sibling = s.folder.url.path + "-out"
        defer { try? FileManager.default.removeItem(atPath: sibling) }
        let dot = try s.ok(["export", ".", "--out", sibling, "--exclude", "in-out", "--exclude", "in-out2"])
        #expect(dot.stdout.contains("wrote \(sibling)/in/a.png\n"), "\(dot.stdout)")
    }

    @Test func failuresAreErrorLinesTheSummaryFollowsAndTheStatusIs1() throws {
        let s = CLIScratch()
        try s.drawing("in/a.drawing")
        try s.card("in/b.rwcard", Card(textElements: [TextElement(text: "Hi", textFont: "Wingdings")]))
        try s.folder.write("{ not json", to: "in/broken.rwcard")
        let result = try s.run(["export", "in", "--out", "out", "--report", "r.json"])
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("wrote out/") }.count == 2, "\(result.stdout)")
        #expect(result.stderr.contains("easel: error: in/broken.rwcard: not valid JSON"), "as typed: \(result.stderr)")
        #expect(
            result.stderr.contains("rendered 2 (1 with warnings; --verbose lists them"), "\(result.stderr)")
        #expect(result.stderr.contains("failed 1 of 3 documents"), "\(result.stderr)")
        #expect(!result.stderr.contains("Wingdings"), "warnings are not listed without --verbose")
        #expect(!result.stderr.contains("\u{1B}"), "no control codes when standard error is not a terminal")
        let report = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: s.folder.file("r.json")))
        #expect(report.totals.failed == 1 && report.totals.withWarnings == 1)
        let verbose = try s.run(["export", "in", "--out", "out2", "--verbose"])
        #expect(verbose.stderr.contains("easel: warning: ") && verbose.stderr.contains("Wingdings"), "\(verbose.stderr)")
    }

    @Test func aReportOrAnOutputFolderThatCannotBeWrittenFailsOnceBeforeAnythingIsMade() throws {
        let s = CLIScratch()
        for name in ["a", "b", "c"] { try s.drawing("in/\(name).drawing") }
        let report = try s.run(["export", "in", "--out", "out", "--report", "nowhere/r.json"])
        #expect(report.status == 2, "could not start: 2, not 1 (documents failed)")
        #expect(report.stderr.contains("nowhere/r.json: the report's folder does not exist"), "\(report.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("out").path), "refused before anything was made")
        try s.folder.write("a file, not a folder", to: "blocker")
        let folder = try s.run(["export", "in", "--out", "blocker/out"])
        #expect(folder.status == 2)
        #expect(folder.stderr.split(separator: "\n").count == 1, "once, not for every document: \(folder.stderr)")
        #expect(folder.stderr.contains("cannot create the output folder"), "\(folder.stderr)")
    }

    @Test func jsonIsOneObjectPerDocumentThenTheTotals() throws {
        let s = CLIScratch()
        try s.drawing("in/a.drawing")
        try s.drawing("in/two\nlines.drawing")
        try s.folder.write("{", to: "in/broken.drawing")
        let result = try s.run(["export", "in", "--out", "out", "--json"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4, "\(result.stdout)")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.prefix(3).allSatisfy { $0["event"] as? String == "document" })
        #expect(objects.contains { ($0["input"] as? String)?.hasSuffix("two\nlines.drawing") == true }, "names stay intact")
        #expect(objects.contains { $0["status"] as? String == "failed" && $0["output"] == nil && $0["error"] != nil })
        let totals = try #require(objects.last)
        #expect(totals["event"] as? String == "totals" && totals["rendered"] as? Int == 2 && totals["failed"] as? Int == 1)
    }

    @Test func eachLineAppearsAsItHappensInAPipe() async throws {
        let s = CLIScratch()
        for index in 0..<40 { try s.drawing("in/d\(index).drawing", 2000, 2000) }
        let export = try RunningEasel(s, ["export", "in", "--out", "out", "--jobs", "1"])
        let stillRunning = Locked(false)
        // Looked at the moment the line comes (and the rest of the run stopped then).
        let firstLine = await whenTrue({ export.output.contains("\n") }) {
            stillRunning.withLock { $0 = export.sendIfRunning(SIGTERM) }
        }
        await export.process.exited()
        #expect(firstLine && export.output.hasPrefix("wrote "), "\(export.output)")
        #expect(stillRunning.withLock { $0 }, "the first line came while the run was still going")
    }

    /// SIGTERM (or Ctrl-C) ends a folder export between documents: the status of the signal,
    /// a line saying what was left, and a report that says it was interrupted.
    @Test func aSignalStopsTheRunSayingWhatWasLeft() async throws {
        let s = CLIScratch()
        for index in 0..<40 { try s.drawing("in/d\(index).drawing", 2000, 2000) }
        let export = try RunningEasel(s, ["export", "in", "--out", "out", "--jobs", "1", "--report", "r.json"])
        let signalled = Locked(false)
        #expect(
            await whenTrue({ export.output.contains("wrote ") }) { signalled.withLock { $0 = export.sendIfRunning(SIGTERM) } })
        #expect(signalled.withLock { $0 }, "under way")
        #expect(await export.process.exited() == 128 + SIGTERM)
        #expect(await eventually { export.log.contains("documents not started, the manifest is saved") }, "\(export.log)")
        #expect(export.log.contains("easel: stopped by SIGTERM; "), "\(export.log)")
        let report = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: s.folder.file("r.json")))
        #expect(report.interrupted && report.totals.notStarted > 0)
    }

    @Test func aTerminalGetsOneLiveLine() throws {
        let s = CLIScratch()
        for i in 0..<30 { try s.card("Docs/c-\(i).rwcard") }
        guard let result = try s.onTerminal(["export", "Docs", "--out", "Out", "--preset", "thumbnail"]) else { return }
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\r\u{1B}[K[30/30]"), "the live line is redrawn in place")
        #expect(result.stdout.contains("rendered 30, skipped 0, failed 0 of 30 documents"))
    }
}
