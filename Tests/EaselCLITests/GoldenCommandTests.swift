import Testing
import Foundation
import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo
import EaselGolden
import EaselTestSupport

/// `easel golden` as CI and a developer run it: what each verb prints on which stream, its
/// exit status, its options. (What verify, record, prune and accept do is tested in process,
/// in EaselGoldenTests.)
@Suite("easel golden: what each verb says and its exit status")
struct GoldenCommandTests {
    static func image(block: Bool) throws -> [UInt8] {
        let image = try RasterImage(width: 60, height: 40)
        let context = try CairoContext(image: image)
        try context.setSource(.white)
        try context.paint()
        if block {
            var path = Path()
            path.addRect(Rect(x: 30, y: 10, width: 10, height: 10))
            try context.setSource(.black)
            try context.fill(path)
        }
        return try PNGEncoder.encode(image)
    }

    /// A drawing with a grey square at (`x`, 20): moving it is a small change.
    static func squareAt(_ x: Double) -> [Graphic] {
        [
            Graphic(
                kind: .rectangle, transform: GraphicTransform(center: Point(x: x, y: 20), size: Size(width: 10, height: 10)),
                fill: Color(red: 0.5, green: 0.5, blue: 0.5))
        ]
    }

    /// Two drawings with goldens, then `b` changed: the state a CI report is made in.
    static func suiteWithOneChange(_ s: CLIScratch) throws {
        try s.drawing("Docs/a.drawing", 60, 40, graphics: squareAt(20))
        try s.drawing("Docs/b.drawing", 60, 40, graphics: squareAt(20))
        try s.ok(["golden", "record", "Docs", "Goldens"])
        try s.drawing("Docs/b.drawing", 60, 40, graphics: squareAt(35))
    }

    @Test func diffExitsByVerdictAndSaysWhy() throws {
        let s = CLIScratch()
        try s.folder.write(try Self.image(block: false), to: "a.png")
        try s.folder.write(try Self.image(block: true), to: "b.png")
        #expect(try s.run(["golden", "diff", "a.png", "a.png"]).stdout == "identical\n")
        let different = try s.run(["golden", "diff", "a.png", "b.png", "--out", "diff.png"])
        #expect(different.status == 1)
        #expect(different.stdout.contains("100 pixels differ") && different.stdout.contains("10x10 at (30, 10)"))
        let composite = try s.image("diff.png")
        #expect(composite.width == 60 * 3 + 32 && composite.height == 40 + 22 + 16)
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--max-pixels", "100", "--max-delta", "255"]).status == 0)
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--max-pixels", "5%", "--max-delta", "255"]).status == 0)
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--max-pixels", "1%", "--max-delta", "255"]).status == 1)
        let json = try s.run(["golden", "diff", "a.png", "b.png", "--json"])
        let summary = try JSONDecoder().decode(ComparisonSummary.self, from: Data(json.stdout.utf8))
        #expect(summary.statistics?.differingPixels == 100 && summary.verdict == "failed")
        try s.folder.write("not png", to: "bad.png")
        let bad = try s.run(["golden", "diff", "a.png", "bad.png"])
        #expect(bad.status == 2 && bad.stderr.contains("bad.png: not a PNG image"))
        let missing = try s.run(["golden", "diff", "a.png", "missing.png"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "easel: error: missing.png: cannot open the file: No such file or directory\n", "named once")
        // The perceptual metric, from its options.
        let perceptual = try s.run(["golden", "diff", "a.png", "b.png", "--tolerance", "perceptual", "--json"])
        #expect(perceptual.status == 1)
        let judged = try JSONDecoder().decode(ComparisonSummary.self, from: Data(perceptual.stdout.utf8))
        #expect(judged.tolerance == .perceptual && judged.statistics?.differingPixels == 100)
        let suggestion = try #require(judged.wouldPassWith)
        #expect(suggestion.metric == Tolerance.perceptual.metric && suggestion.maxPixels == .count(100))
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--threshold", "0.1", "--max-pixels", "100"]).status == 0)
    }

    @Test func diffNeverWritesItsCompositeOverAnImageItCompares() throws {
        let s = CLIScratch()
        let golden = try Self.image(block: false), actual = try Self.image(block: true)
        try s.folder.write(golden, to: "a.png")
        try s.folder.write(actual, to: "b.png")
        try FileManager.default.createSymbolicLink(atPath: s.folder.file("link.png").path, withDestinationPath: "a.png")
        for out in ["a.png", "./b.png", "link.png", s.folder.file("a.png").path] {
            let result = try s.run(["golden", "diff", "a.png", "b.png", "--out", out])
            #expect(result.status == 2, "\(out)")
            #expect(
                result.stderr.contains("one of the images compared") && result.stderr.contains("nothing was written"), "\(out)")
        }
        #expect(try s.bytes("a.png") == golden)
        #expect(try s.bytes("b.png") == actual)
    }

    @Test func verifyAndPruneNameWhatFailsOnceAndExitByIt() throws {
        let s = CLIScratch()
        try Self.suiteWithOneChange(s)
        try s.drawing("Docs/nested/c.drawing", 60, 40)
        try s.ok(["golden", "record", "Docs", "Goldens", "--only-missing"])
        let result = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"])
        #expect(result.status == 1)
        let failed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(failed.count == 1 && failed[0].hasPrefix("FAIL Docs/b.drawing: "), "\(result.stdout)")
        #expect(failed.first?.components(separatedBy: "b.drawing").count == 2, "named once: \(failed)")
        #expect(result.stderr.contains("easel: 2 of 3 documents match their goldens"), "\(result.stderr)")
        #expect(result.stderr.contains("accept what it shows with `easel golden accept Report`"), "\(result.stderr)")
        // The hint to accept is a command that can be pasted, whatever the report's name.
        let odd = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "R <b>\"x y'z"])
        #expect(odd.stderr.contains("easel golden accept 'R <b>\"x y'\\''z'"), "\(odd.stderr)")
        // Accept takes only failed and new renderings: no hint for a golden that cannot be read.
        try s.folder.write("not a png", to: "Goldens/a.png")
        try s.drawing("Docs/b.drawing", 60, 40, graphics: Self.squareAt(20))
        let unreadable = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"])
        #expect(unreadable.status == 1 && !unreadable.stderr.contains("golden accept"), "\(unreadable.stderr)")
        try FileManager.default.removeItem(at: s.folder.file("Docs/nested/c.drawing"))
        let check = try s.run(["golden", "prune", "Docs", "Goldens", "--check"])
        #expect(check.status == 1 && check.stdout == "orphan Goldens/nested/c.png\n", "\(check.stdout)")
        let dryRun = try s.ok(["golden", "prune", "Docs", "Goldens"])
        #expect(dryRun.stderr.contains("run again with --delete"))
        #expect(FileManager.default.fileExists(atPath: s.folder.file("Goldens/nested/c.png").path), "nothing is removed")
        let deleted = try s.ok(["golden", "prune", "Docs", "Goldens", "--delete"])
        #expect(deleted.stdout == "removed Goldens/nested/c.png\n", "\(deleted.stdout)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("Goldens/nested/c.png").path))
        #expect(try s.run(["golden", "prune", "Docs", "Goldens", "--check"]).status == 0)
    }

    /// A report goes only where no one else's page is: a folder holding an index.html that
    /// is not an earlier report is refused before anything is rendered, and it stays. A report
    /// that cannot be written is a failure (exit 1, its reason), not a usage error; and the
    /// hints name the folders as words that can be pasted.
    @Test func verifysReportReplacesOnlyAnEarlierReportAndSaysWhyItCannot() throws {
        let s = CLIScratch()
        try s.drawing("My Docs/a.drawing", 60, 40, graphics: Self.squareAt(20))
        try s.folder.write("<h1>my site</h1>", to: "site/index.html")
        let refused = try s.run(["golden", "verify", "My Docs", "My Goldens", "--report", "site"])
        #expect(refused.status == 1 && !refused.stderr.contains("Usage:"), "\(refused.stderr)")
        #expect(refused.stderr.contains("holds index.html, not an earlier report of easel golden verify"), "\(refused.stderr)")
        #expect(try String(decoding: s.bytes("site/index.html"), as: UTF8.self) == "<h1>my site</h1>")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("site/report.json").path))
        // A report folder that cannot be made: a file is in its way.
        try s.folder.write("a file", to: "blocked")
        let blocked = try s.run(["golden", "verify", "My Docs", "My Goldens", "--report", "blocked/report"])
        #expect(blocked.status == 1 && !blocked.stderr.contains("Usage:"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("the report's folder cannot be made"), "\(blocked.stderr)")
        // A missing golden's hint, with folders that need quoting; and an earlier report is replaced.
        let missing = try s.run(["golden", "verify", "My Docs", "My Goldens", "--report", "Report"])
        #expect(missing.stdout.contains("easel golden record 'My Docs' 'My Goldens' --only-missing"), "\(missing.stdout)")
        // A golden that cannot be written names its document and the reason.
        let unwritable = try s.run(["golden", "record", "My Docs", "blocked/goldens"])
        #expect(
            unwritable.stderr.contains("a.drawing: its golden") && unwritable.stderr.contains("Not a directory"),
            "\(unwritable.stderr)")
        #expect(!unwritable.stderr.contains("CocoaError"), "\(unwritable.stderr)")
        let again = try s.run(["golden", "verify", "My Docs", "My Goldens", "--report", "Report"])
        #expect(
            again.status == missing.status && FileManager.default.fileExists(atPath: s.folder.file("Report/report.json").path))
    }

    /// Without size options, record and verify render as the goldens were recorded; other
    /// sizes are used with a note, and a record of only some at another size is refused.
    @Test func recordAndVerifyRenderAsTheGoldensWereRecorded() throws {
        let s = CLIScratch()
        try s.drawing("Docs/a.drawing", 40, 30)
        try s.ok(["golden", "record", "Docs", "Goldens", "--scale", "0.5"])
        try s.drawing("Docs/c.drawing", 40, 30)
        try s.ok(["golden", "record", "Docs", "Goldens", "--only-missing"])
        #expect(try s.image("Goldens/c.png").width == 20, "at the recorded scale 0.5, not the default")
        #expect(try s.ok(["golden", "verify", "Docs", "Goldens"]).stderr.contains("2 of 2 documents match"))
        let scaled = try s.run(["golden", "verify", "Docs", "Goldens", "--scale", "1"])
        #expect(scaled.status == 1 && scaled.stderr.contains("recorded at scale 0.5"), "\(scaled.stderr)")
        let mixed = try s.run(["golden", "record", "Docs", "Goldens", "--only-missing", "--scale", "2"])
        #expect(mixed.status == 64 && mixed.stderr.contains("the goldens were recorded at scale 0.5"), "\(mixed.stderr)")
        // The same size spelled another way is the same size.
        try s.drawing("D2/a.drawing", 40, 30)
        try s.ok(["golden", "record", "D2", "G2"])
        try s.drawing("D2/b.drawing", 40, 30)
        try s.ok(["golden", "record", "D2", "G2", "--only-missing", "--scale", "1"])
        // Recording an error image in place of a missing photo is said, naming the card.
        try s.folder.write(try Self.image(block: true), to: "D3/PHOTO")
        try s.card("D3/c.rwcard", Card(imageElements: [ImageElement(imageFilename: "PHOTO")]))
        try s.ok(["golden", "record", "D3", "G3", "--preset", "thumbnail"])
        try FileManager.default.removeItem(at: s.folder.file("D3/PHOTO"))
        let record = try s.ok(["golden", "record", "D3", "G3", "--only-failed"])
        #expect(record.stdout == "recorded G3/c.png\n", "as typed: \(record.stdout)")
        #expect(record.stderr.contains("easel: warning: ") && record.stderr.contains("c.rwcard"), "\(record.stderr)")
        #expect(record.stderr.contains("is missing"), "\(record.stderr)")
    }

    /// Arguments after `easel golden`, and what the error must say.
    static let refused: [([String], String)] = [
        (["verify", "Docs", "Goldens", "--format", "svg"], "goldens are PNG images"),
        (["verify", "Docs", "Goldens", "--png-filter", "paeth"], "verify compares pixels"),
        (["verify", "Docs", "Goldens", "--png-compression", "9"], "verify compares pixels"),
        (["verify", "Docs", "Goldens", "--jobs", "0"], "--jobs must be from 1 to 256"),
        (["verify", "Docs", "Goldens", "--report", "Goldens/report"], "is inside the goldens folder"),
        (["record", "Docs", "Goldens", "--format", "pdf"], "goldens are PNG images"),
        (["record", "Docs", "Goldens", "--area", "0"], "--area is for export"),
        (["record", "Docs", "Goldens", "--only-failed", "--only-missing"], "give one"),
        (["record", "Docs", "afile"], "is a file, not a folder"),
        (["record", "Docs", "Docs"], "a folder of their own"),
        (["verify", "Dcos", "Goldens"], "does not exist"),
        (["prune", "Docs", "Goldens", "--check", "--delete"], "give one of them"),
        (["diff", "a.png", "a.png", "--threshold", "2"], "--threshold must be from 0 to 1"),
        (["diff", "a.png", "a.png", "--threshold", "0.1", "--max-delta", "3"], "belong to the channel metric"),
    ]

    @Test(arguments: refused)
    func optionsThatMakeNoSenseAreUsageErrors(arguments: [String], said: String) throws {
        let s = CLIScratch()
        try s.drawing("Docs/a.drawing")
        try s.folder.write("not a folder", to: "afile")
        try s.folder.write(try Self.image(block: false), to: "a.png")
        let result = try s.run(["golden"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("easel: error: ") && result.stderr.contains(said), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("Goldens").path), "\(arguments): nothing made")
    }

    @Test func aSettingsFileThatCannotBeUsedIsAUsageErrorNamingIt() throws {
        let s = CLIScratch()
        try s.drawing("Docs/a.drawing")
        try s.ok(["golden", "record", "Docs", "Goldens"])
        let file = s.folder.file("Goldens/.easel-golden-settings.json")
        var settings = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        settings["tolerence"] = ["maxPixels": ["count": 1000]]
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        for verb in ["verify", "record"] {
            let typo = try s.run(["golden", verb, "Docs", "Goldens"])
            #expect(typo.status == 64, "\(verb): \(typo.stderr)")
            #expect(typo.stderr.contains(".easel-golden-settings.json: tolerence: unknown key"), "\(verb): \(typo.stderr)")
        }
    }

    @Test func acceptSaysWhatItAcceptedAndFailsWhenItSkipsAny() throws {
        let s = CLIScratch()
        try Self.suiteWithOneChange(s)
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"]).status == 1)
        // From another folder, the report's relative "Goldens" is not a folder: refused, nothing made.
        try FileManager.default.createDirectory(at: s.folder.file("elsewhere"), withIntermediateDirectories: true)
        let elsewhere = try ProcessRunner.run(
            s.easel, ["golden", "accept", "../Report"], environment: s.environment, currentDirectory: s.folder.file("elsewhere"))
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains("is not a folder here"), "\(elsewhere.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.file("elsewhere").path).isEmpty)
        let dryRun = try s.ok(["golden", "accept", "Report", "--dry-run"])
        #expect(dryRun.stdout == "would accept Goldens/b.png\n", "\(dryRun.stdout)")
        let accepted = try s.ok(["golden", "accept", "Report"])
        #expect(accepted.stdout == "accepted Goldens/b.png\n" && accepted.stderr.contains("look at them before committing"))
        let again = try s.ok(["golden", "accept", "Report"])
        #expect(again.stdout.contains("unchanged") && again.stderr.contains("accepted 0 goldens"), "\(again.stderr)")
        // A golden recorded again since the report: left alone, said, and the status says so.
        try s.drawing("Docs/b.drawing", 60, 40, graphics: Self.squareAt(45))
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"]).status == 1)
        try s.drawing("Docs/b.drawing", 60, 40, graphics: Self.squareAt(50))
        try s.ok(["golden", "record", "Docs", "Goldens"])
        let skipped = try s.run(["golden", "accept", "Report"])
        #expect(skipped.status == 1, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("easel: error: skipped b: the golden changed since the report"), "\(skipped.stderr)")
    }

    /// The flags after "it would pass with " in `text`.
    static func suggestedFlags(in text: String) -> [String]? {
        guard let range = text.range(of: "it would pass with ") else { return nil }
        let rest = text[range.upperBound...].prefix { $0 != "\n" && $0 != "(" && $0 != ";" }
        return rest.split(separator: " ").map(String.init).filter { !$0.isEmpty }
    }

    /// A failure on the command line suggests the command line's flags, which pass when given.
    @Test(arguments: [[], ["--tolerance", "perceptual"]])
    func verifySuggestsFlagsThatThenPass(tolerance: [String]) throws {
        let s = CLIScratch()
        try Self.suiteWithOneChange(s)
        let failed = try s.run(["golden", "verify", "Docs", "Goldens"] + tolerance)
        #expect(failed.status == 1)
        #expect(!failed.stdout.contains(".fuzzy(") && !failed.stdout.contains("Tolerance("), "\(failed.stdout)")
        let flags = try #require(Self.suggestedFlags(in: failed.stdout), "\(failed.stdout)")
        #expect(flags.contains("--max-pixels") && flags.contains("--max-delta") == tolerance.isEmpty, "\(flags)")
        let passed = try s.run(["golden", "verify", "Docs", "Goldens"] + flags)
        #expect(passed.status == 0, "the suggestion passes: \(flags): \(passed.stdout)\(passed.stderr)")
    }

    @Test func diffSuggestsFlagsThatThenPass() throws {
        let s = CLIScratch()
        try Self.suiteWithOneChange(s)
        try s.ok(["export", "Docs/b.drawing", "-o", "now.png"])
        let different = try s.run(["golden", "diff", "Goldens/b.png", "now.png"])
        #expect(different.status == 1)
        let flags = try #require(Self.suggestedFlags(in: different.stdout), "\(different.stdout)")
        #expect(flags.contains("--max-delta") && flags.contains("--max-pixels"), "\(flags)")
        #expect(try s.run(["golden", "diff", "Goldens/b.png", "now.png"] + flags).status == 0)
    }
}
