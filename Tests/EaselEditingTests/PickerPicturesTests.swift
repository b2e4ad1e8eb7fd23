import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// What the editor's pickers show, drawn by Easel's renderer: the stickers (and a sticker
/// added to a card stored exactly as the app stores an image), the picker's fonts in their
/// own faces, and the clip shapes.
@Suite("The pickers' pictures")
struct PickerPicturesTests {
    @Test func everyStickerIsItsEmojiOnAClearSquare() throws {
        let all = StickerCatalog.themes.flatMap(\.stickers)
        #expect(all.count == Set(all.map(\.id)).count && all.allSatisfy { !$0.id.contains(" ") }, "ids are unique words")
        // What a character no installed font has looks like: a missing-glyph box.
        let missing = try StickerCatalog.png(Sticker(id: "none/none", name: "none", emoji: "\u{10FFFD}"), size: 64)
        for sticker in all {
            let png = try StickerCatalog.png(sticker, size: 64)
            #expect(png != missing, "\(sticker.id) is drawn, not a missing-glyph box")
            let image = try PNGDecoder.decode(png)
            #expect(image.width == 64 && image.height == 64)
            #expect(image.pixel(x: 0, y: 0).a == 0, "\(sticker.id): a clear corner")
            let drawn = (0..<64).flatMap { y in (0..<64).map { x in image.pixel(x: x, y: y) } }.filter { $0.a > 200 }
            let colours = Set(drawn.map { [$0.r, $0.g, $0.b] })
            #expect(drawn.count > 400 && colours.count > 4, "\(sticker.id) fills its square in its colours: \(colours.count)")
        }
        #expect(throws: EditError.self) { try StickerCatalog.png(all[0], size: 4096) }
    }

    @Test func aStickerOnACardIsStoredAsTheAppStoresAnImage() throws {
        let folder = TemporaryFolder()
        var card = Card()
        let added = try card.add(
            ElementRequest(kind: "sticker", value: "party/cake", documentName: "card"), resourceFolder: folder.url)
        let element = card.imageElements[added.index]
        let name = try #require(element.imageFilename)
        #expect(UUID(uuidString: name) != nil && name == name.uppercased() && !name.contains("."), "\(name)")
        let image = try PNGDecoder.decode(Array(try Data(contentsOf: folder.file(name))))
        #expect(image.width == StickerCatalog.storedSize && image.height == StickerCatalog.storedSize)
        #expect(element.transform.size == Size(width: 800, height: 800), "the app's size for a new element")
        let json = try JSONSerialization.jsonObject(with: Data(try CardEncoder.encode(card, file: "card"))) as? [String: Any]
        let stored = try #require((json?["imageElements"] as? [[String: Any]])?.first)
        #expect(Set(stored.keys) == ["transform", "imageFilename", "frameIndex"] && stored["frameIndex"] is NSNull)
        #expect(throws: EditError.self) {
            try card.add(
                ElementRequest(kind: "sticker", value: "party/unicorn", documentName: "card"), resourceFolder: folder.url)
        }
        var drawing = Drawing()
        let placed = try drawing.add(
            ElementRequest(kind: "sticker", value: "camping/fire", documentName: "drawing"), resourceFolder: folder.url)
        #expect(drawing.graphics[placed.index].kind == .image(file: "sticker-fire.png"))
    }

    @Test func theFontsAreShownInTheirOwnFaces() throws {
        let gill = try PNGDecoder.decode(try FontSample.png(font: "Gill Sans", height: 40))
        let chalk = try PNGDecoder.decode(try FontSample.png(font: "Chalkduster", text: "Gill Sans", height: 40))
        #expect(gill.height == 40 && chalk.height == 40)
        let same =
            gill.width == chalk.width
            && (0..<gill.height).allSatisfy { y in
                (0..<gill.width).allSatisfy { gill.pixel(x: $0, y: y) == chalk.pixel(x: $0, y: y) }
            }
        #expect(!same, "the same words in two picker fonts are drawn differently")
        #expect(throws: EditError.self) { try FontSample.png(font: "Comic Sans MS") }
        #expect(throws: EditError.self) { try FontSample.png(font: "Papyrus", text: String(repeating: "x", count: 101)) }
        #expect(throws: EditError.self) { try FontSample.png(font: "Papyrus", height: 1000) }
    }

    @Test func aClipShapeIsDrawnCutToItsShape() throws {
        let heart = try PNGDecoder.decode(try ClipSample.png(named: "heart", size: 64))
        #expect(heart.pixel(x: 32, y: 40).a == 255 && heart.pixel(x: 32, y: 6).a == 0, "the heart's dip at the top is clear")
        #expect(throws: EditError.self) { try ClipSample.png(named: "blob") }
    }
}
