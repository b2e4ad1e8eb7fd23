import EaselDocuments
import EaselGeometry
import EaselSupport

/// A value given for, or read from, one element property (`ElementProperty`).
public enum PropertyValue: Hashable, Sendable {
    /// A number, such as a rotation in degrees or a width in canvas units.
    case number(Double)
    /// A whole number, such as a polygon's sides.
    case integer(Int)
    /// A point or a displacement in canvas units (`at`, a line's ends, a shadow's offset).
    case point(Point)
    /// A width and a height in canvas units.
    case size(Size)
    /// A colour; nil is "none" (no fill, no stroke, no shadow).
    case color(Color?)
    /// A string, such as a text's or a font's name.
    case text(String)
    /// One of a property's named options (`round`, `left`).
    case choice(String)
    /// Alternating dash and gap lengths; empty for a solid line.
    case lengths([Double])
    /// A clip shape; nil is "none".
    case clip(ClipShape?)

    /// True for a value that takes something away (`none`): such values are applied after
    /// the others, so that `--stroke none` wins over `--stroke-width 3` in the same edit.
    public var removes: Bool {
        switch self {
        case .color(nil), .clip(nil): return true
        default: return false
        }
    }

    /// The value as `easel info` prints it and as its option takes it (`400,300`, `200x100`,
    /// `#FF6347`, `none`).
    public var text: String {
        switch self {
        case .number(let value): return formatNumber(value)
        case .integer(let value): return String(value)
        case .point(let point): return "\(formatNumber(point.x)),\(formatNumber(point.y))"
        case .size(let size): return "\(formatNumber(size.width))x\(formatNumber(size.height))"
        case .color(let color): return color?.hex ?? "none"
        case .text(let string): return string
        case .choice(let name): return name
        case .lengths(let lengths): return lengths.isEmpty ? "none" : lengths.map(formatNumber).joined(separator: ",")
        case .clip(let clip): return clip.map(ShapeNames.name(of:)) ?? "none"
        }
    }

    /// The value as `info --json` and `GET /api/schema` give it (numbers, `[x, y]`,
    /// `"#RRGGBB[AA]"`, names); nil for "none", which the JSON leaves out.
    package var json: JSONValue? {
        switch self {
        case .number(let value): return .number(value)
        case .integer(let value): return .number(Double(value))
        case .point(let point): return .array([.number(point.x), .number(point.y)])
        case .size(let size): return .array([.number(size.width), .number(size.height)])
        case .color(let color): return color.map { .string($0.hex) }
        case .text(let string), .choice(let string): return .string(string)
        case .lengths(let lengths): return .array(lengths.map(JSONValue.number))
        case .clip(let clip): return clip.map { .string(ShapeNames.name(of: $0)) }
        }
    }

    /// The number, when this is one.
    public var number: Double? {
        switch self {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
}
