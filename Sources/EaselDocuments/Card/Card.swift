import EaselSupport
import FoundationEssentials
import EaselGeometry

/// A card of the Cards app: a 1300x2000 canvas with a background colour, image elements
/// and text elements. Drawing order is the app's: every image element, then every text
/// element, each list in its stored order.
public struct Card: Hashable, Sendable {
    /// The card's identity, which also names its file in the app's folder (`appFileName`).
    public var id: UUID
    /// The colour that fills the whole canvas behind every element.
    public var backgroundColor: Color
    /// The pictures, drawn first, in this order (later ones on top).
    public var imageElements: [ImageElement]
    /// The texts, drawn over every image element, in this order (later ones on top).
    public var textElements: [TextElement]

    /// The card canvas in units; exporting at scale s gives (1300 s) x (2000 s) pixels.
    public static let canvasSize = Size(width: 1300, height: 2000)
    /// The app's default background (SwiftUI's `.yellow`), also used for legacy cards.
    public static let defaultBackground = Color(red: 1, green: 0.8, blue: 0)
    /// The colours the app gives a new card, one at random (its `Color.random()`): the
    /// palette's random1 to random8.
    public static let newCardBackgrounds = (1...8).compactMap { Color.cardsPalette["random\($0)"] }

    /// A card; by default a new random id, the app's yellow background and no elements.
    public init(
        id: UUID = UUID(), backgroundColor: Color = Card.defaultBackground,
        imageElements: [ImageElement] = [], textElements: [TextElement] = []
    ) {
        self.id = id
        self.backgroundColor = backgroundColor
        self.imageElements = imageElements
        self.textElements = textElements
    }

    /// The elements in the order they are drawn (and listed by `easel info`).
    public var elementsInDrawingOrder: [CardElement] {
        imageElements.map(CardElement.image) + textElements.map(CardElement.text)
    }

    /// The file name the app gives this card: `<ID>.rwcard` with the upper-case UUID.
    public var appFileName: String { id.uuidString.uppercased() + ".rwcard" }
}

/// Where an element sits on the card: a frame of `size` whose centre is at the card's
/// centre plus `offset`, rotated clockwise by `rotationDegrees` about its own centre.
public struct ElementTransform: Hashable, Sendable {
    /// The frame's width and height in card units, before rotation; no area means not drawn.
    public var size: Size
    /// The clockwise rotation about the frame's centre, in degrees.
    public var rotationDegrees: Double
    /// How far the frame's centre is from the card's centre, in card units (y grows down).
    public var offset: Point

    /// What the app gives a new element: 800x800 at the centre, unrotated.
    public static let appDefault = ElementTransform(size: Size(width: 800, height: 800), rotationDegrees: 0, offset: .zero)

    /// A frame of `size`; unrotated and centred on the card unless told otherwise.
    public init(size: Size, rotationDegrees: Double = 0, offset: Point = .zero) {
        self.size = size
        self.rotationDegrees = rotationDegrees
        self.offset = offset
    }

    /// The frame's centre in card coordinates.
    public var center: Point {
        Point(x: Card.canvasSize.width / 2 + offset.x, y: Card.canvasSize.height / 2 + offset.y)
    }

    /// Maps the frame's own space (origin at the frame's top-left, unrotated) to card
    /// coordinates.
    public var frameToCard: Transform2D {
        Transform2D.translation(x: -size.width / 2, y: -size.height / 2)
            .concatenating(.rotation(degrees: rotationDegrees))
            .concatenating(.translation(x: center.x, y: center.y))
    }
}

/// A picture on a card: an image file from the card's folder, aspect-fitted and centred
/// in its frame, optionally clipped to a shape.
public struct ImageElement: Hashable, Sendable {
    /// Where the image's frame sits on the card.
    public var transform: ElementTransform
    /// The image file's name in the card's folder (the app's upper-case UUID, no
    /// extension), or nil for no image.
    public var imageFilename: String?
    /// The shape the image is clipped to, laid out in the fitted image's rectangle; nil for
    /// no clipping.
    public var clip: ClipShape?

    /// An image element; by default in the app's 800x800 frame at the card's centre, unclipped.
    public init(transform: ElementTransform = .appDefault, imageFilename: String?, clip: ClipShape? = nil) {
        self.transform = transform
        self.imageFilename = imageFilename
        self.clip = clip
    }
}

/// A line of text on a card, centred in its frame and sized as the app does (200 units,
/// shrunk until it fits the frame).
public struct TextElement: Hashable, Sendable {
    /// Where the text's frame sits on the card.
    public var transform: ElementTransform
    /// The text, drawn as one line; an empty text draws nothing.
    public var text: String
    /// The colour the text is drawn in.
    public var textColor: Color
    /// The app's (Apple) font name, for example "Gill Sans" or "ChalkboardSE-Regular".
    public var textFont: String

    /// The font a new text element gets in the app's current edition (edition 2). Edition 1
    /// gave "San Fransisco" (sic); both are in the app's picker and in Easel's font map.
    public static let appDefaultFont = "Gill Sans"

    /// A text element; by default black, in the app's default frame and its default font.
    public init(
        transform: ElementTransform = .appDefault, text: String, textColor: Color = .black,
        textFont: String = TextElement.appDefaultFont
    ) {
        self.transform = transform
        self.text = text
        self.textColor = textColor
        self.textFont = textFont
    }
}

/// One element of a card, in drawing order.
public enum CardElement: Hashable, Sendable {
    case image(ImageElement)
    case text(TextElement)

    /// Where the element's frame sits on the card, whichever kind it is.
    public var transform: ElementTransform {
        switch self {
        case .image(let element): return element.transform
        case .text(let element): return element.transform
        }
    }
}
