/// A colour as extended-sRGB components and alpha. Components may lie slightly outside
/// 0...1 (the Cards app writes values such as -0.003); they are kept as read and clamped
/// only when drawn.
public struct Color: Codable, Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    public var components: [Double] { [red, green, blue, alpha] }
    public var isFinite: Bool { components.allSatisfy(\.isFinite) }

    /// The colour with every component clamped to 0...1, as it is drawn.
    public var clamped: Color {
        func c(_ v: Double) -> Double { min(1, max(0, v)) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    /// `#RRGGBB` or `#RRGGBBAA` of the clamped colour.
    public var hex: String {
        let c = clamped
        let bytes = [c.red, c.green, c.blue, c.alpha].map { Int(($0 * 255).rounded()) }
        let digits = (bytes[3] == 255 ? bytes.prefix(3) : bytes[...]).map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + digits.joined()
    }

    public var description: String { hex }
}
