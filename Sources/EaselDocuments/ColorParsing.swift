import EaselGeometry
import EaselSupport

/// Why a text is not a colour: thrown by `Color(hex:)` and `Color(parsing:)`, so a
/// mistyped colour is an error with its reason, never a silent `nil` where an optional fill
/// would be accepted.
public struct ColorParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What a colour looks like, for the message.
    public var expected: String

    /// An error for `text`, which is not what `expected` describes.
    public init(text: String, expected: String) {
        (self.text, self.expected) = (text, expected)
    }

    /// `"#12345" is not a colour: expected …`.
    public var description: String { "\"\(text)\" is not a colour: expected \(expected)" }
}

extension Color {
    static let hexForms = "#RRGGBB or #RRGGBBAA (6 or 8 hex digits)"
    static let parsingForms =
        "#RRGGBB, #RRGGBBAA, a CSS colour name, r,g,b or r,g,b,a (0 to 1), or a Cards palette name (random1…random8, appColor1…appColor7)"

    /// `#RRGGBB` or `#RRGGBBAA` (hex digits in either case; the `#` is optional).
    ///
    /// ```swift
    /// let coral = try Color(hex: "#FF595E")
    /// let teal = Color(rgb: 0x2A9D8F)
    /// ```
    /// - Throws: `ColorParseError` naming the text when it is not 6 or 8 hex digits.
    public init(hex: String) throws(ColorParseError) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16)
        else { throw ColorParseError(text: hex, expected: Color.hexForms) }
        self.init(rgba: digits.count == 8 ? value : (value << 8 | 0xFF))
    }

    /// An opaque colour from a `0xRRGGBB` literal: `Color(rgb: 0xFF595E)`. It cannot fail;
    /// a value above `0xFFFFFF` is a programming error and traps.
    public init(rgb: UInt32, alpha: Double = 1) {
        precondition(rgb <= 0xFF_FFFF, "Color(rgb:) takes 0xRRGGBB; use Color(rgba:) for 0xRRGGBBAA")
        self.init(rgba: rgb << 8 | 0xFF)
        self.alpha = alpha
    }

    /// A colour from a `0xRRGGBBAA` literal: `Color(rgba: 0xFF595E80)`.
    public init(rgba: UInt32) {
        func component(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
        self.init(red: component(24), green: component(16), blue: component(8), alpha: component(0))
    }
}
