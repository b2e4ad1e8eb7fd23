/// An axis-aligned rectangle: an origin (top-left, y down) and a size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height; a zero or negative side makes the rectangle empty.
    public var size: Size

    /// The rectangle with its top-left corner at `origin`.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// The rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle of `size` whose centre is `center`.
    public init(center: Point, size: Size) {
        self.init(
            x: center.x - size.width / 2, y: center.y - size.height / 2,
            width: size.width, height: size.height)
    }

    /// The x coordinate of the left edge.
    public var minX: Double { origin.x }
    /// The y coordinate of the top edge.
    public var minY: Double { origin.y }
    /// The x coordinate of the right edge.
    public var maxX: Double { origin.x + size.width }
    /// The y coordinate of the bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// The x coordinate halfway between the left and right edges.
    public var midX: Double { origin.x + size.width / 2 }
    /// The y coordinate halfway between the top and bottom edges.
    public var midY: Double { origin.y + size.height / 2 }
    /// The horizontal extent, in canvas units (as stored: may be zero or negative).
    public var width: Double { size.width }
    /// The vertical extent, in canvas units (as stored: may be zero or negative).
    public var height: Double { size.height }
    /// The point at the middle of the rectangle.
    public var center: Point { Point(x: midX, y: midY) }
    /// True when the origin and size hold no NaN or infinite numbers.
    public var isFinite: Bool { origin.isFinite && size.isFinite }
    /// True when the rectangle covers no area: a side is zero, negative or NaN.
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// The smallest rectangle containing both.
    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The overlap of both, or nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `[(x, y) WxH]`, as in scene dumps and messages.
    public var description: String { "[\(origin) \(size)]" }
}
