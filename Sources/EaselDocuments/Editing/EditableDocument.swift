import Foundation
import EaselGeometry

/// A document edited element by element: a card or a drawing. Elements are addressed by
/// their index in drawing order (for a card: its images, then its texts; for a drawing:
/// its top-level graphics).
public enum EditableDocument: Hashable, Sendable {
    case card(Card)
    case drawing(Drawing)

    public init?(_ document: any FileDocument) {
        if let card = document as? Card { self = .card(card) }
        else if let drawing = document as? Drawing { self = .drawing(drawing) }
        else { return nil }
    }

    public var fileDocument: any FileDocument {
        switch self {
        case .card(let card): return card
        case .drawing(let drawing): return drawing
        }
    }

    public var kindName: String {
        switch self {
        case .card: return "card"
        case .drawing: return "drawing"
        }
    }

    public var canvasSize: Size {
        switch self {
        case .card: return Card.canvasSize
        case .drawing(let drawing): return drawing.canvasSize
        }
    }

    public var background: Color? {
        switch self {
        case .card(let card): return card.backgroundColor
        case .drawing(let drawing): return drawing.background
        }
    }

    public var elementCount: Int {
        switch self {
        case .card(let card): return card.imageElements.count + card.textElements.count
        case .drawing(let drawing): return drawing.graphics.count
        }
    }

    /// The bytes the document is saved as (its JSON), used as undo mementos.
    public func encoded(file: String) throws(DocumentError) -> [UInt8] {
        switch self {
        case .card(let card): return try CardEncoder.encode(card, file: file)
        case .drawing(let drawing): return DrawingEncoder.encode(drawing)
        }
    }

    /// The document saved as `encoded` produced it.
    public static func decode(_ bytes: [UInt8], like current: EditableDocument, file: String) throws(DocumentError) -> EditableDocument {
        var warnings: [DocumentWarning] = []
        switch current {
        case .card: return .card(try CardDecoder.decode(bytes, file: file, warnings: &warnings))
        case .drawing: return .drawing(try DrawingDecoder.decode(bytes, file: file, warnings: &warnings))
        }
    }
}
