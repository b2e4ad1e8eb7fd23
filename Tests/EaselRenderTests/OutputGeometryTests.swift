import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// Where the canvas lands in the output, and on what: a box it is fitted in (contain,
/// cover, stretch), another background, a PDF's page size from the dpi, an area of the
/// canvas; and nothing is ever drawn outside the canvas, wherever the output reaches.
@Suite("Fit, background, dpi and area place the canvas in the output")
struct OutputGeometryTests {
    let folder = TemporaryFolder()
    static let red = Color(red: 1, green: 0, blue: 0)
    static let opaqueRed = RGBA8(r: 255, g: 0, b: 0, a: 255)

    /// `drawing`, saved and opened as a document.
    func located(_ drawing: Drawing) throws -> LocatedDocument {
        LocatedDocument(drawing, at: try folder.write(DrawingEncoder.encode(drawing), to: "d.drawing"))
    }

    func render(_ drawing: Drawing, _ configure: (inout RenderOptions) -> Void) throws -> RasterImage {
        var options = RenderOptions()
        configure(&options)
        return try DocumentRenderer.render(try located(drawing), options: options).image
    }

    /// A black 200x100 canvas with a red 40x20 rectangle centred at (150, 50).
    static let blackWithRed = Drawing(
        canvasSize: Size(width: 200, height: 100), background: .black,
        graphics: [
            Graphic(
                kind: .rectangle, transform: GraphicTransform(center: Point(x: 150, y: 50), size: Size(width: 40, height: 20)),
                fill: red)
        ])

    @Test func aBoxIsFilledAsTheFitSays() throws {
        let contain = try render(Self.blackWithRed) { $0.size = .fitted(width: 100, height: 100, fit: .contain) }
        #expect(contain.width == 100 && contain.height == 100)
        #expect(contain.pixel(x: 50, y: 5).a == 0, "letterboxed")
        #expect(contain.pixel(x: 50, y: 50) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        let cover = try render(Self.blackWithRed) { $0.size = .fitted(width: 100, height: 100, fit: .cover) }
        #expect(cover.pixel(x: 50, y: 2).a == 255, "filled")
        let stretched = try render(Self.blackWithRed) { $0.size = .exact(width: 100, height: 100) }
        #expect(stretched.pixel(x: 75, y: 50).r == 255, "the red rectangle, stretched to x 75")
    }

    @Test func anotherBackgroundReplacesTheDocumentsOwn() throws {
        #expect(try render(Self.blackWithRed) { _ in }.pixel(x: 5, y: 5) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(try render(Self.blackWithRed) { $0.background = .clear }.pixel(x: 5, y: 5).a == 0)
        let green = try render(Self.blackWithRed) { $0.background = Color(red: 0, green: 1, blue: 0) }
        #expect(green.pixel(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    @Test func theDPIMakesAPDFsPageSizeAndAPageTooLargeIsRefused() throws {
        var options = RenderOptions(format: .pdf)
        options.dpi = 144
        let pdf = String(
            decoding: try DocumentRenderer.export(try located(Self.blackWithRed), options: options).bytes, as: UTF8.self)
        #expect(pdf.contains("MediaBox [ 0 0 100 50 ]"), "200x100 pixels at 144 dpi are 100x50 points")
        // A tiny dpi makes a page past what cairo can draw (it aborts the process there).
        for (format, dpi) in [(OutputFormat.svg, 0.01), (.pdf, 0.001)] {
            var tiny = RenderOptions(format: format)
            tiny.dpi = dpi
            let out = folder.file("tiny.\(format.fileExtension)")
            #expect {
                _ = try DocumentRenderer.export(try located(Self.blackWithRed), options: tiny, writingTo: out.path)
            } throws: { error in
                "\(error)".contains("over the limit of 1000000 points a side; give a larger dpi")
            }
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(format): nothing written")
        }
    }

    @Test func anAreaIsThatPartOfTheCanvas() throws {
        let area = try render(Self.blackWithRed) {
            $0.area = RenderOptions.Area(Rect(x: 130, y: 40, width: 40, height: 20))
            $0.size = .scale(2)
        }
        #expect(area.width == 80 && area.height == 40 && area.pixel(x: 40, y: 20).r == 255)
    }

    /// "Clip everything to the canvas": a shape half off the canvas shows only its half, in
    /// a letterboxed box and in an area reaching past the canvas alike.
    @Test func nothingIsDrawnOutsideTheCanvasWhereTheOutputReachesPastIt() throws {
        let halfOff = Drawing(
            canvasSize: Size(width: 100, height: 100),
            graphics: [
                Graphic(
                    kind: .rectangle, transform: GraphicTransform(center: Point(x: 0, y: 50), size: Size(width: 40, height: 40)),
                    fill: Self.red)
            ])
        let contain = try render(halfOff) { $0.size = .fitted(width: 200, height: 100, fit: .contain) }  // canvas x 50 to 150
        #expect(contain.pixel(x: 40, y: 50).a == 0, "in the margin, nothing: \(contain.pixel(x: 40, y: 50))")
        #expect(contain.pixel(x: 60, y: 50) == Self.opaqueRed, "on the canvas, the shape")
        let area = try render(halfOff) { $0.area = RenderOptions.Area(Rect(x: -20, y: 30, width: 40, height: 40)) }
        #expect(area.width == 40 && area.pixel(x: 10, y: 20).a == 0, "left of the canvas, nothing")
        #expect(area.pixel(x: 30, y: 20) == Self.opaqueRed)
        // Where the canvas fills the output, the pixels are as they always were (no clip is drawn).
        #expect(try render(halfOff) { _ in }.pixel(x: 10, y: 50) == Self.opaqueRed)
    }
}
