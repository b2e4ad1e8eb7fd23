import EaselCairo
import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// Kills easel with SIGKILL at random moments while it saves a document and while it
/// exports a folder, then checks that nothing is ever half-written: the document is its
/// old or its new version, every output PNG decodes, and the next export completes. Only
/// a whole process can be killed, so these start the built `easel`. The suite runs a few
/// trials; Tests/Scripts/crash-test.sh runs 200 or more (`EASEL_CRASH_TRIALS`).
@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    static let trials = ProcessInfo.processInfo.environment["EASEL_CRASH_TRIALS"].flatMap(Int.init) ?? 12

    /// Starts `easel arguments` and kills it `delay` seconds later, unless it ended before;
    /// true when it was still running.
    func runAndKill(_ easel: EaselScratch, _ arguments: [String], after delay: Double) async throws -> Bool {
        !(await (try easel.launch(arguments)).exited(within: delay))
    }

    /// How long `easel arguments` takes, run to its end.
    func duration(_ easel: EaselScratch, _ arguments: [String]) throws -> Double {
        let started = Date()
        let result = try easel.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return Date().timeIntervalSince(started)
    }

    func graphics(_ easel: EaselScratch) throws -> Int {
        var warnings: [DocumentWarning] = []
        let bytes = Array(try Data(contentsOf: easel.folder.file("d.drawing")))
        return try Drawing(decoding: bytes, file: "d.drawing", warnings: &warnings).graphics.count
    }

    @Test func aDocumentKilledWhileSavingIsTheOldOrTheNewVersion() async throws {
        let easel = EaselScratch()
        try easel.folder.write(DrawingEncoder.encode(Drawing()), to: "d.drawing")
        // Kill times spread over one whole run, so that every stage (start, read, edit,
        // write, flush, rename, history) is hit in some trial.
        let runTime = try duration(easel, ["add", "d.drawing", "diamond"])
        var expected = 1
        var killedMidway = 0
        for trial in 0..<Self.trials {
            let delay = Double.random(in: 0...(runTime * 1.2))
            if try await runAndKill(easel, ["add", "d.drawing", trial % 2 == 0 ? "star" : "cloud"], after: delay) {
                killedMidway += 1
            }
            let count = try graphics(easel)
            #expect(
                count == expected || count == expected + 1,
                "trial \(trial): \(count) graphics, expected \(expected) or \(expected + 1)")
            expected = count
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: easel.folder.path).filter { $0.hasSuffix(".tmp") }
            // A killed save may leave its temporary file; it is never the document, and never
            // named like one (the Cards app loads any file whose name contains ".rwcard").
            #expect(!leftovers.contains { $0.contains(".rwcard") || $0.contains(".drawing") }, "\(leftovers)")
            for leftover in leftovers { try? FileManager.default.removeItem(at: easel.folder.file(leftover)) }
        }
        // The document still edits normally afterwards, history and all.
        #expect(try easel.run(["add", "d.drawing", "heart"]).status == 0)
        #expect(try easel.run(["undo", "d.drawing"]).status == 0)
        print(
            "crash safety (save): \(Self.trials) trials over \(Int(runTime * 1000)) ms runs, \(killedMidway) killed while running, \(expected - 1) edits landed"
        )
    }

    @Test func anExportKilledAnywhereLeavesNoHalfFileAndTheNextRunCompletes() async throws {
        let easel = EaselScratch()
        let card = try CardEncoder.encode(Card(textElements: [TextElement(text: "crash")]), file: "c")
        for i in 0..<40 { try easel.folder.write(card, to: "Docs/\(i % 4)/card-\(i).rwcard") }
        let export = ["export", "Docs", "--out", "Out", "--jobs", "2", "--scale", "0.5"]
        // Kill times spread over a whole run's length.
        let runTime = try duration(easel, export + ["--force"])
        var killedMidway = 0
        for trial in 0..<Self.trials {
            // Every other trial renders everything again, so that kills land mid-export.
            let force = trial % 2 == 0 ? ["--force"] : []
            if try await runAndKill(easel, export + force, after: Double.random(in: 0...(runTime * 1.2))) {
                killedMidway += 1
            }
            for png in easel.pngs(in: "Out") {
                let bytes = try? Data(contentsOf: easel.folder.file(png))
                #expect(bytes.flatMap { try? PNGDecoder.decode(Array($0)) } != nil, "trial \(trial): \(png) is not a whole PNG")
            }
            let manifest = easel.folder.file("Out/.easel-manifest.json")
            if FileManager.default.fileExists(atPath: manifest.path) {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(contentsOf: manifest))) != nil,
                    "trial \(trial): the manifest is whole")
            }
            // Touch a few documents so later trials have work to do.
            if trial % 3 == 0 { try easel.folder.write(card, to: "Docs/0/card-\(trial % 40 - trial % 40 % 4).rwcard") }
        }
        let final = try easel.run(export + ["--report", "r.json"])
        let totals = try easel.totals("r.json")
        let (rendered, skipped) = (totals["rendered"] as? Int ?? -1, totals["skipped"] as? Int ?? -1)
        #expect(final.status == 0 && totals["failed"] as? Int == 0 && rendered + skipped == 40, "\(final.stderr)")
        #expect(easel.pngs(in: "Out").count == 40)
        print(
            "crash safety (export): \(Self.trials) trials, \(killedMidway) killed while running; the next run rendered \(rendered)"
        )
    }

    @Test func theNextRunPicksUpWhereAKilledOneStopped() async throws {
        let easel = EaselScratch()
        let card = try CardEncoder.encode(Card(textElements: [TextElement(text: "resume")]), file: "c")
        for i in 0..<60 { try easel.folder.write(card, to: "Docs/card-\(i).rwcard") }
        // Killed once some documents are done, however fast the machine.
        let process = try easel.launch(["export", "Docs", "--out", "Out", "--jobs", "1", "--scale", "0.5"])
        #expect(await whenTrue({ easel.pngs(in: "Out").count >= 10 || !process.isRunning }) { process.kill() })
        await process.exited()
        let done = easel.pngs(in: "Out").count
        #expect(done < 60, "killed before the end")
        let next = try easel.run(["export", "Docs", "--out", "Out", "--scale", "0.5", "--report", "r.json"])
        let totals = try easel.totals("r.json")
        let (rendered, skipped) = (totals["rendered"] as? Int ?? -1, totals["skipped"] as? Int ?? -1)
        // At most the document in flight when it was killed is done again.
        #expect(rendered <= 60 - done + 1, "\(done) outputs existed; \(rendered) rendered again: \(next.stderr)")
        #expect(skipped >= done - 1)
        #expect(!FileManager.default.fileExists(atPath: easel.folder.file("Out/.easel-manifest.json.journal").path), "folded in")
    }
}

extension Process {
    /// SIGKILL: no chance to tidy up.
    func kill() { Glibc.kill(processIdentifier, SIGKILL) }
}
