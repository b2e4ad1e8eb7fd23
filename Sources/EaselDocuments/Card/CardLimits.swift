import EaselGeometry
import EaselSupport
/// What a card file may hold. Real cards are far inside these; the limits exist so that a
/// hostile file cannot make Easel allocate or draw without bound. Documented in docs/limits.md.
public enum CardLimits {
    /// The largest card file read, in bytes.
    public static let maxFileBytes = 16 << 20
    /// The most image elements, and separately the most text elements, in one card.
    public static let maxElements = 10_000
    /// The largest absolute value of a size or offset component, in card units.
    public static let maxCoordinate = 1_000_000.0
    /// The largest absolute rotation, in degrees.
    public static let maxRotationDegrees = 1_000_000.0
    /// The longest text, in characters (see `TextLimits` for all the bounds on a text).
    public static let maxTextCharacters = TextLimits.maxCharacters
    /// The longest image file name.
    public static let maxFilenameBytes = 255
}
