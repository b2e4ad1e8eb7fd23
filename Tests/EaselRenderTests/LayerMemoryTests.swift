import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

@testable import EaselRender

/// Faded groups nested in one another each hold a layer while they are drawn; across a wide
/// output, sixteen of them held 650 MB in strips of 256 rows. A scene whose layers would
/// hold more than `layerBytesPerStrip` at once is drawn in thinner strips instead, with the
/// pixels of the scene drawn in one piece, and the PNG drawn band by band cuts them alike.
@Suite("Nested layers drawn in strips thin enough for their memory")
struct LayerMemoryTests {
    /// A drawing of `depth` groups at 90 % opacity, one inside the other, each holding a
    /// shape of its own over the next, across the whole canvas.
    static func nested(depth: Int, width: Double, height: Double) -> Drawing {
        var inner = Graphic(
            kind: .rectangle,
            transform: GraphicTransform(center: Point(x: width / 2, y: height / 2), size: Size(width: width, height: height)),
            fill: Color(red: 0.84, green: 0.16, blue: 0.16))
        for level in 0..<depth {
            let shape = Graphic(
                kind: level % 2 == 0 ? .ellipse : .star(points: 5, innerRadiusRatio: 0.5),
                transform: GraphicTransform(
                    center: Point(x: width * Double(level + 1) / Double(depth + 2), y: height / 3),
                    size: Size(width: width / 5, height: height / 2), rotationDegrees: Double(level * 7)),
                fill: Color(red: 0.18, green: 0.53, blue: Double(level) / Double(depth)), stroke: Stroke(color: .black, width: 3),
                opacity: 0.8)
            inner = Graphic(
                kind: .group([inner, shape]),
                transform: GraphicTransform(center: Point(x: width / 2, y: height / 2), size: Size(width: width, height: height)),
                opacity: 0.9)
        }
        return Drawing(canvasSize: Size(width: width, height: height), background: .white, graphics: [inner])
    }

    static func scene(_ drawing: Drawing) -> Scene {
        DrawingLowering.scene(for: drawing, imageFolder: URL(fileURLWithPath: "/nonexistent"), images: ImageLoader(), file: "t")
    }

    @Test func theDeepestLayersSetHowThinTheStripsAre() throws {
        let deep = Self.scene(Self.nested(depth: 16, width: 4096, height: 600))
        // Sixteen groups, and inside the innermost the faded shape (a fill and a stroke).
        let depth = GroupPlan(deep.operations).layerDepth
        #expect(depth == 17)
        let rows = try #require(CairoSceneRenderer.layerRows(depth: depth, width: 4096))
        #expect(rows < CairoSceneRenderer.stripRows, "seventeen layers 4096 pixels wide do not fit strips of 256 rows")
        #expect(depth * 4096 * 4 * rows <= CairoSceneRenderer.layerBytesPerStrip)
        #expect(depth * 4096 * 4 * (rows + 1) > CairoSceneRenderer.layerBytesPerStrip, "no thinner than needed")
        // A card's few layers never cut its strips; a scene without layers has no limit.
        let shallow = Self.scene(Self.nested(depth: 2, width: 1300, height: 2000))
        #expect(
            try #require(CairoSceneRenderer.layerRows(depth: GroupPlan(shallow.operations).layerDepth, width: 1300))
                > CairoSceneRenderer.stripRows)
        let flat = Self.scene(Self.nested(depth: 0, width: 1300, height: 2000))
        #expect(CairoSceneRenderer.layerRows(depth: GroupPlan(flat.operations).layerDepth, width: 1300) == nil)
    }

    /// A strip passes over a faded group that holds nothing it shows, to the group's end:
    /// its layer would be empty (the thin strips pass over most of a drawing's shapes).
    @Test func aFadedGroupOutsideTheStripIsPassedOver() throws {
        let scene = Self.scene(Self.nested(depth: 1, width: 1000, height: 1000))
        let plan = GroupPlan(scene.operations)
        // The outer group holds the whole canvas; the faded shape inside it (a fill and a
        // stroke) lies in the top half.
        let begins = scene.operations.indices.filter {
            if case .beginGroup = scene.operations[$0] { return true } else { return false }
        }
        let shape = try #require(begins.last)
        let below = Rect(x: 0, y: 900, width: 1000, height: 50)
        let end = try #require(plan.endOfGroupOutside(below, beginningAt: shape))
        let endsAGroup: Bool
        if case .endGroup = scene.operations[end] { endsAGroup = true } else { endsAGroup = false }
        #expect(endsAGroup && end > shape, "\(end) is not the shape's end")
        #expect(plan.endOfGroupOutside(Rect(x: 0, y: 300, width: 1000, height: 50), beginningAt: shape) == nil)
        #expect(plan.endOfGroupOutside(below, beginningAt: try #require(begins.first)) == nil, "the whole canvas reaches it")
    }

    @Test func thinStripsHaveThePixelsOfTheSceneDrawnInOnePiece() throws {
        // 2.4 million pixels: drawn in strips, each cut in thinner ones by its layers.
        let (width, height) = (4096, 600)
        let scene = Self.scene(Self.nested(depth: 16, width: Double(width), height: Double(height)))
        let strips = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height)
        let whole = try RasterImage(width: width, height: height)
        try CairoSceneRenderer.draw(scene, in: CairoContext(image: whole))
        let same = strips.withUnsafePixels { a in whole.withUnsafePixels { b in a.elementsEqual(b) } }
        #expect(same, "the thin strips' pixels differ from the scene drawn in one piece")
        // Not a blank: the layers were drawn (the innermost red shows through sixteen fades).
        #expect(strips.pixel(x: 5, y: height - 5).r > strips.pixel(x: 5, y: height - 5).b)
    }

    @Test func theBandedPNGCutsItsBandsAsTheStripsAre() throws {
        // Short and wide: one strip of all its rows, cut by its layers alone.
        for (width, height) in [(4096, 600), (8000, 200)] {
            let scene = Self.scene(Self.nested(depth: 16, width: Double(width), height: Double(height)))
            let transform = Transform2D.identity
            let expected = try BandedExportTests.wholeImageFile(scene, width: width, height: height, transform: transform)
            let banded = try BandedExportTests.bandedFile(scene, width: width, height: height, transform: transform, threads: 2)
            let same = banded.map { $0 == expected } ?? true  // a short image is not banded: nothing to compare
            #expect(same, "\(width)x\(height)")
        }
    }
}
