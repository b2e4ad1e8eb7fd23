import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// A line's arrowheads: a filled triangle at each end that has one, pointing along the line
/// with its tip at the end, the line stopping at its base.
@Suite("Arrowheads on lines")
struct ArrowheadTests {
    let folder = TemporaryFolder()

    func render(_ ends: Stroke.Arrowheads) throws -> RasterImage {
        var arrow = Graphic(
            kind: .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5)),
            transform: GraphicTransform(center: Point(x: 100, y: 50), size: Size(width: 160, height: 0)))
        arrow.stroke = Stroke(color: .black, width: 4, arrowheads: ends)
        let drawing = Drawing(canvasSize: Size(width: 200, height: 100), background: .white, graphics: [arrow])
        let url = try folder.write(DrawingEncoder.encode(drawing), to: "arrow-\(ends).drawing")
        return try DocumentRenderer.render(LocatedDocument(drawing, at: url)).image
    }

    @Test func aHeadIsATrianglePointingAlongTheLineToItsEnd() throws {
        let plain = try render(.none), end = try render(.end), both = try render(.both)
        // The line runs from x = 20 to 180 at y = 50, 4 units wide (y 48 to 52); a head is 16
        // long (its base at x = 164) and 12 wide at its base.
        let dark = { (image: RasterImage, x: Int, y: Int) in image.pixel(x: x, y: y).r < 50 }
        let white = { (image: RasterImage, x: Int, y: Int) in image.pixel(x: x, y: y).r == 255 }
        #expect(white(plain, 166, 54), "no head: white beside the line")
        #expect(dark(end, 166, 54) && dark(end, 166, 46), "a head is wider than the line near its base")
        #expect(white(end, 177, 54) && dark(end, 177, 50), "and narrows to its tip")
        #expect(white(end, 33, 54) && dark(both, 33, 54), "the start has one only with both")
        #expect(white(end, 183, 50) && white(both, 17, 50), "a tip is the line's end: nothing past it")
    }
}
