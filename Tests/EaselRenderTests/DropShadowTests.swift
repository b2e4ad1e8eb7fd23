import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselGoldenTesting
@testable import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// A graphic's drop shadow: its silhouette blurred (a Gaussian, not a hard copy), moved and
/// painted beneath it, the same in PNG, PDF and SVG, in strips as whole, and bounded.
@Suite("Drop shadows")
struct DropShadowTests {
    let folder = TemporaryFolder()

    /// A white canvas with a blue square casting a shadow down and right, a photo clipped
    /// to a heart casting one, and a text casting a soft coloured one.
    func drawing(blur: Double = 12) throws -> Drawing {
        try folder.write(try TestImages.quadrants(), to: "photo.png")
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), offset: Point(x: 10, y: 10), blur: blur)
        return Drawing(
            canvasSize: Size(width: 360, height: 160), background: .white,
            graphics: [
                Graphic(
                    kind: .rectangle, transform: DrawingGoldenTests.frame(70, 70, 90, 90), fill: DrawingGoldenTests.blue,
                    shadow: shadow),
                Graphic(
                    kind: .image(file: "photo.png"), transform: DrawingGoldenTests.frame(185, 75, 110, 110),
                    clip: .library(.heart), shadow: shadow),
                Graphic(
                    kind: .text(TextContent(string: "soft", fontFamily: "DejaVu Sans", fontSize: 40)),
                    transform: DrawingGoldenTests.frame(300, 75, 100, 60), fill: DrawingGoldenTests.ink,
                    shadow: Shadow(color: Color(red: 0.9, green: 0.2, blue: 0.2, alpha: 0.8), offset: Point(x: 0, y: 6), blur: 6)),
            ])
    }

    func located(_ drawing: Drawing) throws -> LocatedDocument {
        LocatedDocument(drawing, at: try folder.write(DrawingEncoder.encode(drawing), to: "d.drawing"))
    }

    @Test func theShadowIsBlurredMovedAndBeneath() throws {
        let image = try DocumentRenderer.render(try located(try drawing())).image
        assertGolden(image, named: "shadows", suite: "Drawings")
        // The square covers 25...115; its shadow 35...125, fading out past it.
        #expect(image.pixel(x: 70, y: 70) == RGBA8(r: 0x45, g: 0x7B, b: 0x9D, a: 255), "the square is drawn over its shadow")
        let under = image.pixel(x: 120, y: 80), far = image.pixel(x: 150, y: 80), before = image.pixel(x: 20, y: 80)
        #expect(under.r < 200, "shade just right of the square: \(under)")
        #expect(far.r > under.r && far.r < 255 || far.r == 255, "the shade fades with distance: \(under) then \(far)")
        #expect(before.r == 255, "nothing left of the square: the shadow falls right and down: \(before)")
        // A blur, not a hard copy: the edge at x = 125 is a ramp of many greys.
        let ramp = Set((112...140).map { image.pixel(x: $0, y: 80).r })
        #expect(ramp.count > 12, "a soft edge has many levels: \(ramp.sorted())")
        // With no blur the edge is sharp: at most the antialiased pixel between.
        let sharp = try DocumentRenderer.render(try located(try drawing(blur: 0))).image
        #expect(Set((112...140).map { sharp.pixel(x: $0, y: 80).r }).count <= 3)
    }

    /// A large image is drawn in strips, each blurring only the part of a shadow that can
    /// reach it: no seam where strips meet (at most a rounding step from the whole image's
    /// pixels), and the same bytes however many cores draw them.
    @Test func stripsShowNoSeamAndDoNotDependOnTheCores() throws {
        let scene = try DocumentRenderer.scene(for: try located(try drawing()))
        let whole = try CairoSceneRenderer.rasterize(scene, pixelWidth: 720, pixelHeight: 320)
        let strips = try CairoSceneRenderer.rasterize(scene, pixelWidth: 720, pixelHeight: 320, stripRows: 64, threads: 2)
        var largest = 0
        for y in 0..<320 {
            for x in 0..<720 {
                largest = max(largest, whole.pixel(x: x, y: y).maxChannelDifference(to: strips.pixel(x: x, y: y)))
            }
        }
        #expect(largest <= 2, "strips differ from the whole image by \(largest)")
        let oneCore = try CairoSceneRenderer.rasterize(scene, pixelWidth: 720, pixelHeight: 320, stripRows: 64, threads: 1)
        #expect(try PNGEncoder.encode(oneCore) == PNGEncoder.encode(strips))
    }

    /// The drawing's PNG and its PDF rasterised by poppler (`pdftoppm`): two rasterisers
    /// differ at the edges of shapes, text and photos, so what is compared is what the
    /// shadows add — each renderer's pixels with shadows against its own without them.
    @Test func thePDFShowsTheSameShadows() throws {
        func bothWays(_ drawing: Drawing, _ name: String) throws -> (png: RasterImage, pdf: RasterImage) {
            let located = try located(drawing)
            let png = try DocumentRenderer.render(located).image
            let pdf = try DocumentRenderer.export(located, options: RenderOptions(format: .pdf, size: .scale(1))).bytes
            let pdfURL = try folder.write(pdf, to: "\(name).pdf")
            let result = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/pdftoppm"),
                ["-r", "72", "-png", "-singlefile", pdfURL.path, folder.file(name).path])
            try #require(result.status == 0, "pdftoppm (poppler-utils): \(result.stderr)")
            return (png, try PNGDecoder.decode(Array(try Data(contentsOf: folder.file("\(name).png")))))
        }
        var plain = try drawing()
        for index in plain.graphics.indices { plain.graphics[index].shadow = nil }
        let shaded = try bothWays(try drawing(), "shaded"), unshaded = try bothWays(plain, "plain")
        try #require(shaded.pdf.width == shaded.png.width && shaded.pdf.height == shaded.png.height)
        var total = 0, largest = 0, shadowed = 0
        for y in 0..<shaded.png.height {
            for x in 0..<shaded.png.width {
                // How much darker the shadows made this pixel, in each renderer (red channel).
                let byCairo = Int(unshaded.png.pixel(x: x, y: y).r) - Int(shaded.png.pixel(x: x, y: y).r)
                let byPoppler = Int(unshaded.pdf.pixel(x: x, y: y).r) - Int(shaded.pdf.pixel(x: x, y: y).r)
                if byCairo > 8 { shadowed += 1 }
                total += abs(byCairo - byPoppler)
                largest = max(largest, abs(byCairo - byPoppler))
            }
        }
        let mean = Double(total) / Double(shaded.png.width * shaded.png.height)
        #expect(shadowed > 4_000, "the shadows darken many pixels: \(shadowed)")
        // Measured: 0.68 on average and 30 at most (at antialiased edges over the shade).
        #expect(mean < 1, "the shadows differ by \(mean) per pixel on average")
        #expect(largest <= 40, "the shadows differ by at most \(largest) at a pixel")
        // In the open shade, beside the square, the two agree closely.
        for (x, y) in [(120, 80), (118, 100), (60, 120)] {
            #expect(abs(Int(shaded.png.pixel(x: x, y: y).r) - Int(shaded.pdf.pixel(x: x, y: y).r)) <= 6, "at \(x),\(y)")
        }
    }

    @Test func theSVGCarriesTheShadowAsAMask() throws {
        let svg = try DocumentRenderer.export(try located(try drawing()), options: RenderOptions(format: .svg, size: .scale(1)))
        let text = String(decoding: svg.bytes, as: UTF8.self)
        #expect(text.contains("<mask") || text.contains("mask="), "the blurred silhouette is a mask image")
        #expect(text.components(separatedBy: "<image").count - 1 >= 4, "the photo, and three shadow masks")
    }

    @Test func shadowsPastTheBudgetAreLeftOutWithAWarning() throws {
        let one = Graphic(
            kind: .ellipse, transform: DrawingGoldenTests.frame(10, 10, 4, 4), fill: .black,
            shadow: Shadow(offset: Point(x: 1, y: 1), blur: 2))
        let many = Drawing(
            canvasSize: Size(width: 40, height: 40), graphics: Array(repeating: one, count: RenderBudgets.maxShadows + 3))
        let scene = try DocumentRenderer.scene(for: try located(many))
        #expect(scene.operations.filter { if case .shadow = $0 { true } else { false } }.count == RenderBudgets.maxShadows)
        #expect(scene.warnings.count == 3 && scene.warnings[0].keyPath == "graphics[\(RenderBudgets.maxShadows)].shadow")
    }

    @Test func shadowsNestedInShadowedGroupsAreCountedByTheirDraws() throws {
        // Each shadowed group draws the shadows inside it again when it casts its own: 16
        // levels would be 2^17 - 1 draws of a blur from a file of a few lines.
        let shadow = Shadow(offset: Point(x: 1, y: 1), blur: 2)
        var graphic = Graphic(kind: .rectangle, transform: DrawingGoldenTests.frame(20, 20, 10, 10), fill: .black, shadow: shadow)
        for _ in 0..<16 {
            graphic = Graphic(kind: .group([graphic]), transform: DrawingGoldenTests.frame(20, 20, 40, 40), shadow: shadow)
        }
        let scene = try DocumentRenderer.scene(
            for: try located(Drawing(canvasSize: Size(width: 40, height: 40), graphics: [graphic])))
        func draws(_ operations: [SceneOperation]) -> Int {
            operations.reduce(0) { count, operation in
                if case .shadow(let inner) = operation { return count + 1 + draws(inner.operations) }
                return count
            }
        }
        // Seven levels of shadows (255 draws) are drawn; the nine groups around them are not.
        #expect(draws(scene.operations) == 255)
        #expect(scene.warnings.count == 9)
        #expect(scene.warnings.first?.keyPath == "graphics[0]" + String(repeating: ".children[0]", count: 8) + ".shadow")
        #expect(scene.warnings.last?.keyPath == "graphics[0].shadow")
    }

    @Test func aWideBlurAtALargeScaleStaysBounded() throws {
        // The widest blur at 8x: drawn on a coarser mask, not on billions of pixels.
        var drawing = try drawing(blur: DrawingLimits.maxShadowBlur)
        drawing.graphics = [drawing.graphics[0]]
        let image = try DocumentRenderer.render(try located(drawing), options: RenderOptions(size: .scale(8))).image
        #expect(image.width == 2880)
        #expect(image.pixel(x: 560, y: 560) == RGBA8(r: 0x45, g: 0x7B, b: 0x9D, a: 255))
    }
}
