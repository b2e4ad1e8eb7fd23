import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport
import EaselGoldenTesting

/// Cards rendered at the app's thumbnail size (260x400) and compared with Goldens/Cards.
@Suite("Card goldens")
struct CardGoldenTests {
    let folder = TemporaryFolder()

    init() throws {
        try folder.write(try TestImages.quadrants(), to: "QUADRANTS")
        try folder.write(try TestImages.small(), to: "SMALL")
        try folder.write(Array("not a png".utf8), to: "BROKEN")
        try folder.write("secret", to: "../easel-outside-\(getpid())")
    }

    func render(_ card: Card, scale: Double = 0.2) throws -> (RasterImage, [DocumentWarning]) {
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "card.rwcard")
        let rendered = try DocumentRenderer.render(LocatedDocument(card, at: url), options: RenderOptions(size: .scale(scale)))
        return (rendered.image, rendered.warnings)
    }

    func element(_ name: String?, x: Double, y: Double, w: Double, h: Double, rotation: Double = 0, clip: LibraryShape? = nil)
        -> ImageElement
    {
        ImageElement(
            transform: ElementTransform(size: Size(width: w, height: h), rotationDegrees: rotation, offset: Point(x: x, y: y)),
            imageFilename: name, clip: clip.map(ClipShape.library))
    }

    @Test func everyClipShapeOnANonSquareImage() throws {
        let card = Card(
            backgroundColor: Color(rgb: 0xF1FAEE),
            imageElements: LibraryShape.allCases.map { shape in
                element(
                    "QUADRANTS", x: (Double(shape.rawValue % 3) - 1) * 420, y: (Double(shape.rawValue / 3) - 1.5) * 460, w: 380,
                    h: 380, clip: shape)
            })
        assertGolden(try render(card).0, named: "clip-shapes", suite: "Cards")
    }

    @Test func rotations() throws {
        let card = Card(
            backgroundColor: .white,
            imageElements: [0.0, 30, 90, 180, -45, 720 + 15].enumerated().map { i, degrees in
                element(
                    "QUADRANTS", x: Double(i % 2) * 600 - 300, y: Double(i / 2) * 600 - 600, w: 450, h: 300, rotation: degrees)
            })
        assertGolden(try render(card).0, named: "rotations", suite: "Cards")
    }

    @Test func offCanvasElementsAreClippedToTheCanvas() throws {
        let card = Card(
            backgroundColor: Color(rgb: 0xA8DADC),
            imageElements: [
                element("QUADRANTS", x: -650, y: -1000, w: 600, h: 400),
                element("QUADRANTS", x: 700, y: 0, w: 600, h: 400, rotation: 20),
                element("QUADRANTS", x: 0, y: 1100, w: 900, h: 600, clip: .heart),
                element("QUADRANTS", x: 5000, y: 5000, w: 600, h: 400),
            ])
        assertGolden(try render(card).0, named: "off-canvas", suite: "Cards")
    }

    @Test func imagesLargerAndSmallerThanTheirFrames() throws {
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                element("QUADRANTS", x: 0, y: -500, w: 150, h: 500),  // shrunk: frame narrower than the image
                element("SMALL", x: 0, y: 400, w: 1000, h: 900, clip: .roundedRectangle),  // enlarged 40x
            ])
        assertGolden(try render(card).0, named: "image-sizes", suite: "Cards")
    }

    @Test func textFitting() throws {
        func text(
            _ string: String, y: Double, w: Double = 1100, h: Double = 200, rotation: Double = 0, font: String = "Gill Sans",
            color: Color = Color(rgb: 0x1D3557)
        ) -> TextElement {
            TextElement(
                transform: ElementTransform(
                    size: Size(width: w, height: h), rotationDegrees: rotation, offset: Point(x: 0, y: y)),
                text: string, textColor: color, textFont: font)
        }
        let card = Card(
            backgroundColor: Color(rgb: 0xFFF3B0),
            textElements: [
                text("Hi", y: -800),  // short: 200 units, never grown
                text("A much longer line of text that must shrink to fit its frame", y: -550, font: "ChalkboardSE-Regular"),
                text("Rotated", y: -200, w: 700, h: 180, rotation: -20, font: "Avenir-Heavy"),
                text("", y: 0),  // empty: nothing
                text("Grüße, Ελληνικά, 日本語, ★ ♥ ✓", y: 250, font: "Verdana-Bold"),  // fallback glyphs
                text("Papyrus in a short box", y: 550, w: 1100, h: 60, font: "Papyrus"),  // limited by height
                text("Unknown font name", y: 800, font: "Comic Sans MS", color: Color(rgb: 0xE63946)),
            ])
        let (image, warnings) = try render(card)
        #expect(warnings.map(\.keyPath) == ["textElements[6].textFont"], "only the unknown font is reported")
        assertGolden(image, named: "text-fitting", suite: "Cards")
    }

    @Test func missingRefusedAndUnreadableImagesDrawTheErrorImage() throws {
        let card = Card(
            backgroundColor: Color(rgb: 0xE9ECEF),
            imageElements: [
                element("NOT-THERE", x: -300, y: -500, w: 500, h: 500),
                element("../easel-outside-\(getpid())", x: 300, y: -500, w: 500, h: 500),
                element("BROKEN", x: -300, y: 300, w: 500, h: 300, rotation: 15),
                element(nil, x: 300, y: 300, w: 300, h: 500),
            ])
        let (image, warnings) = try render(card)
        #expect(warnings.count == 4)
        #expect(warnings[1].message.contains("path separator"))
        #expect(warnings[2].message.contains("not a PNG image"))
        assertGolden(image, named: "error-images", suite: "Cards")
    }

    @Test func extendedSRGBColoursAreClampedWhenDrawn() throws {
        let card = Card(
            backgroundColor: Color(red: -0.003, green: 0.924, blue: 1.02, alpha: 1),
            textElements: [
                TextElement(
                    transform: ElementTransform(size: Size(width: 1000, height: 300)), text: "Extended",
                    textColor: Color(red: 1.2, green: -0.1, blue: 0.5, alpha: 1.5), textFont: "Gill Sans")
            ])
        let (image, _) = try render(card)
        #expect(image.pixel(x: 2, y: 2) == RGBA8(r: 0, g: Fixtures.cairo8(0.924), b: 255, a: 255))
        assertGolden(image, named: "extended-srgb", suite: "Cards")
    }

    @Test func theErrorImageIsTheAppsAsset() throws {
        // A square frame shows the asset whole; a wide one aspect-fits it, centred.
        let card = Card(
            backgroundColor: .white,
            imageElements: [element(nil, x: 0, y: -450, w: 1000, h: 1000), element(nil, x: 0, y: 600, w: 1200, h: 600)])
        let (image, warnings) = try render(card, scale: 0.4)
        #expect(warnings.count == 2)
        // The asset's red, rgb(255, 45, 45), in the middle of the "x".
        let red = image.pixel(x: 260, y: Int((1000 - 450 - 500 + 220 * 1000 / 512) * 0.4))
        #expect(red == RGBA8(r: 255, g: 45, b: 45, a: 255), "\(red)")
        assertGolden(image, named: "error-image", suite: "Cards")
    }

    @Test func theErrorImageIsClippedByTheFrameAsAnyImage() throws {
        let card = Card(
            backgroundColor: Color(rgb: 0xF4D6E6),
            imageElements: [
                element(nil, x: -300, y: -500, w: 550, h: 550, clip: .heart),
                element(nil, x: 300, y: -500, w: 550, h: 550, clip: .circle),
                element(nil, x: -300, y: 300, w: 550, h: 550, rotation: 15, clip: .diamond),
                element("NOT-THERE", x: 300, y: 300, w: 550, h: 400, clip: .cloud),
            ])
        let (image, warnings) = try render(card, scale: 0.4)
        #expect(warnings.count == 4)
        // Outside the heart, near the frame's top corner, the background shows: clipped.
        #expect(image.pixel(x: Int((650 - 300 - 270) * 0.4), y: Int((1000 - 500 - 270) * 0.4)).g > 200)
        assertGolden(image, named: "error-image-clipped", suite: "Cards")
    }

    @Test func everyFontOfTheAppsPicker() throws {
        let fonts = FontMapTests.pickerFonts
        let card = Card(
            backgroundColor: .white,
            textElements: fonts.enumerated().map { index, font in
                TextElement(
                    transform: ElementTransform(
                        size: Size(width: 1240, height: 104), offset: Point(x: 0, y: Double(index) * 114 - 912)),
                    text: "\(font): Quick brown fox", textColor: Color(rgb: 0x1D3557), textFont: font)
            })
        let (image, warnings) = try render(card, scale: 0.4)
        #expect(warnings.isEmpty, "\(warnings)")
        assertGolden(image, named: "picker-fonts", suite: "Cards")
    }
}
