import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport

@Suite("Card export")
struct CardExportTests {
    let background = Color(red: 0.816, green: 0.722, blue: 0.942)  // the app's random1
    let green = Color(red: 0, green: 0.8, blue: 0.2)

    /// Renders the card in `folder` at `scale` through the PNG encoder and decodes the result,
    /// so every check sees exactly what a user's PNG file holds.
    func export(_ card: Card, in folder: TemporaryFolder, scale: Double = 1) throws -> (
        image: RasterImage, warnings: [DocumentWarning]
    ) {
        let url = try Fixtures.write(card, in: folder)
        let document = try DocumentRegistry.standard.open(url)
        let result = try DocumentRenderer.renderPNG(document, options: RenderOptions(size: .scale(scale)))
        return (try Fixtures.decodePNG(result.png), result.warnings)
    }

    @Test func backgroundFillsTheCanvasAndAnImageSitsInItsFrame() throws {
        let folder = TemporaryFolder()
        try folder.write(try Fixtures.solidPNG(width: 200, height: 100, color: green), to: "IMAGE-A")
        // A 400x400 frame centred 200 right of and 300 below the card's centre; the 2:1
        // image fits as 400x200, centred vertically in the frame.
        let card = Card(
            backgroundColor: background,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(size: Size(width: 400, height: 400), offset: Point(x: 200, y: 300)),
                    imageFilename: "IMAGE-A")
            ])
        let (image, warnings) = try export(card, in: folder)
        #expect(warnings.isEmpty)
        #expect(image.width == 1300 && image.height == 2000)
        let backgroundPixel = RGBA8(r: Fixtures.cairo8(0.816), g: Fixtures.cairo8(0.722), b: Fixtures.cairo8(0.942), a: 255)
        #expect(backgroundPixel == RGBA8(r: 208, g: 184, b: 241, a: 255))
        for (x, y) in [(0, 0), (1299, 0), (0, 1999), (1299, 1999)] {
            #expect(image.pixel(x: x, y: y) == backgroundPixel, "corner (\(x), \(y))")
        }
        let center = (x: 650 + 200, y: 1000 + 300)
        #expect(image.pixel(x: center.x, y: center.y) == RGBA8(r: 0, g: 204, b: 51, a: 255))
        // Aspect-fit: inside the frame but above and below the fitted image is background.
        #expect(image.pixel(x: center.x, y: center.y - 150) == backgroundPixel)
        #expect(image.pixel(x: center.x, y: center.y - 90) == RGBA8(r: 0, g: 204, b: 51, a: 255))
        #expect(image.pixel(x: center.x - 195, y: center.y) == RGBA8(r: 0, g: 204, b: 51, a: 255))
        #expect(image.pixel(x: center.x - 205, y: center.y) == backgroundPixel)
    }

    @Test func rotationTurnsTheFrameClockwiseAboutItsCentre() throws {
        let folder = TemporaryFolder()
        try folder.write(try Fixtures.solidPNG(width: 300, height: 100, color: green), to: "WIDE")
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(size: Size(width: 600, height: 200), rotationDegrees: 90), imageFilename: "WIDE")
            ])
        let (image, _) = try export(card, in: folder)
        // Turned a quarter: now 200 wide and 600 tall about (650, 1000).
        #expect(image.pixel(x: 650, y: 1000 - 280).g == 204)
        #expect(image.pixel(x: 650 - 150, y: 1000) == RGBA8(r: 255, g: 255, b: 255, a: 255))
        #expect(image.pixel(x: 650 + 90, y: 1000).g == 204)
        #expect(image.pixel(x: 650 + 110, y: 1000) == RGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func translucentImagesAreCompositedOverTheBackground() throws {
        let folder = TemporaryFolder()
        try folder.write(
            try Fixtures.solidPNG(width: 50, height: 50, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5)), to: "HALF")
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(transform: ElementTransform(size: Size(width: 500, height: 500)), imageFilename: "HALF")
            ])
        let (image, _) = try export(card, in: folder, scale: 0.2)
        #expect(image.width == 260 && image.height == 400)
        let pixel = image.pixel(x: 130, y: 200)
        #expect(pixel.maxChannelDifference(to: RGBA8(r: 255, g: 127, b: 127, a: 255)) <= 1, "\(pixel)")
    }

    @Test func aClipShapeIsLaidOutInTheFittedImageRectangle() throws {
        let folder = TemporaryFolder()
        try folder.write(try Fixtures.solidPNG(width: 400, height: 200, color: green), to: "CLIPPED")
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(size: Size(width: 800, height: 800)), imageFilename: "CLIPPED",
                    clip: .library(.circle))
            ])
        let (image, _) = try export(card, in: folder)
        // Fitted 800x400 at y 800...1200; the circle has diameter 400 centred at (650, 1000).
        #expect(image.pixel(x: 650, y: 1000).g == 204)
        #expect(image.pixel(x: 650 + 190, y: 1000).g == 204)
        #expect(image.pixel(x: 650 + 220, y: 1000) == RGBA8(r: 255, g: 255, b: 255, a: 255), "outside the circle")
        #expect(image.pixel(x: 650 + 150, y: 1000 - 180) == RGBA8(r: 255, g: 255, b: 255, a: 255), "corner of the fitted rect")
    }

    @Test func aFrameTooSmallToSeeDrawsNothingInEveryFormat() throws {
        let folder = TemporaryFolder()
        try folder.write(try Fixtures.solidPNG(width: 200, height: 100, color: green), to: "IMAGE-A")
        let visible = ImageElement(transform: ElementTransform(size: Size(width: 400, height: 400)), imageFilename: "IMAGE-A")
        // 1e-300 squared underflows to 0: a matrix cairo refuses as not invertible ("invalid
        // matrix"), which failed the whole export; such a frame shows nothing in the app.
        let tiny = ElementTransform(size: Size(width: 1e-300, height: 1e-300), offset: Point(x: 100, y: 100))
        let tinyElements = [
            ImageElement(transform: tiny, imageFilename: "IMAGE-A", clip: .library(.heart)),
            ImageElement(transform: tiny, imageFilename: "MISSING"),
        ]
        let (withTiny, _) = try export(Card(backgroundColor: .white, imageElements: [visible] + tinyElements), in: folder)
        let (without, _) = try export(Card(backgroundColor: .white, imageElements: [visible]), in: folder)
        #expect(withTiny.width == without.width && withTiny.height == without.height)
        #expect(
            withTiny.withUnsafePixels { Array($0) } == without.withUnsafePixels { Array($0) }, "the tiny elements add no pixel")

        let text = TextElement(transform: tiny, text: "Hello", textColor: .black, textFont: "Gill Sans")
        let card = try DocumentRegistry.standard.open(
            try Fixtures.write(Card(backgroundColor: .white, imageElements: tinyElements, textElements: [text]), in: folder))
        for format in [OutputFormat.png, .svg, .pdf] {
            #expect(try DocumentRenderer.export(card, options: RenderOptions(format: format, size: .scale(1))).bytes.count > 0)
        }
    }

    @Test func aMissingImageDrawsTheErrorImageAndWarns() throws {
        let folder = TemporaryFolder()
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(transform: ElementTransform(size: Size(width: 600, height: 600)), imageFilename: "NOT-THERE")
            ])
        let (image, warnings) = try export(card, in: folder)
        #expect(warnings.count == 1)
        #expect(warnings.first?.keyPath == "imageElements[0].imageFilename")
        #expect(warnings.first?.message.contains("missing") == true)
        // The red "x" crosses at 35 % of the fitted square's height: (650, 700 + 0.35 * 600).
        let cross = image.pixel(x: 650, y: 700 + 210)
        #expect(cross.r > 200 && cross.g < 60 && cross.b < 60, "\(cross)")
    }

    @Test func theSameCardGivesByteIdenticalPNGs() throws {
        let folder = TemporaryFolder()
        try folder.write(try Fixtures.solidPNG(width: 120, height: 80, color: green), to: "IMG")
        let card = Card(
            backgroundColor: background,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(size: Size(width: 700, height: 500), rotationDegrees: 17), imageFilename: "IMG",
                    clip: .library(.heart))
            ])
        let url = try Fixtures.write(card, in: folder)
        let document = try DocumentRegistry.standard.open(url)
        let first = try DocumentRenderer.renderPNG(document).png
        let second = try DocumentRenderer.renderPNG(document).png
        #expect(first == second)
    }
}

extension Array where Element == DocumentWarning {
    /// A place to send warnings a test does not look at.
    nonisolated(unsafe) static var ignored: [DocumentWarning] = []
}
