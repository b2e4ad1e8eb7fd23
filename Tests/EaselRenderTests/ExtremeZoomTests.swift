import EaselCairo
import EaselDocuments
import EaselGeometry
import Foundation
import Testing
import EaselTestSupport

@testable import EaselRender

/// A render request at an extreme zoom or stretch is refused, or drawn within bounds, and
/// leaves nothing behind for the next render: cairo draws in fixed point, so a speck of a
/// canvas drawn thousands of pixels wide wrapped its coordinates (a wide round-joined stroke
/// ran for hours, its memory growing), and a text stretched along one axis reached FreeType
/// with glyphs too large for it, an error that stayed with the font's face for every later
/// render in the process.
@Suite("Extreme zooms and stretches")
struct ExtremeZoomTests {
    static let showcase = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples/Showcase.drawing")

    /// A white canvas with a square of `side` units at its middle, stroked in black with round
    /// joins, `strokeWidth` units wide.
    static func strokedSquare(canvas: Size, side: Double, strokeWidth: Double) -> LocatedDocument {
        let square = Graphic(
            kind: .rectangle,
            transform: GraphicTransform(
                center: Point(x: canvas.width / 2, y: canvas.height / 2), size: Size(width: side, height: side)),
            stroke: Stroke(color: .black, width: strokeWidth, join: .round))
        let drawing = Drawing(canvasSize: canvas, background: .white, graphics: [square])
        return LocatedDocument(drawing, at: URL(fileURLWithPath: "/tmp/stroked-square.drawing"))
    }

    @Test func aTextStretchedAlongOneAxisLeavesItsFontWorking() throws {
        let drawing = try DocumentRegistry.standard.open(Self.showcase)
        let before = try DocumentRenderer.export(drawing, options: RenderOptions(size: .width(400))).bytes
        // 800x1 units stretched onto 800x5000 pixels: glyphs 5,000 times taller than wide.
        var stretched = RenderOptions(size: .exact(width: 800, height: 5000))
        stretched.area = RenderOptions.Area(Rect(x: 0, y: 0, width: 800, height: 1))
        _ = try DocumentRenderer.export(drawing, options: stretched)
        let after = try DocumentRenderer.export(drawing, options: RenderOptions(size: .width(400))).bytes
        #expect(after == before, "the same picture as before the stretched render, its texts drawn")
    }

    @Test func aZoomOfMillionsOfPixelsToAUnitIsRefused() throws {
        let located = Self.strokedSquare(canvas: Size(width: 800, height: 600), side: 300, strokeWidth: 5000)
        var options = RenderOptions(size: .width(4000))
        options.area = RenderOptions.Area(Rect(x: 400, y: 300, width: 0.000001, height: 0.000001))
        #expect {
            try DocumentRenderer.export(located, options: options)
        } throws: { error in
            "\(error)".contains("would draw 4000000000 pixels to a canvas unit; Easel draws from a millionth to 65536")
        }
        options.area = RenderOptions.Area(Rect(x: 0, y: 0, width: 1e308, height: 1e308))
        #expect(throws: RenderError.self) { try DocumentRenderer.export(located, options: options) }
    }

    @Test func aStrokeWiderThanAnyOutputIsDrawnAsWideAsOneCanShow() throws {
        // At the deepest zoom, a stroke 1,000 units wide is 65 million pixels: it covers the
        // whole output, as a stroke a few outputs wide does, and takes as long.
        let located = Self.strokedSquare(canvas: Size(width: 0.1, height: 0.1), side: 0.05, strokeWidth: 1000)
        let image = try DocumentRenderer.render(located, options: RenderOptions(size: .width(6553))).image
        #expect(image.width == 6553)
        for (x, y) in [(0, 0), (3276, 3276), (6552, 6552), (6552, 0)] {
            #expect(image.pixel(x: x, y: y) == RGBA8(r: 0, g: 0, b: 0, a: 255), "(\(x), \(y)) under the stroke")
        }
    }
}
