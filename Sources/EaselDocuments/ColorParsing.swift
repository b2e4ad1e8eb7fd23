import EaselGeometry
import EaselSupport
extension Color {
    /// `#RRGGBB` or `#RRGGBBAA` (hex digits in either case; the `#` is optional).
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let hasAlpha = digits.count == 8
        let rgba = hasAlpha ? value : (value << 8 | 0xFF)
        func component(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
        self.init(red: component(24), green: component(16), blue: component(8), alpha: component(0))
    }
}
