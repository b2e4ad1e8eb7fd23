import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// A new element is sized to its content: a text's frame fits its words (on a card, at the
/// app's 200 units and within the card's width), a photo's frame has its proportions; a
/// size given in the request wins.
@Suite("New elements are sized to their content")
struct NewElementSizeTests {
    /// A `width` by `height` PNG in `folder`.
    static func photo(_ width: Int, _ height: Int, in folder: TemporaryFolder) throws -> URL {
        let image = try RasterImage(width: width, height: height)
        return try folder.write(try PNGEncoder.encode(image), to: "photo-\(width)x\(height).png")
    }

    @Test func aCardTextFitsItsWordsAtTheAppsSizeWithinTheCard() throws {
        let folder = TemporaryFolder()
        var card = Card()
        let short = try card.add(ElementRequest(kind: "text", value: "Hi", documentName: "card"), resourceFolder: folder.url)
        let long = try card.add(
            ElementRequest(kind: "text", value: "Many happy returns of the day", documentName: "card"),
            resourceFolder: folder.url)
        let hi = try card.frame(of: short.index).size, returns = try card.frame(of: long.index).size
        let measured = try #require(TextMeasure.lineSize(of: "Hi", fontName: "Gill Sans", fontSize: 200))
        #expect(hi.width > measured.width && hi.width < measured.width * 1.5, "room for the word: \(hi) for \(measured)")
        #expect(hi.height >= measured.height - 0.01 && hi.height < 300, "one line at 200 units: \(hi)")
        #expect(returns.width == 1300 && returns.height < hi.height, "a long line is the card's width, shrunk: \(returns)")
    }

    @Test func aPhotoGetsAFrameOfItsProportions() throws {
        let folder = TemporaryFolder()
        var card = Card()
        let wide = try card.add(
            ElementRequest(kind: "image", value: try Self.photo(600, 400, in: folder).path, documentName: "card"),
            resourceFolder: folder.url)
        let size = try card.frame(of: wide.index).size
        #expect(size.width == 800 && abs(size.height - 800 * 400 / 600) < 1e-9, "within the app's 800x800: \(size)")
        var drawing = Drawing(canvasSize: Size(width: 800, height: 600))
        let tall = try drawing.add(
            ElementRequest(kind: "image", value: try Self.photo(100, 400, in: folder).path, documentName: "drawing"),
            resourceFolder: folder.url)
        #expect(try drawing.frame(of: tall.index).size == Size(width: 75, height: 300), "within half the canvas")
    }

    @Test func aSizeGivenInTheRequestWins() throws {
        let folder = TemporaryFolder()
        var style = ElementChanges()
        style[.size] = .size(Size(width: 120, height: 90))
        var card = Card()
        let text = try card.add(
            ElementRequest(kind: "text", value: "Hello", style: style, documentName: "card"), resourceFolder: folder.url)
        #expect(try card.frame(of: text.index).size == Size(width: 120, height: 90))
        var drawing = Drawing()
        let label = try drawing.add(
            ElementRequest(kind: "text", value: "Hello", style: style, documentName: "drawing"), resourceFolder: folder.url)
        #expect(try drawing.frame(of: label.index).size == Size(width: 120, height: 90))
    }
}
