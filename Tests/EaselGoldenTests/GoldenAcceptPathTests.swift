import EaselRender
import EaselTestSupport
import Foundation
import Testing

@testable import EaselGolden

/// A report is a file from elsewhere (a CI artifact): the goldens folder it names is where
/// `easel golden accept` writes by default, so it must be inside the current folder, never
/// an absolute path or a `..` escape that would put `<name>.png` into any folder at all.
@Suite("Golden accept stays inside the folder the user named")
struct GoldenAcceptPathTests {
    /// A report folder whose one result (`a`, new) would be accepted, naming `goldens`.
    func report(naming goldens: String, in base: TemporaryFolder) throws -> URL {
        let folder = base.file("Report")
        let png = ReferencePNGWriter.encode(width: 2, height: 2, colorType: .rgba, bitDepth: 8) { _, _ in [255, 0, 0, 255] }
        try base.write(png, to: "Report/a/actual.png")
        let entry = GoldenSuite.Entry(
            name: "a", document: "a.drawing", status: .new, artifacts: folder.appendingPathComponent("a"))
        try GoldenReport(
            [entry], folder: folder, documents: "Docs", goldens: goldens, tolerance: .default, render: RenderOptions()
        ).write(to: folder)
        return folder
    }

    @Test(arguments: [
        ("/absolute", "is an absolute path"), ("../escape", "is not a relative path inside the current folder"),
        ("inside/../../escape", "is not a relative path inside the current folder"),
    ])
    func aGoldensFolderOutsideIsRefusedNamingTheReportAndTheKey(goldens: String, why: String) throws {
        let base = TemporaryFolder()
        let victim = base.file("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        // The absolute case names a folder that exists: the one the report aims at.
        let named = goldens == "/absolute" ? victim.path : goldens
        let reportFolder = try report(naming: named, in: base)
        do {
            _ = try GoldenAcceptance.accept(reportFolder: reportFolder)
            Issue.record("a report naming \(named) as its goldens was accepted")
        } catch {
            #expect(error.file == reportFolder.appendingPathComponent("report.json").path, "\(error)")
            #expect(error.keyPath == "goldens", "\(error)")
            #expect(error.description.contains(why) && error.description.contains("--goldens DIR"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty, "nothing was written there")
    }

    @Test func aGoldensFolderTheUserNamesIsUsedWhereverItIs() throws {
        let base = TemporaryFolder()
        let goldens = base.file("Goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        // The report names a folder outside; the user says where, and that is where it goes.
        let reportFolder = try report(naming: "/elsewhere", in: base)
        let outcomes = try GoldenAcceptance.accept(reportFolder: reportFolder, goldens: goldens)
        #expect(outcomes == [.accepted(name: "a", golden: goldens.appendingPathComponent("a.png").path)])
        #expect(FileManager.default.fileExists(atPath: goldens.appendingPathComponent("a.png").path))
    }
}
