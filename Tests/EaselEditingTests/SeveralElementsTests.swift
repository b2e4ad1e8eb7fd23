import EaselDocuments
import EaselEditing
import EaselGeometry
import Foundation
import Testing

/// What the editor's multiple selection does, in the library: aligning on edges and centre
/// lines by the bounds of rotated frames, spacing evenly, moving several in the drawing
/// order together, removing several, and the layers of a live preview.
@Suite("Editing several elements at once")
struct SeveralElementsTests {
    /// Five rectangles named a…e in drawing order, 40x20, the third turned by 90°.
    static func drawing() -> Drawing {
        var drawing = Drawing(canvasSize: Size(width: 400, height: 300))
        for (i, name) in ["a", "b", "c", "d", "e"].enumerated() {
            drawing.graphics.append(
                Graphic(
                    kind: .rectangle,
                    transform: GraphicTransform(
                        center: Point(x: 50 + Double(i) * 70 + Double(i * i) * 3, y: 60 + Double(i) * 30),
                        size: Size(width: 40, height: 20), rotationDegrees: i == 2 ? 90 : 0),
                    fill: .black, name: name))
        }
        return drawing
    }

    static func names(_ drawing: Drawing) -> String { drawing.graphics.compactMap(\.name).joined() }

    @Test func alignLinesUpTheBoundsOfRotatedFramesOnEachEdgeAndCentre() throws {
        for edge in AlignEdge.allCases {
            var drawing = Self.drawing()
            let before = try [0, 2, 4].map { try drawing.bounds(of: $0) }
            try drawing.align([4, 0, 2], edge)
            let after = try [0, 2, 4].map { try drawing.bounds(of: $0) }
            let value: (Rect) -> Double
            switch edge {
            case .left: value = \.minX
            case .center: value = \.midX
            case .right: value = \.maxX
            case .top: value = \.minY
            case .middle: value = \.midY
            case .bottom: value = \.maxY
            }
            let expected: Double
            let union = before.dropFirst().reduce(before[0]) { $0.union($1) }
            expected = value(union)
            for box in after { #expect(abs(value(box) - expected) < 1e-9, "\(edge): \(after)") }
            // Only the one axis moves.
            let horizontal = [.left, .center, .right].contains(edge)
            for (old, new) in zip(before, after) {
                #expect(horizontal ? old.minY == new.minY : old.minX == new.minX, "\(edge) keeps the other axis")
            }
            #expect(try drawing.bounds(of: 2).width == 20, "the turned frame is measured turned")
        }
    }

    @Test func oneElementAlignsWithTheCanvas() throws {
        var drawing = Self.drawing()
        try drawing.align([1], .right)
        #expect(try drawing.bounds(of: 1).maxX == 400)
        try drawing.align([1], .middle)
        #expect(try drawing.bounds(of: 1).midY == 150)
    }

    @Test func distributeMakesTheGapsEqualAndKeepsTheEnds() throws {
        var drawing = Self.drawing()
        let first = try drawing.bounds(of: 0), last = try drawing.bounds(of: 4)
        try drawing.distribute([0, 1, 2, 3, 4], .horizontal)
        let boxes = try (0..<5).map { try drawing.bounds(of: $0) }
        let gaps = zip(boxes, boxes.dropFirst()).map { $1.minX - $0.maxX }
        for gap in gaps { #expect(abs(gap - gaps[0]) < 1e-9, "equal gaps: \(gaps)") }
        #expect(boxes[0] == first && boxes[4] == last, "the outermost stay")
        #expect(throws: EditError("distribute spaces three or more elements; 2 given", isInvalidRequest: true)) {
            try drawing.distribute([0, 1], .vertical)
        }
    }

    @Test func severalMoveInTheDrawingOrderTogetherKeepingTheirOrder() throws {
        let cases: [(OrderDirection, String, [Int])] = [
            (.front, "acebd", [3, 4]), (.back, "bdace", [0, 1]), (.forward, "acbed", [2, 4]), (.backward, "badce", [0, 2]),
        ]
        for (direction, expected, places) in cases {
            var drawing = Self.drawing()
            let moved = try drawing.reorder([3, 1], direction)
            #expect(Self.names(drawing) == expected, "\(direction)")
            #expect(moved == places, "\(direction): where b and d went")
        }
        // Neighbours that both move do not leapfrog; the topmost cannot go further.
        var drawing = Self.drawing()
        try drawing.reorder([3, 4], .forward)
        #expect(Self.names(drawing) == "abcde")
    }

    @Test func aCardKeepsItsImagesUnderItsTexts() throws {
        var card = Card()
        for _ in 0..<3 { try card.add(ImageElement(imageFilename: nil)) }
        try card.add(TextElement(text: "one"))
        try card.add(TextElement(text: "two"))
        let places = try card.reorder([0, 3], .front)
        #expect(places == [2, 4], "the image goes to the top of the images, the text to the top of everything")
        #expect(card.textElements.map(\.text) == ["two", "one"])
    }

    @Test func removeTakesEachOnceInAnyOrderAndRefusesAnIndexOutOfRange() throws {
        var drawing = Self.drawing()
        try drawing.remove([3, 0, 3])
        #expect(Self.names(drawing) == "bce")
        #expect(throws: EditError.indexOutOfRange(7, count: 3, kind: "drawing")) { try drawing.remove([1, 7]) }
        #expect(Self.names(drawing) == "bce", "nothing is removed when one index is wrong")
        #expect(throws: EditError("no elements given", isInvalidRequest: true)) { try drawing.align([], .left) }
    }

    @Test func aPreviewsLayersAreTheElementsAloneAndTheRestWithoutThem() throws {
        let drawing = Self.drawing()
        #expect(Self.names(try drawing.keepingOnly([3, 1])) == "bd")
        #expect(Self.names(try drawing.removing([3, 1])) == "ace")
        #expect(throws: EditError.indexOutOfRange(5, count: 5, kind: "drawing")) { try drawing.keepingOnly([5]) }
    }
}
