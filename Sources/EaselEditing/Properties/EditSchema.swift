import EaselDocuments
import EaselGeometry

/// The property table as data, for clients that build their controls from it (the
/// browser's inspector; `GET /api/schema`): each property's key, option, label, help,
/// value type with its bounds, and the card and drawing element kinds that have it; and
/// the names and palettes the values are chosen from.
public struct EditSchema: Encodable, Sendable {
    /// One property of `ElementProperty.all`.
    public struct Property: Encodable, Sendable {
        /// The key edit requests and element descriptions use.
        public var key: String
        /// Other keys accepted for it.
        public var aliases: [String]
        /// The command-line option.
        public var flag: String
        /// What it is, in words ("stroke width").
        public var label: String
        /// One line of help.
        public var help: String
        /// The inspector's group ("frame", "style", "text", "shape", "shadow"...).
        public var section: String
        /// The value's type: number, integer, point, size, color, text, choice, lengths or clip.
        public var type: String
        /// The smallest and largest value of a number, or of each of a point's or a size's two.
        public var min: Double?
        /// See `min`.
        public var max: Double?
        /// The names a choice or a clip takes.
        public var options: [String]?
        /// Whether a colour may be `none` (null in requests).
        public var allowsNone: Bool?
        /// Values to suggest beside free text.
        public var suggestions: [String]?
        /// The card element kinds that have it ("image", "text").
        public var card: [String]
        /// The drawing graphic kinds that have it (`ShapeNames` names, and "group").
        public var drawing: [String]
    }

    /// Every property, in the table's order.
    public var properties: [Property]
    /// The palettes of the Cards app by name: `cardBackgrounds` (random1-8) and
    /// `textColors` (appColor1-7), each name to `#RRGGBB`.
    public var palettes: [String: [String: String]]

    /// The schema of `ElementProperty.all`.
    public init() {
        let drawingKinds = (ShapeNames.drawingKindNames + ["group"]).compactMap { name in
            ElementFactory.defaultKind(named: name).map {
                (name, Graphic(kind: $0, transform: GraphicTransform(center: .zero, size: Size(width: 1, height: 1))))
            }
        }
        let cardKinds: [(String, CardElement)] = [
            ("image", .image(ImageElement(imageFilename: nil))), ("text", .text(TextElement(text: "", textColor: .black))),
        ]
        properties = ElementProperty.all.map { property in
            var entry = Property(
                key: property.key, aliases: property.aliases, flag: property.flag, label: property.label, help: property.help,
                section: property.section, type: "", card: cardKinds.filter { property.applies(to: $0.1) }.map(\.0),
                drawing: drawingKinds.filter { property.applies(to: $0.1) }.map(\.0))
            if !property.suggestions.isEmpty { entry.suggestions = property.suggestions }
            switch property.type {
            case .number(let range), .point(let range), .size(let range), .lengths(let range, _):
                (entry.min, entry.max) = (range.lowerBound, range.upperBound)
            case .integer(let range): (entry.min, entry.max) = (Double(range.lowerBound), Double(range.upperBound))
            case .color(let allowsNone): entry.allowsNone = allowsNone
            case .choice(let names): entry.options = names
            case .clip: entry.options = property.type.names
            case .text: break
            }
            entry.type = Self.typeName(property.type)
            return entry
        }
        // By the names the app's assets have (appColor1), which colours are parsed by.
        func palette(_ prefix: String, _ shown: String) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: Color.cardsPalette.filter { $0.key.hasPrefix(prefix) }.map {
                    (shown + $0.key.dropFirst(prefix.count), String($0.value.hex.prefix(7)))
                })
        }
        palettes = ["cardBackgrounds": palette("random", "random"), "textColors": palette("appcolor", "appColor")]
    }

    private static func typeName(_ type: PropertyType) -> String {
        switch type {
        case .number: return "number"
        case .integer: return "integer"
        case .point: return "point"
        case .size: return "size"
        case .color: return "color"
        case .text: return "text"
        case .choice: return "choice"
        case .lengths: return "lengths"
        case .clip: return "clip"
        }
    }
}
