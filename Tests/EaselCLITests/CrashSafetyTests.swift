import Testing
import Foundation
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo
import EaselTestSupport

/// Kills easel with SIGKILL at random moments while it saves a document and while it
/// exports a folder, then checks that nothing is ever half-written: the document is its
/// old or its new version, every output PNG decodes, and the next export completes.
/// The suite runs a few trials; Tests/Scripts/crash-test.sh runs 200 or more
/// (`EASEL_CRASH_TRIALS`).
@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    static let trials = ProcessInfo.processInfo.environment["EASEL_CRASH_TRIALS"].flatMap(Int.init) ?? 12

    /// Starts `easel arguments`, kills it after `delay` seconds (if still running), waits.
    @discardableResult
    func runAndKill(_ s: CLIScratch, _ arguments: [String], after delay: Double) throws -> Bool {
        let process = try s.launch(arguments)
        Thread.sleep(forTimeInterval: delay)
        let killed = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return killed
    }

    @Test func aDocumentKilledWhileSavingIsTheOldOrTheNewVersion() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        // Kill times spread over one whole run, so that every stage (start, read, edit,
        // write, flush, rename, history) is hit in some trial.
        let started = Date()
        try s.ok(["add", "d.drawing", "diamond"])
        let runTime = Date().timeIntervalSince(started)
        var expected = 1
        var killedMidway = 0
        for trial in 0..<Self.trials {
            let delay = Double.random(in: 0...(runTime * 1.2))
            if try runAndKill(s, ["add", "d.drawing", trial % 2 == 0 ? "star" : "cloud"], after: delay) { killedMidway += 1 }
            var warnings: [DocumentWarning] = []
            let drawing = try Drawing(decoding: s.bytes("d.drawing"), file: "d.drawing", warnings: &warnings)
            #expect(
                drawing.graphics.count == expected || drawing.graphics.count == expected + 1,
                "trial \(trial): \(drawing.graphics.count) graphics, expected \(expected) or \(expected + 1)")
            expected = drawing.graphics.count
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.folder.path).filter { $0.hasSuffix(".tmp") }
            // A killed save may leave its temporary file; it is never the document, and never
            // named like one (the Cards app loads any file whose name contains ".rwcard").
            #expect(!leftovers.contains { $0.contains(".rwcard") || $0.contains(".drawing") }, "\(leftovers)")
            for leftover in leftovers { try? FileManager.default.removeItem(at: s.folder.file(leftover)) }
        }
        // The document still edits normally afterwards, history and all.
        try s.ok(["add", "d.drawing", "heart"])
        try s.ok(["undo", "d.drawing"])
        print(
            "crash safety (save): \(Self.trials) trials over \(Int(runTime * 1000)) ms runs, \(killedMidway) killed while running, \(expected - 1) edits landed"
        )
    }

    @Test func anExportKilledAnywhereLeavesNoHalfFileAndTheNextRunCompletes() throws {
        let s = CLIScratch()
        let card = try CardEncoder.encode(Card(textElements: [TextElement(text: "crash")]), file: "c")
        for i in 0..<40 { try s.folder.write(card, to: "Docs/\(i % 4)/card-\(i).rwcard") }
        var killedMidway = 0
        for trial in 0..<Self.trials {
            // Every other trial re-renders everything, so that kills land mid-export.
            let force = trial % 2 == 0 ? ["--force"] : []
            if try runAndKill(s, ["export", "Docs", "--out", "Out", "--jobs", "2"] + force, after: Double.random(in: 0...0.6)) {
                killedMidway += 1
            }
            for png in try pngs(in: s.folder.file("Out")) {
                #expect(
                    (try? PNGDecoder.decode(Array(Data(contentsOf: png)))) != nil,
                    "trial \(trial): \(png.path) is not a whole PNG")
            }
            let manifest = s.folder.file("Out/.easel-manifest.json")
            if FileManager.default.fileExists(atPath: manifest.path) {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(contentsOf: manifest))) != nil,
                    "trial \(trial): the manifest is whole")
            }
            // Touch a few documents so later trials have work to do.
            if trial % 3 == 0 { try s.folder.write(card, to: "Docs/0/card-\(trial % 40 - trial % 40 % 4).rwcard") }
        }
        let final = try s.ok(["export", "Docs", "--out", "Out", "--report", "r.json"])
        let report = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: s.folder.file("r.json")))
        #expect(report.totals.failed == 0 && report.totals.rendered + report.totals.skipped == 40, "\(final.stderr)")
        #expect(try pngs(in: s.folder.file("Out")).count == 40)
        print(
            "crash safety (export): \(Self.trials) trials, \(killedMidway) killed while running; the next run rendered \(report.totals.rendered)"
        )
    }

    @Test func theNextRunPicksUpWhereAKilledOneStopped() throws {
        let s = CLIScratch()
        let card = try CardEncoder.encode(Card(textElements: [TextElement(text: "resume")]), file: "c")
        for i in 0..<60 { try s.folder.write(card, to: "Docs/card-\(i).rwcard") }
        try runAndKill(s, ["export", "Docs", "--out", "Out", "--jobs", "1"], after: 1.2)
        let done = try pngs(in: s.folder.file("Out")).count
        try s.ok(["export", "Docs", "--out", "Out", "--report", "r.json"])
        let report = try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: s.folder.file("r.json")))
        // At most the document in flight when it was killed is done again.
        #expect(report.totals.rendered <= 60 - done + 1, "\(done) outputs existed; \(report.totals.rendered) rendered again")
        #expect(report.totals.skipped >= done - 1)
        #expect(
            !FileManager.default.fileExists(atPath: s.folder.file("Out/.easel-manifest.json.journal").path),
            "the journal is folded in")
    }

    func pngs(in folder: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "png" }
    }
}
