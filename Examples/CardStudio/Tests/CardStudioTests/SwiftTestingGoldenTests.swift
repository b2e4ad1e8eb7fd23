import CardStudio
import EaselGoldenTesting  // alone: Card, Drawing, DocumentRegistry, RenderOptions, Tolerance come with it
import Foundation
import Testing

/// Golden tests with Swift Testing. Goldens are `Goldens/<suite>/<name>.png` in this package;
/// outside CI a missing golden is recorded (and the test fails once, so it is looked at).
@Suite("Goldens (Swift Testing)")
struct SwiftTestingGoldenTests {
    @Test func cardFileAtThumbnailSize() {
        assertGolden(file: Fixtures.card, named: "postcard", suite: "Cards")
    }

    @Test func cardValueOpenedByHand() throws {
        let card = try #require(try DocumentRegistry.standard.open(Fixtures.card).document as? Card)
        assertGolden(card: card, in: Fixtures.documents, named: "postcard", suite: "Cards")
    }

    @Test func badgeBuiltInCode() {
        let badge = CardStudio.badge(for: "Ada", color: Color(rgb: 0x2E86AB))
        assertGolden(drawing: badge, imageFolder: Fixtures.documents, named: "badge-ada", suite: "Drawings")
    }

    @Test func thumbnailBytesDecodeToTheGolden() throws {
        let (png, warnings) = try CardStudio.thumbnail(of: Fixtures.card)
        #expect(warnings.isEmpty)
        let image = try PNGDecoder.decode(png)
        #expect(image.width == 260 && image.height == 400)
        assertGolden(image, named: "postcard", suite: "Cards")
    }

    @Test func wholeFolderAgainstItsGoldens() {
        assertGoldenFolder("Documents", goldens: "Goldens/Folder", report: ".build/golden-report")
    }

    @Test func aMistypedColourIsAnErrorNotAMissingFill() {
        #expect(throws: ColorParseError.self) { try Color(hex: "#2E86A") }
    }
}
