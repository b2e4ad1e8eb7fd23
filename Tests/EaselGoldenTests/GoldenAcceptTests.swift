import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselGolden
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// `GoldenAcceptance`, what `easel golden accept` runs: it adopts exactly the images a
/// report showed, and nothing else: not over a golden that changed since, not from a report
/// that names places outside its folders, not into the documents, not at another size.
/// (The goldens folder is always given here: a report's relative one would be looked for in
/// the folder the tests run in.)
@Suite("Accepting a report adopts exactly what it showed")
struct GoldenAcceptTests {
    let s = GoldenScratch()

    /// Two drawings with goldens, then `b` changed: the state a CI report is made in.
    func suiteWithOneChange() throws {
        try s.drawing("Docs/a.drawing")
        try s.drawing("Docs/b.drawing")
        try s.record()
        try s.drawing("Docs/b.drawing", background: .black)
    }

    func accept(_ report: String = "Report", only: Set<String>? = nil, dryRun: Bool = false) throws -> [GoldenAcceptance.Outcome]
    {
        try GoldenAcceptance.accept(reportFolder: s.url(report), goldens: s.url("Goldens"), only: only, dryRun: dryRun)
    }

    @Test func whatTheReportShowedIsAcceptedOnceAndNothingElse() throws {
        try suiteWithOneChange()
        try s.drawing("Docs/new.drawing", 20, 20)
        let untouched = try s.bytes("Goldens/a.png")
        #expect(try s.suite().check(report: s.url("Report")).failures.count == 2)
        let dryRun = try accept(dryRun: true)
        #expect(dryRun.count == 2 && dryRun.allSatisfy { if case .accepted = $0 { true } else { false } })
        #expect(try s.image("Goldens/b.png").pixel(x: 5, y: 5).r == 255, "a dry run writes nothing")
        let accepted = try accept()
        #expect(accepted.map { if case .accepted(let name, _) = $0 { name } else { "" } } == ["b", "new"])
        #expect(try s.bytes("Goldens/b.png") == s.bytes("Report/artifacts/b/actual.png"), "the report's very image")
        #expect(try s.bytes("Goldens/new.png") == s.bytes("Report/artifacts/new/actual.png"))
        #expect(try s.bytes("Goldens/a.png") == untouched)
        #expect(try s.suite().check().failures.isEmpty)
        // Accepting again finds every golden already holding its image.
        #expect(try accept().allSatisfy { if case .unchanged = $0 { true } else { false } })
        // By the document's name, as the report page shows it.
        try s.drawing("Docs/a.drawing", background: .black)
        _ = try s.suite().check(report: s.url("Report"))
        let one = try accept(only: ["a.drawing"])
        #expect(one.count == 1 && { if case .accepted("a", _) = one[0] { true } else { false } }(), "\(one)")
    }

    @Test func aGoldenThatChangedSinceTheReportIsLeftAndNothingInAReportIsTrusted() throws {
        try suiteWithOneChange()
        _ = try s.suite().check(report: s.url("Report"))
        // Someone recorded b again since (say, with another change): accepting would lose it.
        try s.drawing("Docs/b.drawing", background: Color(red: 1, green: 0, blue: 0))
        try s.record()
        let changed = try s.bytes("Goldens/b.png")
        let skipped = try accept()
        #expect(skipped.count == 1 && "\(skipped)".contains("changed since the report"), "\(skipped)")
        #expect(try s.bytes("Goldens/b.png") == changed)
        // A hostile report: names that leave the goldens folder, images outside the report.
        var report = try GoldenReport.read(from: s.url("Report"))
        report.results = [
            GoldenReport.Result(
                name: "../escaped", document: "x", golden: "../escaped.png", status: .new, seconds: 0,
                images: ["actual": "artifacts/b/actual.png"]),
            GoldenReport.Result(
                name: "fine", document: "y", golden: "fine.png", status: .new, seconds: 0, images: ["actual": "../Goldens/a.png"]),
        ]
        try s.makeFolder("Evil")
        try report.write(to: s.url("Evil"))
        let evil = "\(try accept("Evil"))"
        #expect(evil.contains("outside the goldens folder") && evil.contains("cannot be used"), "\(evil)")
        #expect(!s.exists("escaped.png") && !s.exists("Goldens/fine.png"))
        try s.folder.write("{\"goldens\": 3}", to: "Broken/report.json")
        #expect { _ = try accept("Broken") } throws: { "\($0)".contains("Broken/report.json") }
    }

    @Test func aReportIsAcceptedOnlyIntoAGoldensFolderOfTheSameKind() throws {
        // Absolute folders, so that the report names the documents folder wherever the tests run.
        let suite = GoldenSuite(documents: s.folder.file("Docs"), goldens: s.folder.file("Goldens"))
        try s.drawing("Docs/a.drawing", graphics: [.box(20, 15, 10, 10, fill: .black)])
        var half = RenderOptions()
        half.size = .scale(0.5)
        _ = try suite.record(options: half)
        try s.drawing("Docs/a.drawing", graphics: [.box(25, 15, 10, 10, fill: .black)])
        #expect(try suite.check(report: s.url("R")).failures.count == 1)
        // Never into the documents folder the report names.
        #expect {
            _ = try GoldenAcceptance.accept(reportFolder: s.url("R"), goldens: s.folder.file("Docs"))
        } throws: { "\($0)".contains("is the documents folder") }
        // A report verified at another size would leave goldens of two sizes: refused.
        #expect(try suite.check(options: RenderOptions(), report: s.url("R1")).failures.count == 1)
        #expect {
            _ = try GoldenAcceptance.accept(reportFolder: s.url("R1"), goldens: s.folder.file("Goldens"))
        } throws: { "\($0)".contains("the report was rendered at scale 1") }
        #expect(try GoldenAcceptance.accept(reportFolder: s.url("R"), goldens: s.folder.file("Goldens")).count == 1)
    }

    @Test func aGoldensFolderTheReportNamesMustBeAFolderHere() throws {
        // A report made elsewhere names a relative folder that is not one where accept runs.
        let name = "easel-goldens-\(UUID().uuidString)"
        try s.drawing("Docs/a.drawing")
        _ = try s.suite("Docs", name).check(report: s.url("R"))
        #expect { _ = try GoldenAcceptance.accept(reportFolder: s.url("R")) } throws: { "\($0)".contains("is not a folder here") }
        #expect(!FileManager.default.fileExists(atPath: name), "nothing was made for it")
    }

    /// A verify that stops half way (here: its documents folder gone) has removed the earlier
    /// report first, so no report.json is left naming images of another run.
    @Test func aVerifyStoppedHalfWayLeavesNoReportToAccept() throws {
        try s.drawing("Docs/a.drawing")
        try s.record()
        #expect(try s.suite().check(report: s.url("R")).failures.isEmpty)
        #expect(s.exists("R/report.json"))
        try FileManager.default.removeItem(at: s.url("Docs"))
        #expect(throws: (any Error).self) { try s.suite().check(report: s.url("R")) }
        #expect(!s.exists("R/report.json"), "the old report went first")
        #expect { _ = try accept("R") } throws: { "\($0)".contains("report.json") }
    }
}
