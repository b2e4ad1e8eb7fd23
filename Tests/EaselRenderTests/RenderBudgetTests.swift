import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// Every budget is checked before the expensive step, says what it refused with the file
/// and key path, and leaves the rest of the document drawn.
@Suite("Render budgets")
struct RenderBudgetTests {
    let folder = TemporaryFolder()

    func lower(_ drawing: Drawing) throws -> Scene {
        try DocumentRenderer.scene(for: LocatedDocument(drawing, at: folder.file("d.drawing")))
    }

    func frame(_ size: Double = 200) -> GraphicTransform {
        GraphicTransform(center: Point(x: 100, y: 100), size: Size(width: size, height: size))
    }

    @Test func aPathOverTheElementBudgetIsNotDrawn() throws {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        for i in 0..<RenderBudgets.maxPathElements { path.addLine(to: Point(x: Double(i % 2), y: Double(i) / 5000)) }
        let drawing = Drawing(graphics: [
            Graphic(kind: .path(path), transform: frame(), fill: .black),
            Graphic(kind: .ellipse, transform: frame(), fill: .white),
        ])
        let scene = try lower(drawing)
        #expect(scene.warnings.map(\.keyPath) == ["graphics[0].elements"])
        #expect(scene.warnings[0].message.contains("over the budget of 4000"))
        #expect(scene.operations.count == 2, "the background and the ellipse: \(scene.description)")
    }

    @Test func aDashTooFineIsDrawnSolid() throws {
        let line = Graphic(
            kind: .line(from: Point(x: 0, y: 0), to: Point(x: 1, y: 1)), transform: frame(700),
            stroke: Stroke(color: .black, width: 1, dash: [0.001]))
        let scene = try lower(Drawing(graphics: [line]))
        #expect(scene.warnings.map(\.keyPath) == ["graphics[0].stroke.dash"])
        guard case .stroke(_, let style) = scene.operations.last else {
            Issue.record("no stroke")
            return
        }
        #expect(style.dash.isEmpty)
        // A reasonable dash is kept.
        var dashed = line
        dashed.stroke?.dash = [6, 3]
        #expect(try lower(Drawing(graphics: [dashed])).warnings.isEmpty)
    }

    @Test func textsPastTheDocumentsCharacterBudgetAreNotLaidOut() throws {
        // 21 texts of 10,000 characters (the most one text may have): the 21st would take the
        // document past 200,000; it and the short one after it are not drawn, one warning says so.
        let long = String(String(repeating: "Easel ", count: 1_700).prefix(10_000))
        let texts = Array(repeating: long, count: 21) + ["Hello"]
        let drawing = Drawing(
            graphics: texts.map { Graphic(kind: .text(TextContent(string: $0, fontSize: 1)), transform: frame(), fill: .black) })
        let scene = try lower(drawing)
        #expect(scene.warnings.map(\.keyPath) == ["graphics[20].text"], "\(scene.warnings)")
        #expect(scene.warnings.first?.message.contains("more than 200000 characters in all") == true)
        #expect(scene.operations.count == 1 + 20, "the background and 20 texts")
        #expect(drawing.textsToLayOut.count == 20, "nothing past the budget is laid out ahead either")
        // A card likewise, by its text elements.
        var card = Card()
        card.textElements = texts.map { TextElement(text: $0) }
        #expect(card.textsToLayOut.count == 20)
        let cardScene = try DocumentRenderer.scene(for: LocatedDocument(card, at: folder.file("c.rwcard")))
        #expect(cardScene.warnings.map(\.keyPath) == ["textElements[20].text"], "\(cardScene.warnings)")
    }

    @Test func aHugeTextIsNotDrawnAndTheRenderSucceeds() throws {
        let text = Graphic(kind: .text(TextContent(string: "Hello", fontSize: 100_000)), transform: frame(), fill: .black)
        let located = LocatedDocument(Drawing(graphics: [text]), at: folder.file("d.drawing"))
        let rendered = try DocumentRenderer.render(located, options: RenderOptions(size: .scale(0.1)))
        #expect(rendered.warnings.map(\.keyPath) == ["graphics[0].fontSize"])
        #expect(rendered.image.width == 80)
    }

    @Test func aMissingImageInAHugeFrameStillRenders() throws {
        let image = Graphic(kind: .image(file: "gone.png"), transform: frame(1_000_000))
        let located = LocatedDocument(Drawing(graphics: [image]), at: folder.file("d.drawing"))
        let rendered = try DocumentRenderer.render(located, options: RenderOptions(size: .scale(0.1)))
        #expect(rendered.warnings.count == 1)
    }

    @Test func imagesPastTheDocumentsPixelBudgetAreNotDecoded() throws {
        let png = try PNGEncoder.encode(try RasterImage(width: 100, height: 100))
        try folder.write(png, to: "a.png")
        try folder.write(png, to: "b.png")
        let loader = ImageLoader(maxTotalPixels: 15_000)
        guard case .loaded = loader.load(folder.file("a.png")) else {
            Issue.record("the first image fits")
            return
        }
        guard case .failed(let reason) = loader.load(folder.file("b.png")) else {
            Issue.record("the second does not")
            return
        }
        #expect(reason.contains("past the budget of 15000 pixels"), "\(reason)")
        #expect(loader.decodedPixels == 10_000)
        guard case .loaded = loader.load(folder.file("a.png")) else {
            Issue.record("a decoded image stays loaded")
            return
        }
    }

    @Test func textsBeyondTheirBoundsAreRefusedWithTheKeyPath() throws {
        let zalgo = "e" + String(repeating: "\u{301}", count: 100)
        let drawing = Drawing(graphics: [Graphic(kind: .text(TextContent(string: zalgo)), transform: frame(), fill: .black)])
        #expect {
            try Drawing(
                decoding:
                    DrawingEncoder.encode(drawing), file: "d.drawing", warnings: &Array<DocumentWarning>.ignored)
        } throws: {
            error in
            "\(error)" == "d.drawing: graphics[0].text: a character of 101 code points (combining marks), over the limit of 32"
        }
        #expect(TextLimits.problem(with: String(repeating: "a\u{301}", count: 10_001))?.contains("code points") == true)
        #expect(TextLimits.problem(with: "👨‍👩‍👧‍👦 family") == nil)
    }
}
