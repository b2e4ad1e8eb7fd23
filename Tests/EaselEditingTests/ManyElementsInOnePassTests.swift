import EaselDocuments
import EaselGeometry
import Testing

@testable import EaselEditing

/// Removing or reordering many elements at once is one pass over a document's elements
/// (a request may name 1,000 of a drawing's 100,000 graphics: one at a time, each shifted
/// the rest), and gives exactly what doing it one element at a time gives.
@Suite("Many elements removed or reordered in one pass")
struct ManyElementsInOnePassTests {
    /// A drawing of `count` rectangles named by their first index.
    static func drawing(_ count: Int) -> Drawing {
        var drawing = Drawing(canvasSize: Size(width: 400, height: 300))
        for index in 0..<count {
            drawing.graphics.append(
                Graphic(
                    kind: .rectangle, transform: GraphicTransform(center: Point(x: 10, y: 10), size: Size(width: 4, height: 2)),
                    fill: .black, name: "\(index)"))
        }
        return drawing
    }

    /// A card of `images` images and `texts` texts, each told apart by its frame's width.
    static func card(images: Int, texts: Int) -> Card {
        var card = Card()
        card.imageElements = (0..<images).map {
            ImageElement(transform: ElementTransform(size: Size(width: Double(1 + $0), height: 1)), imageFilename: nil)
        }
        card.textElements = (0..<texts).map {
            TextElement(transform: ElementTransform(size: Size(width: Double(100 + $0), height: 1)), text: "t\($0)")
        }
        return card
    }

    /// Every selection of the elements of small documents, every direction: the same
    /// documents and the same new indices as one element at a time.
    @Test func everySelectionGivesWhatOneAtATimeGives() throws {
        var checked = 0
        for count in 1...6 {
            for mask in 1..<(1 << count) {
                let indices = (0..<count).filter { mask & (1 << $0) != 0 }
                for direction in OrderDirection.allCases {
                    var bulk = Self.drawing(count), single = bulk
                    #expect(try bulk.reorder(indices.reversed(), direction) == single.reorderOneByOne(indices, direction))
                    #expect(bulk == single, "\(indices) \(direction)")
                    let images = count / 2
                    var card = Self.card(images: images, texts: count - images), cardSingle = card
                    #expect(try card.reorder(indices, direction) == cardSingle.reorderOneByOne(indices, direction))
                    #expect(card == cardSingle, "card: \(indices) \(direction)")
                    checked += 1
                }
                var bulk = Self.drawing(count), single = bulk
                try bulk.remove(indices)
                try single.removeOneByOne(indices)
                #expect(bulk == single)
                var card = Self.card(images: count / 2, texts: count - count / 2), cardSingle = card
                try card.remove(indices.reversed())
                try cardSingle.removeOneByOne(indices)
                #expect(card == cardSingle)
            }
        }
        #expect(checked == 4 * 120)
    }

    @Test func aThousandOfAHundredThousandGraphicsAreRemovedAndReordered() throws {
        var drawing = Self.drawing(100_000)
        let low = Array(0..<1_000)
        let moved = try drawing.reorder(low, .front)
        #expect(moved == Array(99_000..<100_000))
        #expect(drawing.graphics.first?.name == "1000" && drawing.graphics.last?.name == "999")
        try drawing.remove(Array(99_000..<100_000))
        #expect(drawing.graphics.count == 99_000 && drawing.graphics.first?.name == "1000")
        let only = try drawing.keepingOnly([5, 7])
        #expect(only.graphics.compactMap(\.name) == ["1005", "1007"])
    }
}
