import EaselDocuments
import EaselGeometry

/// How a `PropertyValue` is written in `info --json` and an element description, and read
/// back: numbers, `[x, y]`, `[w, h]`, `"#RRGGBB[AA]"`, names, lengths, a clip's name.
enum PropertyValueCoding {
    static func encode<Key: CodingKey>(
        _ value: PropertyValue, in container: inout KeyedEncodingContainer<Key>, forKey key: Key
    ) throws {
        switch value {
        case .number(let number): try container.encode(number, forKey: key)
        case .integer(let count): try container.encode(count, forKey: key)
        case .point(let point): try container.encode([point.x, point.y], forKey: key)
        case .size(let size): try container.encode([size.width, size.height], forKey: key)
        case .color(let color): try container.encodeIfPresent(color?.hex, forKey: key)
        case .text(let string), .choice(let string): try container.encode(string, forKey: key)
        case .lengths(let lengths): try container.encode(lengths, forKey: key)
        case .clip(let clip): try container.encodeIfPresent(clip.map(ShapeNames.name(of:)), forKey: key)
        }
    }

    /// Reads a value of `type`; a clip named "custom" takes its outline from `customClip`.
    static func decode<Key: CodingKey>(
        _ type: PropertyType, from container: KeyedDecodingContainer<Key>, forKey key: Key, customClip: String?
    ) throws -> PropertyValue {
        func pair() throws -> (Double, Double) {
            let numbers = try container.decode([Double].self, forKey: key)
            guard numbers.count == 2 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected two numbers")
            }
            return (numbers[0], numbers[1])
        }
        func refuse(_ text: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\"\(text)\" is not \(type.expected)")
        }
        switch type {
        case .number: return .number(try container.decode(Double.self, forKey: key))
        case .integer: return .integer(try container.decode(Int.self, forKey: key))
        case .point:
            let (x, y) = try pair()
            return .point(Point(x: x, y: y))
        case .size:
            let (width, height) = try pair()
            return .size(Size(width: width, height: height))
        case .lengths: return .lengths(try container.decode([Double].self, forKey: key))
        case .text: return .text(try container.decode(String.self, forKey: key))
        case .clip:
            let name = try container.decode(String.self, forKey: key)
            if name == "custom", let outline = customClip.flatMap(Path.init(parsing:)) { return .clip(.custom(outline)) }
            guard let value = type.value(fromText: name) else { throw refuse(name) }
            return value
        case .color, .choice:
            let text = try container.decode(String.self, forKey: key)
            guard let value = type.value(fromText: text) else { throw refuse(text) }
            return value
        }
    }
}

extension PropertyType {
    /// True for free text (a string, a font's name), which `info` quotes.
    public var isFreeText: Bool { if case .text = self { true } else { false } }
}
