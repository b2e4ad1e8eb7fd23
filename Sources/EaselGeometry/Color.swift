/// A colour as extended-sRGB components and alpha. Components may lie slightly outside
/// 0...1 (the Cards app writes values such as -0.003); they are kept as read and clamped
/// only when drawn.
public struct Color: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The red component, nominally 0...1 (extended sRGB).
    public var red: Double
    /// The green component, nominally 0...1 (extended sRGB).
    public var green: Double
    /// The blue component, nominally 0...1 (extended sRGB).
    public var blue: Double
    /// The opacity: 0 is fully transparent, 1 fully opaque.
    public var alpha: Double

    /// A colour from components as given (not clamped); opaque unless `alpha` says otherwise.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent (black with alpha 0): draws nothing.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// The four components in the order red, green, blue, alpha, as stored in documents.
    public var components: [Double] { [red, green, blue, alpha] }
    /// True when no component is NaN or infinite; only such colours can be drawn or saved.
    public var isFinite: Bool { components.allSatisfy(\.isFinite) }

    /// The colour with every component clamped to 0...1, as it is drawn.
    public var clamped: Color {
        func c(_ v: Double) -> Double { min(1, max(0, v)) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    /// `#RRGGBB` or `#RRGGBBAA` of the clamped colour.
    public var hex: String {
        let c = clamped
        let bytes = [c.red, c.green, c.blue, c.alpha].map { Int(saturating: ($0 * 255).rounded()) }
        let digits = (bytes[3] == 255 ? bytes.prefix(3) : bytes[...]).map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + digits.joined()
    }

    /// The colour as `#RRGGBB` or `#RRGGBBAA` (see `hex`).
    public var description: String { hex }
}
