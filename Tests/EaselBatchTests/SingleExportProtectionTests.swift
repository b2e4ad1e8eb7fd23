import EaselBatch
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// A single export's output replaces only an earlier output: never a document, never a file
/// a document of its folder uses, never anything else (`OutputProtection.SingleExportCheck`,
/// which `easel export DOC -o OUT` runs before writing).
@Suite("A single export replaces only an earlier output")
struct SingleExportProtectionTests {
    let s = ExportScratch()

    /// A drawing that shows `photo.png`.
    func drawingUsingPhoto(_ name: String) throws {
        let image = Graphic(
            kind: .image(file: "photo.png"),
            transform: GraphicTransform(center: Point(x: 20, y: 15), size: Size(width: 40, height: 30)))
        try s.drawing(name, 40, 30, graphics: [image])
    }

    func open(_ name: String) throws -> LocatedDocument { try DocumentRegistry.standard.open(s.url(name)) }

    /// Why exporting `document` to `output` in `format` is refused, or nil when it may be written.
    func refusal(_ document: String, to output: String, format: OutputFormat = .png) throws -> String? {
        do {
            try OutputProtection.SingleExportCheck(output: s.url(output), format: format).check(of: try open(document))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func anExportOverItsOwnDocumentIsRefused() throws {
        try s.drawing("a.drawing")
        let reason = try #require(try refusal("a.drawing", to: "a.drawing"))
        #expect(reason.contains("would replace an existing file, and it is a document or a file a document uses"), "\(reason)")
        #expect(reason.contains("nothing was written"))
    }

    @Test func anExportOverAnImageAnyDocumentOfTheFolderUsesIsRefused() throws {
        try s.png("photo.png")
        try drawingUsingPhoto("a.drawing")
        try s.drawing("b.drawing")
        #expect(try refusal("a.drawing", to: "photo.png") != nil)
        #expect(try refusal("b.drawing", to: "photo.png") != nil, "another drawing of the same folder")
        // A card's extension-less image likewise.
        try s.png("IMAGE")
        try s.card("c.rwcard", Card(imageElements: [ImageElement(imageFilename: "IMAGE")]))
        #expect(try refusal("c.rwcard", to: "IMAGE") != nil)
    }

    /// A drawing package's images are its document's, so an output into the package may not
    /// replace them; and a document that spells an image's name with JSON escapes
    /// (`photo\u002epng`) still protects it (its bytes lack the plain name).
    @Test func anImageOfAPackageOrNamedWithEscapesIsRefused() throws {
        try s.png("Pkg.drawing/photo.png")
        let image = Graphic(
            kind: .image(file: "photo.png"),
            transform: GraphicTransform(center: Point(x: 20, y: 15), size: Size(width: 40, height: 30)))
        let drawing = Drawing(canvasSize: Size(width: 40, height: 30), background: .white, graphics: [image])
        try s.folder.write(DrawingEncoder.encode(drawing), to: "Pkg.drawing/drawing.json")
        try s.drawing("a.drawing")
        #expect(try refusal("a.drawing", to: "Pkg.drawing/photo.png") != nil, "the package's own image")

        try s.png("Escaped/photo.png")
        let escaped = String(decoding: DrawingEncoder.encode(drawing), as: UTF8.self)
            .replacing("photo.png", with: "photo\\u002epng")
        #expect(escaped.contains("photo\\u002epng"))
        try s.folder.write(escaped, to: "Escaped/d.drawing")
        #expect(try refusal("a.drawing", to: "Escaped/photo.png") != nil, "named with an escape")
    }

    @Test func anUnrelatedFileIsRefusedAndAnEarlierOutputReplaced() throws {
        try s.drawing("a.drawing")
        try s.folder.write("my notes", to: "notes.png")
        #expect(try refusal("a.drawing", to: "notes.png")?.contains("it is not an earlier PNG output of Easel") == true)
        #expect(try refusal("a.drawing", to: "a.png") == nil, "nothing there yet")
        _ = try DocumentRenderer.export(try open("a.drawing"), writingTo: s.url("a.png").path)
        #expect(try refusal("a.drawing", to: "a.png") == nil, "an earlier output")
        _ = try DocumentRenderer.export(
            try open("a.drawing"), options: RenderOptions(format: .svg), writingTo: s.url("a.out").path)
        #expect(try refusal("a.drawing", to: "a.out", format: .svg) == nil)
        #expect(try refusal("a.drawing", to: "a.out", format: .png) != nil, "an SVG is not an earlier PNG")
    }

    /// The check looks through the output's folder before its document is read (the look
    /// does not depend on it): an output that appears after that look is still looked for
    /// among the folder's documents before anything replaces it.
    @Test func theFolderIsLookedThroughAgainWhenTheOutputAppearsAfterTheFirstLook() throws {
        try s.png("elsewhere.png")
        try drawingUsingPhoto("a.drawing")
        try s.drawing("b.drawing", 40, 30)
        let check = OutputProtection.SingleExportCheck(output: s.url("photo.png"), format: .png)  // nothing there yet
        try FileManager.default.moveItem(at: s.url("elsewhere.png"), to: s.url("photo.png"))
        let other = try open("b.drawing")
        #expect(throws: DocumentError.self, "a.drawing uses photo.png") { try check.check(of: other) }
        // And an earlier output there is replaced, looked at early or late.
        _ = try DocumentRenderer.export(other, writingTo: s.url("b.png").path)
        try OutputProtection.SingleExportCheck(output: s.url("b.png"), format: .png).check(of: other)
    }
}
