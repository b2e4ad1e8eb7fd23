import EaselGeometry
import EaselSupport
/// What a drawing file may hold, so that no file can make Easel allocate or draw without
/// bound. Documented in docs/limits.md and docs/drawing-format.md.
public enum DrawingLimits {
    /// The largest drawing file read, in bytes.
    public static let maxFileBytes = 64 << 20
    /// The most graphics in a drawing, counting every group's children.
    public static let maxGraphics = 100_000
    /// The deepest nesting of groups.
    public static let maxGroupDepth = 16
    /// The most elements in one path.
    public static let maxPathElements = 100_000
    /// The largest absolute coordinate (centre, size, canvas size), in canvas units.
    public static let maxCoordinate = 1_000_000.0
    /// The largest absolute rotation, in degrees.
    public static let maxRotationDegrees = 1_000_000.0
    /// The most sides of a polygon, or points of a star.
    public static let maxPolygonSides = 1_000
    /// The largest stroke width, corner radius or dash length, in canvas units.
    public static let maxStrokeWidth = 100_000.0
    /// The most dash lengths in a stroke.
    public static let maxDashCount = 64
    /// The largest shadow blur, in canvas units.
    public static let maxShadowBlur = 1_000.0
    /// The largest font size, in canvas units.
    public static let maxFontSize = 100_000.0
    /// The longest text, in characters (see `TextLimits` for all the bounds on a text).
    public static let maxTextCharacters = TextLimits.maxCharacters
}
