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
        let earlier = try folder.write("{\"totals\":{}}", to: "earlier.json")
        try BatchReport.checkDestination(earlier.path)
        let document = try folder.write("{}", to: "card.rwcard")
        let other = try folder.write("plain text", to: "notes.txt")
        for path in [document.path, other.path, folder.file("missing/report.json").path] {
            #expect(throws: DocumentError.self, "\(path)") { try BatchReport.checkDestination(path) }
        }
    }
}
