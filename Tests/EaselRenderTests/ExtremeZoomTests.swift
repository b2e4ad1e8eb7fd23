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
        let drawing = Drawing(
            canvasSize: Size(width: 800, height: 600), background: .white,
            graphics: [
                Graphic(
                    kind: .rectangle,
                    transform: GraphicTransform(center: Point(x: 400, y: 300), size: Size(width: 300, height: 300)),
                    stroke: Stroke(color: .black, width: 5000, join: .round))
            ])
        var options = RenderOptions(size: .width(4000))
        options.area = RenderOptions.Area(Rect(x: 400, y: 300, width: 0.000001, height: 0.000001))
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/tmp/speck.drawing"))
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
        let drawing = Drawing(
            canvasSize: Size(width: 0.1, height: 0.1), background: .white,
            graphics: [
                Graphic(
                    kind: .rectangle,
                    transform: GraphicTransform(center: Point(x: 0.05, y: 0.05), size: Size(width: 0.05, height: 0.05)),
                    stroke: Stroke(color: .black, width: 1000, join: .round))
            ])
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/tmp/wide-stroke.drawing"))
        let image = try DocumentRenderer.render(located, options: RenderOptions(size: .width(6553))).image
        #expect(image.width == 6553)
        for (x, y) in [(0, 0), (3276, 3276), (6552, 6552), (6552, 0)] {
            #expect(image.pixel(x: x, y: y) == RGBA8(r: 0, g: 0, b: 0, a: 255), "(\(x), \(y)) under the stroke")
        }
    }
}
