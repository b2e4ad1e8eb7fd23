import FoundationEssentials
import Glibc

/// A 2-D affine transform (named so as not to clash with Foundation's AffineTransform) in the convention of Core Graphics and cairo:
/// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
///
/// In Easel's y-down spaces a positive rotation turns clockwise on screen, which is what the
/// Cards app and Easel documents mean by a positive angle.
public struct Transform2D: Hashable, Sendable, CustomStringConvertible {
    /// The matrix entries: `a`, `b`, `c`, `d` scale, rotate and shear; `tx`, `ty` translate.
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// The transform with these matrix entries (see the type's documentation for the formula).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The transform that leaves every point where it is.
    public static let identity = Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A transform that moves every point by `x` to the right and `y` down.
    public static func translation(x: Double, y: Double) -> Transform2D {
        Transform2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A transform that scales about the origin by `x` horizontally and `y` vertically
    /// (negative factors mirror).
    public static func scale(x: Double, y: Double) -> Transform2D {
        Transform2D(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation by `degrees`, clockwise on screen in a y-down space.
    public static func rotation(degrees: Double) -> Transform2D {
        // Exact values for quarter turns keep right-angle rotations free of rounding noise.
        let turns = degrees / 90
        if turns == turns.rounded(), abs(turns) < 1e9 {
            switch ((Int(turns) % 4) + 4) % 4 {
            case 0: return .identity
            case 1: return Transform2D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
            case 2: return Transform2D(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
            default: return Transform2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0)
            }
        }
        let radians = degrees * .pi / 180
        let (s, c) = (sin(radians), cos(radians))
        return Transform2D(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// The transform that applies `self` first, then `other`.
    public func concatenating(_ other: Transform2D) -> Transform2D {
        Transform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// `self` preceded by a translation, as cairo_translate does to a context's matrix.
    public func translatedBy(x: Double, y: Double) -> Transform2D {
        Transform2D.translation(x: x, y: y).concatenating(self)
    }

    /// `self` preceded by a rotation, as cairo_rotate does.
    public func rotatedBy(degrees: Double) -> Transform2D {
        Transform2D.rotation(degrees: degrees).concatenating(self)
    }

    /// `self` preceded by a scale, as cairo_scale does.
    public func scaledBy(x: Double, y: Double) -> Transform2D {
        Transform2D.scale(x: x, y: y).concatenating(self)
    }

    /// Where the transform moves `point`.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// How the transform scales areas: 0 collapses the plane, a negative value mirrors it.
    public var determinant: Double { a * d - b * c }

    /// The inverse, or nil when the transform collapses the plane (determinant zero).
    public var inverted: Transform2D? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return Transform2D(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// True when the transform moves no point (all entries exactly those of `identity`).
    public var isIdentity: Bool { self == .identity }
    /// True when no entry is NaN or infinite.
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// `[a b c d tx ty]` with at most four decimals, as in scene dumps.
    public var description: String {
        "[" + [a, b, c, d, tx, ty].map(formatNumber).joined(separator: " ") + "]"
    }
}
