import EaselDocuments
import EaselGeometry
import EaselSupport

/// An edit's new element checked as the file's reader will check it. An edit within a
/// verb's own limits can still store a value past the format's: a card's offset is the
/// position less the card's centre, a line's centre lies halfway between its ends, a
/// path's points are its own. The element is written and read back alone, in a document
/// of its own, so an edit costs its element's size, not the whole document's (a session of
/// thousands of piped commands stays linear); saving checks the whole document once more.
enum ElementFormatCheck {
    /// Throws when `graphic`, on a canvas of `canvas`, would not read back.
    static func check(_ graphic: Graphic, canvas: Size) throws(EditError) {
        var warnings: [DocumentWarning] = []
        do {
            let alone = DrawingEncoder.encode(Drawing(canvasSize: canvas, background: nil, graphics: [graphic]))
            _ = try Drawing(decoding: alone, file: "", warnings: &warnings)
        } catch {
            throw refusal(error)
        }
    }

    /// Throws when a card element would not read back.
    static func check(_ element: CardElement) throws(EditError) {
        let card: Card
        switch element {
        case .image(let image): card = Card(imageElements: [image])
        case .text(let text): card = Card(textElements: [text])
        }
        var warnings: [DocumentWarning] = []
        do {
            _ = try Card(decoding: try CardEncoder.encode(card, file: ""), file: "", warnings: &warnings)
        } catch {
            throw refusal(error)
        }
    }

    /// The refusal, naming the value by its place in the element (`transform.offset`), not
    /// by its key path in the one-element document it was checked in.
    private static func refusal(_ error: DocumentError) -> EditError {
        let place = error.keyPath.split(separator: ".", maxSplits: 1).dropFirst().first.map { "\($0): " } ?? ""
        let problem: String
        switch error.kind {
        case .invalidValue(let reason), .limitExceeded(let reason), .notRepresentable(let reason), .io(let reason):
            problem = reason
        case .typeMismatch(let expected, let found): problem = "expected \(expected), found \(found)"
        default: problem = error.description
        }
        return EditError("this edit would store a value Easel cannot open again (\(place)\(problem)); it was not made")
    }
}
