import EaselSupport

/// Bounds on one text, shared by cards and drawings: characters as the user sees them,
/// code points in all, and code points in one character (a "character" of 100,000
/// combining marks is not writing, and shaping it costs without bound).
public enum TextLimits {
    /// The most characters (grapheme clusters) in one text.
    public static let maxCharacters = 10_000
    /// The most Unicode code points in one text.
    public static let maxCodePoints = 20_000
    /// The most code points in one character (an emoji ZWJ family has 7 to 11).
    public static let maxCodePointsPerCharacter = 32

    /// Why `text` is over a bound, or nil when it is within all three.
    public static func problem(with text: String) -> String? {
        let codePoints = text.unicodeScalars.count
        if codePoints > maxCodePoints {
            return "a text of \(codePoints) code points, over the limit of \(maxCodePoints)"
        }
        let characters = text.count
        if characters > maxCharacters {
            return "a text of \(characters) characters, over the limit of \(maxCharacters)"
        }
        if let long = text.first(where: { $0.unicodeScalars.count > maxCodePointsPerCharacter }) {
            return
                "a character of \(long.unicodeScalars.count) code points (combining marks), over the limit of \(maxCodePointsPerCharacter)"
        }
        return nil
    }
}
