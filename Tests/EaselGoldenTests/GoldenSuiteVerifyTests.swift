import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

@testable import EaselGolden

/// `GoldenSuite.check`, what `easel golden verify` runs: it names exactly the documents that
/// changed and why, renders as the goldens were recorded, and writes a report a person can
/// read and `accept` can trust.
@Suite("Verifying a folder names exactly what changed, and reports it")
struct GoldenSuiteVerifyTests {
    let s = GoldenScratch()

    @Test func aChangedDocumentIsNamedOnceAndTheReportShowsEveryResult() throws {
        for (name, gray) in [("a", 0.2), ("b", 0.5), ("nested/c", 0.8)] {
            try s.drawing("Docs/\(name).drawing", background: Color(red: gray, green: gray, blue: gray))
        }
        try s.record()
        #expect(s.exists("Goldens/nested/c.png"))
        #expect(try s.suite().check().failures.isEmpty)
        try s.drawing("Docs/b.drawing", background: .black)
        let run = try s.suite().check(report: s.url("Report"))
        #expect(run.failures.map(\.document) == ["b.drawing"])
        #expect(run.summary == "2 of 3 documents match their goldens")
        let report = try GoldenReport.read(from: s.url("Report"))
        #expect(report.results.map(\.status) == [.passed, .failed, .passed])
        #expect(report.results.map { $0.document ?? "" } == ["a.drawing", "b.drawing", "nested/c.drawing"], "relative paths")
        #expect(report.goldens == "Goldens" && report.counts == ["passed": 2, "failed": 1])
        #expect(
            report.results[1].images == [
                "actual": "artifacts/b/actual.png", "expected": "artifacts/b/expected.png",
                "composite": "artifacts/b/composite.png",
            ])
        let junit = try s.text("Report/junit.xml")
        #expect(junit.contains("tests=\"3\" failures=\"1\"") && junit.contains("b.drawing\" time=\""))
        #expect(junit.contains("\">\n      <failure"), "\(junit)")
        let html = try s.text("Report/index.html")
        #expect(html.contains("1 failed, 2 passed") && html.contains("<img src=\"artifacts/b/composite.png\""))
        #expect(html.contains("nested/c.drawing") && html.contains("data-status=\"passed\""), "passed results are listed too")
        #expect(!html.contains(s.folder.path), "no absolute path in the page")
        #expect(s.exists("Report/artifacts/b/composite.png"))
    }

    /// A document's name is text in the page and in JUnit's XML, whatever joins its
    /// characters: a prefix (U+0600) before a `<` kept it raw, and the name ran script in
    /// the browser of whoever opened the report; a control character broke the XML.
    @Test func aHostileDocumentNameIsTextInThePageAndTheJUnitReport() throws {
        let hostile = "\u{600}<img src=x onerror=alert(1) \u{600}>\u{1}"
        try s.drawing("Docs/\(hostile).drawing", background: .black)
        try s.record()
        try s.drawing("Docs/\(hostile).drawing", background: .white)
        let run = try s.suite().check(report: s.url("Report"))
        #expect(run.failures.count == 1)
        let html = try s.text("Report/index.html")
        #expect(!html.contains("<img src=x") && html.contains("&lt;img src=x onerror=alert(1) \u{600}&gt;"), "\(html)")
        let junit = try s.text("Report/junit.xml")
        #expect(!junit.contains("<img") && !junit.unicodeScalars.contains("\u{1}"), "\(junit)")
        #expect(junit.contains("&lt;img src=x onerror=alert(1) \u{600}&gt;\u{FFFD}.drawing\" time="), "\(junit)")
    }

    @Test func aGoldenThatIsAGitLFSPointerSaysSoAndTheReportShowsTheRendering() throws {
        try s.drawing("Docs/a.drawing", background: .black)
        try s.drawing("Docs/b.drawing", background: .white)
        try s.record()
        // What a clone holds when Git LFS did not fetch the image.
        let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 12345\n"
        try s.folder.write(pointer, to: "Goldens/a.png")
        try s.folder.write("not a png", to: "Goldens/b.png")
        let run = try s.suite().check(report: s.url("Report"))
        let a = try #require(run.messages["a.drawing"]), b = try #require(run.messages["b.drawing"])
        #expect(a.contains("Goldens/a.png: the golden is a Git LFS pointer, not the image: run `git lfs pull`"), "\(a)")
        #expect(b.contains("Goldens/b.png: the golden cannot be read"), "\(b)")
        #expect(a.contains("--only-failed"), "\(a)")
        let report = try GoldenReport.read(from: s.url("Report"))
        #expect(report.results.allSatisfy { $0.status == .error && $0.images["actual"] != nil }, "the rendering is in the report")
        // Nothing was touched; recording the failed ones mends them.
        #expect(try s.text("Goldens/a.png") == pointer)
        _ = try s.suite().record(options: RenderOptions(), onlyFailing: .default)
        #expect(try s.image("Goldens/a.png").width == 40)
        #expect(try s.suite().check().failures.isEmpty)
    }

    @Test func aMissingGoldenSaysWhichCommandRecordsItAndLeavesNoTemporaryFolder() throws {
        try s.drawing("Docs/x.drawing")
        let temporary = TemporaryFolder("easel-golden-tmp")
        let run = try s.suite().check(
            options: nil, tolerance: nil, report: nil, jobs: 1, spelling: .commandLine, temporaryParent: temporary.url)
        let message = try #require(run.messages["x.drawing"])
        #expect(message.contains("easel golden record Docs Goldens --only-missing"), "\(message)")
        #expect(!message.contains("EASEL_GOLDEN_RECORD"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [], "no temporary folder is left")
        // With a report, its rendering is shown, and no composite that does not exist.
        _ = try s.suite().check(report: s.url("Report"))
        let html = try s.text("Report/index.html")
        #expect(html.contains("No golden to compare with") && html.contains("src=\"artifacts/x/actual.png\""), "\(html)")
        #expect(try GoldenReport.read(from: s.url("Report")).results.map(\.status) == [.new])
        #expect(!html.contains("composite.png"), "no link to a composite that does not exist")
    }

    @Test func documentsAreRenderedAsTheGoldensWereRecorded() throws {
        try s.drawing("Docs/c.drawing", 100, 50)
        var thumbnail = RenderOptions()
        thumbnail.size = .scale(0.2)
        try s.record(thumbnail)
        #expect(try s.image("Goldens/c.png").width == 20)
        // No options: the recorded ones, so nothing fails on size.
        let run = try s.suite().check()
        #expect(run.summary == "1 of 1 documents match their goldens" && run.options.size == .scale(0.2))
        // Other pixels asked for: used.
        #expect(try s.suite().check(options: RenderOptions()).failures.count == 1)
    }

    @Test func severalJobsGiveTheSameResultsInTheSameOrder() throws {
        for index in 0..<6 { try s.drawing("Docs/d\(index).drawing", 30, 20) }
        try s.record()
        for index in [1, 4] { try s.drawing("Docs/d\(index).drawing", 30, 20, background: .black) }
        let serial = try s.suite().check(), parallel = try s.suite().check(jobs: 3)
        #expect(serial.failures.map(\.name) == ["d1", "d4"])
        #expect(serial.entries.map(\.name) == parallel.entries.map(\.name))
        #expect(serial.entries.map(\.status) == parallel.entries.map(\.status))
    }

    @Test func aFailureSaysWhatTheRenderDrewAround() throws {
        try s.folder.write(try PNGEncoder.encode(try RasterImage(width: 8, height: 8)), to: "Docs/PHOTO")
        let card = Card(imageElements: [ImageElement(imageFilename: "PHOTO")])
        try s.folder.write(try CardEncoder.encode(card, file: "c"), to: "Docs/c.rwcard")
        var thumbnail = RenderOptions()
        thumbnail.size = .thumbnail
        try s.record(thumbnail)
        try FileManager.default.removeItem(at: s.url("Docs/PHOTO"))
        let message = try #require(try s.suite().check().messages["c.rwcard"])
        #expect(message.contains("the render's warnings:") && message.contains("is missing"), "\(message)")
        // Recording the error image in its place is said too, naming the card.
        let warnings = Locked<[String]>([])
        _ = try s.suite().record(
            options: thumbnail, onlyFailing: .default, warned: { message in warnings.withLock { $0.append(message) } })
        let said = warnings.withLock { $0 }
        #expect(said.count == 1 && said[0].contains("c.rwcard") && said[0].contains("is missing"), "\(said)")
    }

    @Test func aGoldenThatIsNoFileIsUnreadableNotMissing() throws {
        try s.drawing("Docs/a.drawing")
        try s.drawing("Docs/b.drawing")
        try s.record()
        try FileManager.default.removeItem(at: s.url("Goldens/a.png"))
        try s.makeFolder("Goldens/a.png")
        try FileManager.default.removeItem(at: s.url("Goldens/b.png"))
        try FileManager.default.createSymbolicLink(atPath: s.url("Goldens/b.png").path, withDestinationPath: "/dev/zero")
        let run = try s.suite().check()
        // Something stands at the golden's name: unreadable (not "new", which accept would take).
        #expect(run.failures.map(\.status) == [.error, .error])
        let a = try #require(run.messages["a.drawing"]), b = try #require(run.messages["b.drawing"])
        #expect(a.contains("a.png: the golden cannot be read (is a folder, not a file)"), "\(a)")
        #expect(b.contains("b.png: the golden cannot be read (is a device, not a file"), "\(b)")
        #expect(!a.contains("no golden") && !b.contains("no golden"))
        // Recording only what is missing records nothing over them.
        #expect(try s.record(onlyMissing: true).isEmpty)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: s.url("Goldens/a.png").path, isDirectory: &isFolder) && isFolder.boolValue)
    }

    @Test func failuresSuggestATolerancePassingInTheSpellingAsked() throws {
        try s.drawing("Docs/a.drawing", 60, 40, graphics: [.box(20, 20, 10, 10, fill: Color(red: 0.5, green: 0.5, blue: 0.5))])
        try s.record()
        try s.drawing("Docs/a.drawing", 60, 40, graphics: [.box(35, 20, 10, 10, fill: Color(red: 0.5, green: 0.5, blue: 0.5))])
        let swift = try #require(try s.suite().check().failures.first?.message)
        #expect(swift.contains("it would pass with .fuzzy(maxDelta: ") && !swift.contains("--max-delta"), "\(swift)")
        let flags = try #require(try s.suite().check(spelling: .commandLine).failures.first?.message)
        #expect(flags.contains("it would pass with --max-delta ") && !flags.contains(".fuzzy("), "\(flags)")
    }
}
