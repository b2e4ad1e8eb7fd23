import Testing
import Foundation
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo
import EaselGolden
import EaselTestSupport

@Suite("easel golden")
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

    @Test func diffWritesACompositeAndExitsByVerdict() throws {
        let s = CLIScratch()
        try s.folder.write(try Self.image(block: false), to: "a.png")
        try s.folder.write(try Self.image(block: true), to: "b.png")
        #expect(try s.run(["golden", "diff", "a.png", "a.png"]).stdout == "identical\n")
        let different = try s.run(["golden", "diff", "a.png", "b.png", "--out", "diff.png"])
        #expect(different.status == 1)
        #expect(different.stdout.contains("100 pixels differ") && different.stdout.contains("10x10 at (30, 10)"))
        let composite = try s.image("diff.png")
        #expect(composite.width == 60 * 3 + 32 && composite.height == 40 + 22 + 16)
        let (left, top) = (8 + 60 + 8, 30)
        #expect(composite.pixel(x: left + 35, y: top + 15) == RGBA8(r: 0, g: 170, b: 60, a: 255), "the added block is green")
        #expect(composite.pixel(x: left + 5, y: top + 35).r > 230, "unchanged white is faded, not coloured")
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--max-pixels", "100", "--max-delta", "255"]).status == 0)
        let json = try s.run(["golden", "diff", "a.png", "b.png", "--json"])
        let summary = try JSONDecoder().decode(ComparisonSummary.self, from: Data(json.stdout.utf8))
        #expect(summary.statistics?.differingPixels == 100 && summary.verdict == "failed")
        try s.folder.write("not png", to: "bad.png")
        let bad = try s.run(["golden", "diff", "a.png", "bad.png"])
        #expect(bad.status == 2 && bad.stderr.contains("bad.png: not a PNG image"))
        let missing = try s.run(["golden", "diff", "a.png", "missing.png"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "easel: error: missing.png: cannot open the file: No such file or directory\n", "named once")
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
        #expect(try [UInt8](Data(contentsOf: s.folder.file("a.png"))) == golden)
        #expect(try [UInt8](Data(contentsOf: s.folder.file("b.png"))) == actual)
    }

    @Test func verifyNamesExactlyTheChangedDocument() throws {
        let s = CLIScratch()
        for (name, color) in [("a", "random1"), ("b", "random2"), ("nested/c", "random3")] {
            try FileManager.default.createDirectory(at: s.folder.file("Docs/nested"), withIntermediateDirectories: true)
            try s.ok(["new", "card", "Docs/\(name).rwcard", "--background", color])
            try s.ok(["add", "Docs/\(name).rwcard", "text", name, "--size", "600x300"])
        }
        try s.ok(["golden", "record", "Docs", "Goldens", "--preset", "thumbnail"])
        #expect(FileManager.default.fileExists(atPath: s.folder.file("Goldens/nested/c.png").path))
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--preset", "thumbnail"]).status == 0)
        try s.ok(["set", "Docs/b.rwcard", "0", "--text", "B changed"])
        let result = try s.run(["golden", "verify", "Docs", "Goldens", "--preset", "thumbnail", "--report", "Report"])
        #expect(result.status == 1)
        let failed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(failed.count == 1 && failed[0].hasPrefix("FAIL Docs/b.rwcard: "))
        #expect(failed.first?.components(separatedBy: "b.rwcard").count == 2, "named once: \(failed)")
        let report = try GoldenReport.read(from: s.folder.file("Report"))
        #expect(report.results.map(\.status) == [.passed, .failed, .passed])
        #expect(report.results.map { $0.document ?? "" } == ["a.rwcard", "b.rwcard", "nested/c.rwcard"], "relative paths")
        #expect(report.goldens == "Goldens" && report.counts == ["passed": 2, "failed": 1])
        #expect(
            report.results[1].images == [
                "actual": "artifacts/b/actual.png", "expected": "artifacts/b/expected.png",
                "composite": "artifacts/b/composite.png",
            ])
        let junit = try String(contentsOf: s.folder.file("Report/junit.xml"), encoding: .utf8)
        #expect(junit.contains("tests=\"3\" failures=\"1\"") && junit.contains("b.rwcard\" time=\""))
        #expect(junit.contains("\">\n      <failure"), "\(junit)")
        let html = try String(contentsOf: s.folder.file("Report/index.html"), encoding: .utf8)
        #expect(html.contains("1 failed, 2 passed") && html.contains("<img src=\"artifacts/b/composite.png\""))
        #expect(html.contains("nested/c.rwcard") && html.contains("data-status=\"passed\""), "passed results are listed too")
        #expect(!html.contains(s.folder.url.path), "no absolute path in the page")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("Report/artifacts/b/composite.png").path))
    }

    @Test func aGoldenThatIsAGitLFSPointerSaysSoAndTheReportShowsTheRendering() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "Docs/a.rwcard", "--background", "random1"])
        try s.ok(["new", "card", "Docs/b.rwcard", "--background", "random2"])
        try s.ok(["golden", "record", "Docs", "Goldens", "--preset", "thumbnail"])
        // What a clone holds when Git LFS did not fetch the image.
        let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 12345\n"
        try s.folder.write(pointer, to: "Goldens/a.png")
        try s.folder.write("not a png", to: "Goldens/b.png")
        let result = try s.run(["golden", "verify", "Docs", "Goldens", "--preset", "thumbnail", "--report", "Report"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "FAIL Docs/a.rwcard: Goldens/a.png: the golden is a Git LFS pointer, not the image: run `git lfs pull`"))
        #expect(result.stdout.contains("Goldens/b.png: the golden cannot be read"))
        #expect(result.stdout.contains("--only-failed"), "\(result.stdout)")
        let report = try GoldenReport.read(from: s.folder.file("Report"))
        #expect(
            report.results.allSatisfy { $0.status == .error && $0.images["actual"] != nil }, "the rendering is in the report")
        // Nothing was touched; recording the failed ones mends them.
        #expect(try String(contentsOf: s.folder.file("Goldens/a.png"), encoding: .utf8) == pointer)
        try s.ok(["golden", "record", "Docs", "Goldens", "--preset", "thumbnail", "--only-failed"])
        #expect(try s.image("Goldens/a.png").width == 260)
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--preset", "thumbnail"]).status == 0)
    }

    @Test func recordOnlyMissingAndPrune() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/x.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        let before = try s.bytes("Goldens/x.png")
        try s.ok(["background", "Docs/x.drawing", "black"])
        try s.ok(["new", "drawing", "Docs/y.drawing", "--size", "40x30"])
        let onlyMissing = try s.ok(["golden", "record", "Docs", "Goldens", "--only-missing"])
        #expect(onlyMissing.stdout.contains("Goldens/y.png") && !onlyMissing.stdout.contains("Goldens/x.png"))
        #expect(try s.bytes("Goldens/x.png") == before, "existing goldens are kept")
        try FileManager.default.removeItem(at: s.folder.file("Docs/y.drawing"))
        let check = try s.run(["golden", "prune", "Docs", "Goldens", "--check"])
        #expect(check.status == 1 && check.stdout.contains("orphan") && check.stdout.contains("y.png"))
        #expect(FileManager.default.fileExists(atPath: s.folder.file("Goldens/y.png").path), "--check removes nothing")
        let dryRun = try s.ok(["golden", "prune", "Docs", "Goldens"])
        #expect(dryRun.stderr.contains("run again with --delete"))
        #expect(
            FileManager.default.fileExists(atPath: s.folder.file("Goldens/y.png").path), "without --delete nothing is removed")
        try s.ok(["golden", "prune", "Docs", "Goldens", "--delete"])
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("Goldens/y.png").path))
        #expect(try s.run(["golden", "prune", "Docs", "Goldens", "--check"]).status == 0)
    }

    @Test func aMistypedOrEmptyDocumentsFolderIsAnErrorAndDeletesNothing() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/x.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        try FileManager.default.createDirectory(at: s.folder.file("Empty"), withIntermediateDirectories: true)
        for documents in ["Dcos", "Empty"] {
            for verb in ["prune", "verify", "record"] {
                var arguments = ["golden", verb, documents, "Goldens"]
                if verb == "prune" { arguments.append("--delete") }
                let result = try s.run(arguments)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(documents == "Dcos" ? "does not exist" : "holds no documents"), "\(result.stderr)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: s.folder.file("Goldens/x.png").path), "no golden was deleted")
        let typo = try s.run(["golden", "record", "Dcos", "Fresh"])
        #expect(typo.status != 0)
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("Fresh").path), "a typo creates nothing")
    }

    @Test func goldensInTheDocumentsFolderOrAboveItAreRefusedAndTouchNothing() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs/Album"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/x.drawing", "--size", "40x30"])
        // The user's own pictures beside the documents: not goldens, never to be pruned.
        try Data(try Self.image(block: true)).write(to: s.folder.file("Docs/vacation.png"))
        try Data(try Self.image(block: false)).write(to: s.folder.file("Docs/Album/holiday.png"))
        try FileManager.default.createSymbolicLink(atPath: s.folder.file("Link").path, withDestinationPath: "Docs")
        let before = try FileManager.default.subpathsOfDirectory(atPath: s.folder.file("Docs").path).sorted()
        for (documents, goldens) in [("Docs", "Docs"), ("Docs", "."), ("Docs/Album", "Docs"), ("Docs", "Link")] {
            for verb in ["prune", "verify", "record"] {
                var arguments = ["golden", verb, documents, goldens]
                if verb == "prune" { arguments.append("--delete") }
                let result = try s.run(arguments)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains("a folder of their own"), "\(arguments): \(result.stderr)")
            }
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: s.folder.file("Docs").path).sorted() == before)
        // Goldens inside the documents folder stay allowed (left out of the scan).
        try s.ok(["golden", "record", "Docs", "Docs/Goldens"])
        try s.ok(["golden", "verify", "Docs", "Docs/Goldens"])
    }

    @Test func aMissingGoldenSaysWhichEaselCommandRecordsIt() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/x.drawing", "--size", "40x30"])
        let result = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("easel golden record"), "\(result.stdout)")
        #expect(!result.stdout.contains("EASEL_GOLDEN_RECORD"))
    }

    @Test func aMissingGoldenShowsItsRenderingInTheReportAndNoTemporaryFolderIsLeft() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/x.drawing", "--size", "40x30"])
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"]).status == 1)
        let html = try String(contentsOf: s.folder.file("Report/index.html"), encoding: .utf8)
        #expect(html.contains("No golden to compare with") && html.contains("src=\"artifacts/x/actual.png\""), "\(html)")
        #expect(try GoldenReport.read(from: s.folder.file("Report")).results.map(\.status) == [.new])
        #expect(!html.contains("composite.png"), "no link to a composite that does not exist")
        // Its own temporary folder, to see that nothing is left in it.
        let temporary = s.folder.file("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var environment = s.environment
        environment["TMPDIR"] = temporary.path
        let result = try ProcessRunner.run(
            s.easel, ["golden", "verify", "Docs", "Goldens"], environment: environment, currentDirectory: s.folder.url)
        #expect(result.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [], "no temporary folder is left")
    }

    @Test func verifyRendersAsTheGoldensWereRecordedAndRefusesWhatMakesNoSense() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "Docs/c.rwcard"])
        try s.ok(["golden", "record", "Docs", "Goldens", "--preset", "thumbnail"])
        #expect(try s.image("Goldens/c.png").width == 260)
        // No flags: the recorded settings are used, so nothing fails on size.
        let result = try s.ok(["golden", "verify", "Docs", "Goldens"])
        #expect(result.stderr.contains("1 of 1 documents match"))
        // Other pixels asked for: used, with a note.
        let scaled = try s.run(["golden", "verify", "Docs", "Goldens", "--preset", "share"])
        #expect(scaled.status == 1 && scaled.stderr.contains("recorded at scale 0.2"), "\(scaled.stderr)")
        for options in [["--format", "svg"], ["--png-filter", "paeth"], ["--png-compression", "9"]] {
            #expect(try s.run(["golden", "verify", "Docs", "Goldens"] + options).status == 64, "\(options)")
        }
        #expect(try s.run(["golden", "record", "Docs", "Goldens", "--format", "pdf"]).status == 64)
    }

    @Test func recordOnlyFailedAcceptsExactlyTheChangedGoldens() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "40x30"])
        try s.ok(["new", "drawing", "Docs/b.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        let untouched = try s.bytes("Goldens/a.png")
        try s.ok(["background", "Docs/b.drawing", "black"])
        let result = try s.ok(["golden", "record", "Docs", "Goldens", "--only-failed"])
        #expect(result.stdout == "recorded Goldens/b.png\n", "as typed: \(result.stdout)")
        #expect(try s.bytes("Goldens/a.png") == untouched)
        try s.ok(["golden", "verify", "Docs", "Goldens"])
        #expect(try s.run(["golden", "record", "Docs", "Goldens", "--only-failed", "--only-missing"]).status == 64)
    }

    /// Two drawings with goldens, then `b` changed: the state a CI report is made in.
    static func suiteWithOneChange(_ s: CLIScratch) throws {
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "40x30"])
        try s.ok(["new", "drawing", "Docs/b.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        try s.ok(["background", "Docs/b.drawing", "black"])
    }

    @Test func acceptAdoptsExactlyWhatTheReportShowed() throws {
        let s = CLIScratch()
        try Self.suiteWithOneChange(s)
        try s.ok(["new", "drawing", "Docs/new.drawing", "--size", "20x20"])
        let untouched = try s.bytes("Goldens/a.png")
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"]).status == 1)
        let dryRun = try s.ok(["golden", "accept", "Report", "--dry-run"])
        #expect(dryRun.stdout.contains("would accept") && dryRun.stdout.contains("Goldens/b.png"))
        #expect(try s.image("Goldens/b.png").pixel(x: 5, y: 5).r == 255, "a dry run writes nothing")
        let accepted = try s.ok(["golden", "accept", "Report"])
        #expect(accepted.stdout.split(separator: "\n").count == 2, "b and the new document: \(accepted.stdout)")
        #expect(try s.bytes("Goldens/b.png") == s.bytes("Report/artifacts/b/actual.png"), "the report's very image")
        #expect(try s.bytes("Goldens/new.png") == s.bytes("Report/artifacts/new/actual.png"))
        #expect(try s.bytes("Goldens/a.png") == untouched)
        try s.ok(["golden", "verify", "Docs", "Goldens"])
        // Accepting again finds every golden already holding its image: nothing to do, no failure.
        let again = try s.run(["golden", "accept", "Report"])
        #expect(again.status == 0 && again.stdout.contains("already holds"), "\(again.stderr)")
    }

    @Test func acceptLeavesAGoldenThatChangedSinceTheReportAndTrustsNothingInIt() throws {
        let s = CLIScratch()
        try Self.suiteWithOneChange(s)
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"]).status == 1)
        // Someone recorded b again since (say, with another change): accepting would lose it.
        try s.ok(["background", "Docs/b.drawing", "red"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        let changed = try s.bytes("Goldens/b.png")
        let result = try s.run(["golden", "accept", "Report"])
        #expect(result.status == 1 && result.stderr.contains("changed since the report"), "\(result.stderr)")
        #expect(try s.bytes("Goldens/b.png") == changed)
        // A hostile report: names that leave the goldens folder, images outside the report.
        try FileManager.default.createDirectory(at: s.folder.file("Evil"), withIntermediateDirectories: true)
        var report = try GoldenReport.read(from: s.folder.file("Report"))
        report.results = [
            GoldenReport.Result(
                name: "../escaped", document: "x", golden: "../escaped.png", status: .new, seconds: 0,
                images: ["actual": "artifacts/b/actual.png"]),
            GoldenReport.Result(
                name: "fine", document: "y", golden: "fine.png", status: .new, seconds: 0,
                images: ["actual": "../Goldens/a.png"]),
        ]
        try report.write(to: s.folder.file("Evil"))
        let evil = try s.run(["golden", "accept", "Evil"])
        #expect(evil.status == 1 && evil.stderr.contains("outside the goldens folder"), "\(evil.stderr)")
        #expect(evil.stderr.contains("cannot be used"), "\(evil.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("escaped.png").path))
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("Goldens/fine.png").path))
        try s.folder.write("{\"goldens\": 3}", to: "Broken/report.json")
        let broken = try s.run(["golden", "accept", "Broken"])
        #expect(broken.status == 1 && broken.stderr.contains("Broken/report.json"), "\(broken.stderr)")
    }

    @Test func ignoredRegionsAndTheToleranceComeFromTheGoldensSettings() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "60x40"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        try s.ok(["add", "Docs/a.drawing", "rect", "--at", "10,10", "--size", "10x10", "--fill", "black"])
        #expect(try s.run(["golden", "verify", "Docs", "Goldens"]).status == 1)
        // Hand-written settings: the changed corner is ignored.
        var settings = try #require(try GoldenSettings.read(at: s.folder.file("Goldens/.easel-golden-settings.json").path))
        settings.ignore = ["a": [PixelRect(x: 0, y: 0, width: 20, height: 20)]]
        try settings.write(to: s.folder.file("Goldens/.easel-golden-settings.json").path)
        #expect(try s.run(["golden", "verify", "Docs", "Goldens"]).status == 0)
        // Record keeps what people wrote.
        try s.ok(["golden", "record", "Docs", "Goldens", "--only-missing"])
        #expect(try GoldenSettings.read(at: s.folder.file("Goldens/.easel-golden-settings.json").path)?.ignore.count == 1)
        // A smaller region: fails, and the composite hatches what is ignored.
        settings.ignore = ["a": [PixelRect(x: 0, y: 0, width: 10, height: 40)]]
        settings.tolerance = .exact
        try settings.write(to: s.folder.file("Goldens/.easel-golden-settings.json").path)
        let failed = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"])
        #expect(failed.status == 1 && failed.stdout.contains("tolerance: exact"), "the recorded tolerance: \(failed.stdout)")
        #expect(failed.stdout.contains("in ignored regions"), "\(failed.stdout)")
        let composite = try s.image("Report/artifacts/a/composite.png")
        let top = 30, differenceLeft = 8 + 60 + 8
        let hatchedColumn = (0..<10).map { composite.pixel(x: differenceLeft + 3, y: top + 20 + $0) }
        #expect(Set(hatchedColumn).count > 1, "stripes over the ignored region: \(hatchedColumn)")
        // A tolerance given on the command line wins.
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--max-pixels", "100%", "--max-delta", "255"]).status == 0)
        // A settings file that cannot be used is an error naming it and the key path.
        let written = try String(contentsOf: s.folder.file("Goldens/.easel-golden-settings.json"), encoding: .utf8)
        try s.folder.write(
            written.replacingOccurrences(of: "\"width\" : 10", with: "\"width\" : -1"), to: "Goldens/.easel-golden-settings.json")
        let broken = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(broken.status == 64 && broken.stderr.contains(".easel-golden-settings.json: ignore.a[0]"), "\(broken.stderr)")
    }

    @Test func verifyWithJobsGivesTheSameResultsInTheSameOrder() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        for index in 0..<6 { try s.ok(["new", "drawing", "Docs/d\(index).drawing", "--size", "30x20"]) }
        try s.ok(["golden", "record", "Docs", "Goldens"])
        for index in [1, 4] { try s.ok(["background", "Docs/d\(index).drawing", "black"]) }
        let serial = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Serial"])
        let parallel = try s.run(["golden", "verify", "Docs", "Goldens", "--jobs", "3", "--report", "Parallel"])
        #expect(serial.status == 1 && parallel.status == 1)
        #expect(serial.stdout == parallel.stdout && serial.stdout.split(separator: "\n").count == 2)
        let a = try GoldenReport.read(from: s.folder.file("Serial")), b = try GoldenReport.read(from: s.folder.file("Parallel"))
        #expect(a.results.map(\.name) == b.results.map(\.name) && a.results.map(\.status) == b.results.map(\.status))
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--jobs", "0"]).status == 64)
    }

    @Test func thePerceptualMetricFromTheCommandLine() throws {
        let s = CLIScratch()
        try s.folder.write(try Self.image(block: false), to: "a.png")
        try s.folder.write(try Self.image(block: true), to: "b.png")
        let json = try s.run(["golden", "diff", "a.png", "b.png", "--tolerance", "perceptual", "--json"])
        #expect(json.status == 1)
        let summary = try JSONDecoder().decode(ComparisonSummary.self, from: Data(json.stdout.utf8))
        #expect(summary.tolerance == .perceptual && summary.statistics?.differingPixels == 100)
        let suggestion = try #require(summary.wouldPassWith)
        #expect(suggestion.metric == Tolerance.perceptual.metric && suggestion.maxPixels == .count(100))
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--threshold", "0.1", "--max-pixels", "100"]).status == 0)
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--threshold", "2"]).status == 64)
        #expect(try s.run(["golden", "diff", "a.png", "b.png", "--threshold", "0.1", "--max-delta", "3"]).status == 64)
    }
}
