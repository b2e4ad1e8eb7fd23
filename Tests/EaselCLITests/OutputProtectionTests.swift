import EaselBatch
import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// An output replaces only an earlier output: never a document, never a file a document
/// uses, never anything else.
@Suite("Outputs never replace inputs")
struct OutputProtectionTests {
    func scratchWithDrawing() throws -> CLIScratch {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "a.drawing", "--size", "40x30"])
        try s.ok(["add", "a.drawing", "star"])
        return s
    }

    @Test func anExportOverItsOwnDocumentIsRefused() throws {
        let s = try scratchWithDrawing()
        let before = try s.bytes("a.drawing")
        // Without --format, .drawing is not an output extension: a usage error before anything.
        #expect(try s.run(["export", "a.drawing", "--out", "a.drawing"]).status == 64)
        let result = try s.run(["export", "a.drawing", "--out", "a.drawing", "--format", "png"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("would replace an existing file, and it is a document or a file a document uses"),
            "\(result.stderr)")
        #expect(try s.bytes("a.drawing") == before)
    }

    @Test func anExportOverAnImageADocumentUsesIsRefused() throws {
        let s = CLIScratch()
        try s.folder.write(try TestPNG.solid(), to: "photo.png")
        try s.ok(["new", "drawing", "a.drawing", "--size", "40x30"])
        try s.ok(["add", "a.drawing", "image", "photo.png"])
        try s.ok(["new", "drawing", "b.drawing", "--size", "40x30"])
        let image = try s.bytes("photo.png")
        // Exporting another drawing of the same folder over it is refused too.
        for document in ["a.drawing", "b.drawing"] {
            let result = try s.run(["export", document, "--out", "photo.png"])
            #expect(result.status == 1, "\(document): \(result.stderr)")
            #expect(try s.bytes("photo.png") == image)
        }
        // A card's extension-less image likewise.
        try s.folder.write(try TestPNG.solid(), to: "IMAGE")
        try s.ok(["new", "card", "c.rwcard"])
        var card = try #require(try DocumentRegistry.standard.open(s.folder.file("c.rwcard")).document as? Card)
        card.imageElements = [ImageElement(imageFilename: "IMAGE")]
        try DocumentRegistry.standard.save(card, to: s.folder.file("c.rwcard"))
        #expect(try s.run(["export", "c.rwcard", "--out", "IMAGE"]).status == 1)
    }

    @Test func anExportOverAnUnrelatedFileIsRefusedButAnEarlierOutputIsReplaced() throws {
        let s = try scratchWithDrawing()
        try s.folder.write("my notes", to: "notes.png")
        let refused = try s.run(["export", "a.drawing", "--out", "notes.png"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("it is not an earlier PNG output of Easel"), "\(refused.stderr)")
        #expect(try String(contentsOf: s.folder.file("notes.png"), encoding: .utf8) == "my notes")
        try s.ok(["export", "a.drawing", "--out", "a.png"])
        try s.ok(["export", "a.drawing", "--out", "a.png"])  // an earlier output: replaced
        try s.ok(["export", "a.drawing", "--out", "a.svg", "--format", "svg"])
        #expect(
            try s.run(["export", "a.drawing", "--out", "a.svg", "--format", "png"]).status == 64, "PNG bytes under .svg: refused")
        try s.folder.write(try s.bytes("a.svg"), to: "a.out")
        #expect(
            try s.run(["export", "a.drawing", "--out", "a.out", "--format", "png"]).status == 1, "an SVG is not an earlier PNG")
    }

    @Test func aFolderExportIntoItsOwnFolderNeverReplacesAnImage() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("d"), withIntermediateDirectories: true)
        try s.folder.write(try TestPNG.solid(), to: "d/photo.png")
        try s.ok(["new", "drawing", "d/photo.drawing", "--size", "40x30"])
        try s.ok(["add", "d/photo.drawing", "image", "d/photo.png"])
        try s.ok(["new", "drawing", "d/other.drawing", "--size", "40x30"])
        let image = try s.bytes("d/photo.png")
        let result = try s.run(["export", "d", "--out", "d", "--exclude", "d"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("photo.png would replace an existing file"), "\(result.stderr)")
        #expect(try s.bytes("d/photo.png") == image, "the image the drawing uses is untouched")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("d/other.png").path), "the other document is exported")
    }

    /// A single export looks through the output's folder before its document is read (the
    /// look does not depend on it): an output that appears after that look is still looked
    /// for among the folder's documents before anything replaces it.
    @Test func theFolderIsLookedThroughAgainWhenTheOutputAppearsAfterTheFirstLook() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "a.drawing", "--size", "40x30"])
        try s.folder.write(try TestPNG.solid(), to: "photo.png")
        try s.ok(["add", "a.drawing", "image", "photo.png"])
        try FileManager.default.moveItem(at: s.folder.file("photo.png"), to: s.folder.file("elsewhere.png"))
        try s.ok(["new", "drawing", "b.drawing", "--size", "40x30"])
        let output = s.folder.file("photo.png")
        let check = OutputProtection.SingleExportCheck(output: output, format: .png)  // nothing there yet
        try FileManager.default.moveItem(at: s.folder.file("elsewhere.png"), to: output)
        let other = try DocumentRegistry.standard.open(s.folder.file("b.drawing"))
        #expect(throws: DocumentError.self, "a.drawing uses photo.png") { try check.check(of: other) }
        // And an earlier output there is replaced, looked at early or late.
        try s.ok(["export", "b.drawing", "--out", "b.png"])
        try OutputProtection.SingleExportCheck(output: s.folder.file("b.png"), format: .png).check(of: other)
    }

    @Test func aReportNeverReplacesADocument() throws {
        let s = try scratchWithDrawing()
        let before = try s.bytes("a.drawing")
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: s.folder.file("a.drawing"), to: s.folder.file("in/b.drawing"))
        let result = try s.run(["export", "in", "--out", "out", "--report", "a.drawing"])
        #expect(result.status == 1)
        #expect(try s.bytes("a.drawing") == before)
        try s.ok(["export", "in", "--out", "out", "--report", "report.json", "--force"])
        try s.ok(["export", "in", "--out", "out", "--report", "report.json", "--force"])  // an earlier report: replaced
    }
}

/// Small PNGs for these tests.
enum TestPNG {
    static func solid() throws -> [UInt8] {
        ReferencePNGWriter.encode(width: 4, height: 4, colorType: .rgb, bitDepth: 8) { _, _ in [200, 120, 40] }
    }
}
