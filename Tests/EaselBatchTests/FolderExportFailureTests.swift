import EaselBatch
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// Nothing is silently lost in a folder export: every document that cannot be exported is
/// in the report with its reason and its file, and a failure leaves nothing half made.
@Suite("A folder export reports every document it cannot export, and why")
struct FolderExportFailureTests {
    @Test func aFailureTheRendererReportsNamesTheDocument() throws {
        let s = ExportScratch()
        try FolderExportTests.documents(s, cards: 1)
        // Too large an output is the renderer's error, which names no file of its own.
        let report = try s.export(["Docs/card-0.rwcard", "Docs/Art"], to: "Out") { $0.render.size = .scale(400) }
        let failed = report.entries.filter { $0.status == .failed }
        #expect(failed.count == 2)
        for entry in failed {
            #expect(entry.error?.hasPrefix(entry.input + ": an image of") == true, "\(entry)")
        }
    }

    @Test func linksAndPipesNamedLikeDocumentsAreReportedWithTheirReason() throws {
        let s = ExportScratch()
        try s.drawing("in/a.drawing")
        try FileManager.default.createSymbolicLink(at: s.url("in/link.drawing"), withDestinationURL: s.url("in/a.drawing"))
        #expect(mkfifo(s.url("in/pipe.rwcard").path, 0o644) == 0)
        let report = try s.export(["in"])
        #expect((report.totals.rendered, report.totals.failed, report.totals.documents) == (1, 2, 3))
        #expect(report.error(of: "link.drawing")?.contains("link.drawing: is a symbolic link") == true)
        #expect(report.error(of: "pipe.rwcard")?.contains("pipe.rwcard: is not a regular file") == true)
        #expect(
            report.entries.filter { $0.status == .failed }.allSatisfy { $0.output == nil },
            "a failed entry names no output that was never written")
    }

    @Test func aFolderNamedLikeACardSaysWhatItIsAndTheCardsInsideItAreExported() throws {
        let s = ExportScratch()
        // The app looks inside every folder for cards, whatever the folder's name.
        try s.card("in/x.rwcard/inner.rwcard")
        let report = try s.export(["in"])
        #expect((report.totals.rendered, report.totals.failed, report.totals.documents) == (1, 1, 2))
        #expect(report.error(of: "x.rwcard")?.contains("x.rwcard: is a folder, not a rwcard file") == true)
        #expect(try s.image("out/x.rwcard/inner.png").width == 1300)
        // A drawing package is a folder by design: one document, not a folder to search.
        try s.drawing("pkg/p.drawing", 20, 10)
        try s.drawing("pkg/q.drawing/\(Drawing.packageDocumentName)", 20, 10)
        #expect(try s.export(["pkg"], to: "pkg-out").totals.failed == 0)
        #expect(try s.image("pkg-out/q.png").width == 20)
    }

    @Test func documentsWithWarningsAreCountedAndTheirWarningsKept() throws {
        let s = ExportScratch()
        try s.drawing("in/a.drawing")
        try s.card("in/b.rwcard", Card(textElements: [TextElement(text: "Hi", textFont: "Wingdings")]))
        let report = try s.export(["in"])
        #expect(report.totals.rendered == 2 && report.totals.withWarnings == 1)
        let warned = try #require(report.entries.first { !$0.warnings.isEmpty })
        #expect(warned.input.hasSuffix("b.rwcard") && warned.warnings.contains { $0.contains("Wingdings") }, "\(warned)")
    }

    @Test func anOutputFolderThatCannotBeWrittenFailsOnceAndSaysWhy() throws {
        let s = ExportScratch()
        for name in ["a", "b", "c"] { try s.drawing("in/\(name).drawing") }
        try s.folder.write("a file, not a folder", to: "blocker")
        let exporter = try BatchExporter(
            inputs: [s.url("in")], outputFolder: s.url("blocker/out"), options: BatchExportOptions())
        #expect {
            try exporter.prepareOutputFolder()
        } throws: { error in
            let message = "\(error)"
            return message.contains("cannot create the output folder \(s.url("blocker/out").path) (Not a directory)")
                && !message.contains("NSCocoaErrorDomain")
        }
    }

    @Test func aRefusedThumbnailLeavesTheOutputUnwrittenToo() throws {
        let s = ExportScratch()
        try s.card("in/c.rwcard")
        try s.folder.write("the user's notes", to: "out/c.thumbnail.png")
        // A document that fails in a subfolder leaves no empty folder behind.
        try s.folder.write("{not json", to: "in/sub/broken.rwcard")
        let report = try s.export(["in"]) {
            $0.render.size = .width(20)
            $0.thumbnails = true
        }
        #expect(report.totals.failed == 2)
        #expect(report.error(of: "c.rwcard")?.contains("nothing was written") == true, "\(report.entries)")
        #expect(!s.exists("out/c.png"), "as it says: nothing")
        #expect(try s.text("out/c.thumbnail.png") == "the user's notes")
        #expect(!s.exists("out/sub"), "no empty folder for a failure")
    }
}
