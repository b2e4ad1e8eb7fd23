import EaselDocuments
import EaselGeometry
import EaselSupport

/// What kind of value an element property takes, with its bounds: how a value is read from
/// an option's text (`easel set --at 400,300`) and from an edit request's JSON, and checked,
/// with one set of messages for both.
public enum PropertyType: Sendable {
    /// A number within the range.
    case number(ClosedRange<Double>)
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// Two coordinates, `X,Y` (JSON `[x, y]`), each within the range.
    case point(ClosedRange<Double>)
    /// A width and height, `WxH` (JSON `[w, h]`), each within the range.
    case size(ClosedRange<Double>)
    /// A colour (`#RRGGBB[AA]`, a CSS name, `r,g,b[,a]`, an app palette name); `none` too
    /// when `allowsNone`.
    case color(allowsNone: Bool)
    /// A string within `TextLimits`.
    case text
    /// One of the names.
    case choice([String])
    /// Up to `maxCount` lengths within the range, `6,3` (JSON `[6, 3]`), or `none`.
    case lengths(ClosedRange<Double>, maxCount: Int)
    /// A clip-library shape by its `ShapeNames` name, or `none`.
    case clip

    /// How the value is written on a command line, as help shows it (`<x,y>`).
    public var valueName: String {
        switch self {
        case .number: return "number"
        case .integer: return "count"
        case .point: return "x,y"
        case .size: return "wxh"
        case .color: return "color"
        case .text: return "text"
        case .choice: return "name"
        case .lengths: return "lengths"
        case .clip: return "shape"
        }
    }

    /// What a value must be, as errors and help say it.
    public var expected: String {
        switch self {
        case .number(let range): return "a number from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))"
        case .integer(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .point: return "X,Y in canvas units, e.g. 400,300"
        case .size: return "WxH in canvas units, e.g. 200x100 (two numbers of zero or more)"
        case .color(let allowsNone):
            return
                "a colour: #RRGGBB[AA], a CSS name such as tomato, r,g,b[,a] from 0 to 1, random1-8 or appColor1-7\(allowsNone ? ", or none" : "")"
        case .text: return "a string"
        case .choice(let names): return Self.list(names)
        case .lengths: return "dash lengths ON,OFF[,ON,OFF…] or none, e.g. 6,3 (numbers of zero or more)"
        case .clip: return "a clip shape: \(ShapeNames.clipNames.joined(separator: ", ")), or none"
        }
    }

    /// The names a value may be, for completion: a choice's, a clip's, colour names.
    public var names: [String] {
        switch self {
        case .choice(let names): return names
        case .clip: return ShapeNames.clipNames + ["none"]
        case .color(let allowsNone):
            return (Array(Color.cardsPalette.keys) + Array(Color.cssNames.keys)).sorted() + (allowsNone ? ["none"] : [])
        default: return []
        }
    }

    /// `a, b or c`.
    package static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    // MARK: Reading

    /// Reads `text` as an option gives it; nil when it is not such a value (see `expected`).
    /// Ranges are checked by `check`.
    public func value(fromText text: String) -> PropertyValue? {
        let trimmed = text.trimmingWhitespace
        let isNone = trimmed.lowercased() == "none"
        switch self {
        case .number: return Double(trimmed).map(PropertyValue.number)
        case .integer: return Int(trimmed).map(PropertyValue.integer)
        case .point:
            guard let (x, y) = Self.pair(trimmed, separators: [",", " "]) else { return nil }
            return .point(Point(x: x, y: y))
        case .size:
            guard let (width, height) = Self.pair(trimmed.lowercased(), separators: ["x", ","]) else { return nil }
            return .size(Size(width: width, height: height))
        case .color(let allowsNone):
            if isNone { return allowsNone ? .color(nil) : nil }
            return (try? Color(parsing: trimmed)).map { .color($0) }
        case .text: return .text(text)
        case .choice(let names): return names.contains(trimmed.lowercased()) ? .choice(trimmed.lowercased()) : nil
        case .lengths:
            if isNone { return .lengths([]) }
            let parts = trimmed.split(separator: ",").map { Double($0.trimmingWhitespace) }
            guard !parts.isEmpty, !parts.contains(nil) else { return nil }
            return .lengths(parts.map { $0! })
        case .clip:
            if isNone { return .clip(nil) }
            return ShapeNames.libraryShape(named: trimmed).map { .clip(.library($0)) }
        }
    }

    private static func pair(_ text: String, separators: Set<Character>) -> (Double, Double)? {
        let parts = text.split(whereSeparator: { separators.contains($0) }).map { Double($0) }
        guard parts.count == 2, let first = parts[0], let second = parts[1] else { return nil }
        return (first, second)
    }

    /// Reads `node` as an edit request gives it (`[x, y]`, a colour's name or `null` for
    /// none, a number); throws naming the node's key path.
    package func value(fromJSON node: JSONNode) throws(DocumentError) -> PropertyValue {
        switch self {
        case .number: return .number(try node.double())
        case .integer: return .integer(try node.int())
        case .point:
            let (x, y) = try node.pair(meaning: "x, y")
            return .point(Point(x: x, y: y))
        case .size:
            let (width, height) = try node.pair(meaning: "width, height")
            return .size(Size(width: width, height: height))
        case .color(let allowsNone) where node.isNull:
            guard allowsNone else { throw node.invalid("expected \(expected)") }
            return .color(nil)
        case .clip where node.isNull: return .clip(nil)
        case .lengths where node.isNull: return .lengths([])
        case .lengths(_, let maxCount):
            if let text = try? node.string() {
                guard let value = value(fromText: text) else { throw node.invalid("expected \(expected)") }
                return value
            }
            return .lengths(
                try node.array(maxCount: maxCount, of: "dash lengths").map { (item) throws(DocumentError) in try item.double() })
        case .text: return .text(try node.string())
        case .color, .choice, .clip:
            let text = try node.string()
            guard let value = value(fromText: text) else { throw node.invalid("\"\(text)\" is not \(expected)") }
            return value
        }
    }

    // MARK: Checking

    /// Why `value` is out of bounds for this type, as a message about `label` ("the
    /// opacity must be from 0 to 1, not 2"); nil when it is within them.
    public func problem(with value: PropertyValue, label: String) -> String? {
        func outside(_ number: Double, _ range: ClosedRange<Double>, _ what: String) -> String? {
            guard !(number.isFinite && range.contains(number)) else { return nil }
            return
                "\(what) must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), not \(formatNumber(number))"
        }
        switch (self, value) {
        case (.number(let range), .number(let number)): return outside(number, range, label)
        case (.integer(let range), .integer(let count)):
            return range.contains(count) ? nil : "\(label) must be from \(range.lowerBound) to \(range.upperBound), not \(count)"
        case (.point(let range), .point(let point)):
            return outside(point.x, range, "\(label)'s x") ?? outside(point.y, range, "\(label)'s y")
        case (.size(let range), .size(let size)):
            return outside(size.width, range, "\(label)'s width") ?? outside(size.height, range, "\(label)'s height")
        case (.color(let allowsNone), .color(let color)):
            guard let color else { return allowsNone ? nil : "\(label) cannot be none" }
            return color.isFinite ? nil : "colour components must be finite numbers"
        case (.text, .text(let string)): return TextLimits.problem(with: string)
        case (.choice(let names), .choice(let name)):
            return names.contains(name) ? nil : "\(label) must be \(expected), not \"\(name)\""
        case (.lengths(let range, let maxCount), .lengths(let lengths)):
            if lengths.count > maxCount { return "\(label) has \(lengths.count) lengths, over the limit of \(maxCount)" }
            if let bad = lengths.lazy.compactMap({ outside($0, range, "a dash length") }).first { return bad }
            if !lengths.isEmpty, lengths.allSatisfy({ $0 == 0 }) { return "a dash pattern cannot be all zeros" }
            return nil
        case (.clip, .clip): return nil
        default: return "\(label) must be \(expected)"
        }
    }
}
