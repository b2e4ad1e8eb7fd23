import EaselBatch
import EaselDocuments
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// What a folder export says and writes about itself, as library values the CLI only
/// prints: the NDJSON events, the one-line summary, and where a report may go.
@Suite("Batch reporting, as library values")
struct BatchReportingTests {
    let folder = TemporaryFolder()

    /// A report as a run writes it (`--report`), read back.
    static func report(rendered: Int, skipped: Int, failed: Int, warned: Int = 0) -> BatchReport {
        let json = """
            {"outputFolder": "out", "interrupted": false, "entries": [], "totals": {
              "documents": \(rendered + skipped + failed), "rendered": \(rendered), "skipped": \(skipped),
              "failed": \(failed), "withWarnings": \(warned), "planned": 0, "notStarted": 0, "seconds": 2,
              "documentsPerSecond": \(Double(rendered) / 2), "peakMemoryBytes": \(40 << 20)}}
            """
        return try! JSONDecoder().decode(BatchReport.self, from: Data(json.utf8))
    }

    @Test func theSummarySaysWhatHappenedInOneLine() {
        #expect(
            Self.report(rendered: 4, skipped: 1, failed: 1, warned: 2).summary(dryRun: false)
                == "rendered 4 (2 with warnings; --verbose lists them, as does --report), skipped 1, failed 1 of 6 documents in 2.0 s, 2.0 documents/s, peak memory 40 MiB"
        )
        #expect(
            Self.report(rendered: 0, skipped: 3, failed: 0).summary(dryRun: false)
                == "nothing to do: all 3 documents are up to date (2.0 s, peak memory 40 MiB)")
    }

    @Test func theEventsAreOneObjectPerDocumentAndTheTotals() throws {
        let entry = BatchEntry(
            input: "a.rwcard", output: "a.png", status: .rendered, warnings: [], error: nil, milliseconds: 12.345)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let document = String(decoding: try encoder.encode(BatchDocumentEvent(entry)), as: UTF8.self)
        #expect(
            document
                == #"{"event":"document","input":"a.rwcard","milliseconds":12.3,"output":"a.png","status":"rendered","warnings":[]}"#
        )
        let totals = BatchTotalsEvent(Self.report(rendered: 2, skipped: 0, failed: 1))
        #expect(totals.event == "totals" && totals.documents == 3 && totals.failed == 1 && !totals.interrupted)
    }

    @Test func aReportReplacesOnlyAnEarlierReport() throws {
        try BatchReport.checkDestination(folder.file("new.json").path)
        let report = Self.report(rendered: 2, skipped: 0, failed: 1)
        let earlier = try folder.write(String(decoding: try JSONEncoder().encode(report), as: UTF8.self), to: "earlier.json")
        try BatchReport.checkDestination(earlier.path)
        let document = try folder.write("{}", to: "card.rwcard")
        let other = try folder.write("plain text", to: "notes.txt")
        // JSON that is not a report: a package's content, a project's own file.
        try FileManager.default.createDirectory(at: folder.file("Art.drawing"), withIntermediateDirectories: true)
        let content = try folder.write(
            #"{"version":1,"canvas":{"width":10,"height":10},"graphics":[]}"#, to: "Art.drawing/drawing.json")
        let package = try folder.write(#"{"name":"site","totals":{}}"#, to: "package.json")
        for path in [document.path, other.path, content.path, package.path, folder.file("missing/report.json").path] {
            #expect(throws: DocumentError.self, "\(path)") { try BatchReport.checkDestination(path) }
        }
        #expect(try String(contentsOf: content, encoding: .utf8).hasPrefix(#"{"version":1"#))
    }

    /// `report merge --html` replaces only a page it wrote, never a document or another page.
    @Test func aReportPageReplacesOnlyAnEarlierPage() throws {
        try BatchReport.checkPageDestination(folder.file("new.html").path)
        let page = Self.report(rendered: 1, skipped: 0, failed: 0).html(title: "Export report")
        let earlier = try folder.write(page, to: "earlier.html")
        try BatchReport.checkPageDestination(earlier.path)
        let card = try folder.write("{}", to: "card.rwcard")
        let site = try folder.write("<!doctype html><h1>my site</h1>", to: "index.html")
        for path in [card.path, site.path, folder.file("missing/page.html").path] {
            #expect(throws: DocumentError.self, "\(path)") { try BatchReport.checkPageDestination(path) }
        }
    }
}
