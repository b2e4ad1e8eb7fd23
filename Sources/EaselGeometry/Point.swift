/// A point (or a displacement) in a y-down coordinate space, in canvas units.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate; it grows to the right.
    public var x: Double
    /// The vertical coordinate; it grows downwards.
    public var y: Double

    /// A point at `x` to the right of and `y` below the origin.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0): the top-left corner of a canvas.
    public static let zero = Point(x: 0, y: 0)

    /// True when both coordinates are finite numbers (not NaN, not infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// `lhs` moved by the displacement `rhs`.
    public static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    /// The displacement from `rhs` to `lhs`.
    public static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }

    /// `(x, y)` with at most four decimals, as in scene dumps and messages.
    public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}
