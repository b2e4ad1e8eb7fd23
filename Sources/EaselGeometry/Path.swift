import FoundationEssentials
import Glibc

/// A vector path: a value over elements, as SwiftUI's `Path` is, with exact synthesised
/// equality. Two paths are equal when they have the same elements with the same points;
/// this is how clip shapes are matched to the Cards app's shape library.
///
/// Invariant: every point is finite. The appending methods check it (a non-finite point
/// is a programming error); untrusted input goes through `init(validating:)`, which throws.
public struct Path: Hashable, Sendable {
    /// One drawing command of a path; every point is absolute, in the path's coordinate space.
    public enum Element: Hashable, Sendable {
        case move(to: Point)
        case line(to: Point)
        case quadCurve(to: Point, control: Point)
        case curve(to: Point, control1: Point, control2: Point)
        case closeSubpath

        /// Every point the element names, end point last.
        public var points: [Point] {
            var points: [Point] = []
            points.reserveCapacity(3)
            forEachPoint { points.append($0) }
            return points
        }

        /// Calls `body` with each point the element names, in `points`' order, without
        /// making an array (for loops over every point of many paths).
        func forEachPoint(_ body: (Point) -> Void) {
            switch self {
            case .move(let p), .line(let p): body(p)
            case .quadCurve(let p, let c):
                body(c)
                body(p)
            case .curve(let p, let c1, let c2):
                body(c1)
                body(c2)
                body(p)
            case .closeSubpath: break
            }
        }

        func mapPoints(_ transform: (Point) -> Point) -> Element {
            switch self {
            case .move(let p): return .move(to: transform(p))
            case .line(let p): return .line(to: transform(p))
            case .quadCurve(let p, let c): return .quadCurve(to: transform(p), control: transform(c))
            case .curve(let p, let c1, let c2):
                return .curve(to: transform(p), control1: transform(c1), control2: transform(c2))
            case .closeSubpath: return .closeSubpath
            }
        }
    }

    /// The path's commands in drawing order; change them only through the appending methods.
    public private(set) var elements: [Element] = []

    /// An empty path, with no elements.
    public init() {}

    /// A path from untrusted elements: throws when any point is not finite.
    public init(validating elements: [Element]) throws(GeometryError) {
        for (index, element) in elements.enumerated() {
            if let bad = element.points.first(where: { !$0.isFinite }) {
                throw .nonFinitePoint(elementIndex: index, point: bad)
            }
        }
        self.elements = elements
    }

    /// True when the path has no elements at all (and so draws and clips nothing).
    public var isEmpty: Bool { elements.isEmpty }

    /// The point where the next element starts, if any.
    public var currentPoint: Point? {
        var subpathStart: Point?
        var current: Point?
        for element in elements {
            switch element {
            case .move(let p):
                subpathStart = p
                current = p
            case .closeSubpath: current = subpathStart
            default: current = element.points.last
            }
        }
        return current
    }

    // MARK: Building

    /// Starts a new subpath at `point` without drawing anything.
    public mutating func move(to point: Point) { append(.move(to: point)) }
    /// A straight line from the current point to `point`.
    public mutating func addLine(to point: Point) { append(.line(to: point)) }
    /// A quadratic Bézier curve from the current point to `point`, pulled towards `control`.
    public mutating func addQuadCurve(to point: Point, control: Point) {
        append(.quadCurve(to: point, control: control))
    }
    /// A cubic Bézier curve from the current point to `point` with two control points.
    public mutating func addCurve(to point: Point, control1: Point, control2: Point) {
        append(.curve(to: point, control1: control1, control2: control2))
    }
    /// Closes the current subpath with a straight line back to its starting point.
    public mutating func closeSubpath() { append(.closeSubpath) }

    /// Appends `element` as is; traps if any of its points is not finite (use
    /// `init(validating:)` for untrusted input).
    public mutating func append(_ element: Element) {
        // Point by point: an array of them for each element appended was most of the cost
        // of building a drawing's paths.
        element.forEachPoint { precondition($0.isFinite, "Path points must be finite: \(element)") }
        elements.append(element)
    }

    /// Makes room for `count` more elements (one allocation for a shape of known size).
    public mutating func reserveCapacity(adding count: Int) {
        elements.reserveCapacity(elements.count + count)
    }

    /// A closed polygon through `points`.
    public mutating func addPolygon(_ points: [Point]) {
        guard let first = points.first else { return }
        reserveCapacity(adding: points.count + 1)
        move(to: first)
        for point in points.dropFirst() { addLine(to: point) }
        closeSubpath()
    }

    /// A closed subpath around `rect`, clockwise on screen from its top-left corner.
    public mutating func addRect(_ rect: Rect) {
        addPolygon([
            Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
            Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
        ])
    }

    /// An ellipse inscribed in `rect`, as four cubic quarter-arcs starting at the right
    /// and running clockwise on screen.
    public mutating func addEllipse(in rect: Rect) {
        let (cx, cy, rx, ry) = (rect.midX, rect.midY, rect.width / 2, rect.height / 2)
        let k = 0.5522847498307936  // 4/3 * tan(pi/8): the standard quarter-circle control distance
        reserveCapacity(adding: 6)
        move(to: Point(x: cx + rx, y: cy))
        addCurve(
            to: Point(x: cx, y: cy + ry),
            control1: Point(x: cx + rx, y: cy + k * ry), control2: Point(x: cx + k * rx, y: cy + ry))
        addCurve(
            to: Point(x: cx - rx, y: cy),
            control1: Point(x: cx - k * rx, y: cy + ry), control2: Point(x: cx - rx, y: cy + k * ry))
        addCurve(
            to: Point(x: cx, y: cy - ry),
            control1: Point(x: cx - rx, y: cy - k * ry), control2: Point(x: cx - k * rx, y: cy - ry))
        addCurve(
            to: Point(x: cx + rx, y: cy),
            control1: Point(x: cx + k * rx, y: cy - ry), control2: Point(x: cx + rx, y: cy - k * ry))
        closeSubpath()
    }

    /// A rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
    public mutating func addRoundedRect(_ rect: Rect, cornerRadius: Double) {
        let r = max(0, min(cornerRadius, min(rect.width, rect.height) / 2))
        guard r > 0 else { return addRect(rect) }
        move(to: Point(x: rect.minX + r, y: rect.minY))
        addLine(to: Point(x: rect.maxX - r, y: rect.minY))
        addArc(center: Point(x: rect.maxX - r, y: rect.minY + r), radius: r, fromDegrees: -90, toDegrees: 0)
        addLine(to: Point(x: rect.maxX, y: rect.maxY - r))
        addArc(center: Point(x: rect.maxX - r, y: rect.maxY - r), radius: r, fromDegrees: 0, toDegrees: 90)
        addLine(to: Point(x: rect.minX + r, y: rect.maxY))
        addArc(center: Point(x: rect.minX + r, y: rect.maxY - r), radius: r, fromDegrees: 90, toDegrees: 180)
        addLine(to: Point(x: rect.minX, y: rect.minY + r))
        addArc(center: Point(x: rect.minX + r, y: rect.minY + r), radius: r, fromDegrees: 180, toDegrees: 270)
        closeSubpath()
    }

    /// A circular arc from angle `fromDegrees` to `toDegrees`, sweeping through the angles
    /// in between (increasing = clockwise on screen in a y-down space; 0 = +x, -90 = up).
    /// Starts a subpath at the arc's first point when there is none, and otherwise joins
    /// it with a line when the current point is elsewhere. Stored as cubic segments of at
    /// most 90 degrees each.
    public mutating func addArc(center: Point, radius: Double, fromDegrees: Double, toDegrees: Double) {
        func point(_ degrees: Double) -> Point {
            let (c, s) = exactCosSin(degrees: degrees)
            return Point(x: center.x + radius * c, y: center.y + radius * s)
        }
        let start = point(fromDegrees)
        if let current = currentPoint, !isSubpathClosedAtEnd {
            if current != start { addLine(to: start) }
        } else {
            move(to: start)
        }
        let sweep = toDegrees - fromDegrees
        guard sweep != 0, sweep.isFinite else { return }
        // A quarter turn a curve, and at most a thousand turns: more only draws over itself.
        let segments = min(4_000, max(1, Int(saturating: (abs(sweep) / 90).rounded(.up))))
        let step = sweep / Double(segments)
        // Control points sit on the tangents at distance k*r, k = 4/3 * tan(step/4).
        let k = 4.0 / 3.0 * tan(step * .pi / 180 / 4)
        var angle = fromDegrees
        for _ in 0..<segments {
            let next = angle + step
            let (cos0, sin0) = exactCosSin(degrees: angle), (cos1, sin1) = exactCosSin(degrees: next)
            let p0 = point(angle), p1 = point(next)
            let c1 = Point(x: p0.x - k * radius * sin0, y: p0.y + k * radius * cos0)
            let c2 = Point(x: p1.x + k * radius * sin1, y: p1.y - k * radius * cos1)
            addCurve(to: p1, control1: c1, control2: c2)
            angle = next
        }
    }

    /// cos and sin of an angle, exact at multiples of 90 degrees (where the library's arcs
    /// start and end), so that arcs meet neighbouring points exactly and paths compare equal.
    private func exactCosSin(degrees: Double) -> (Double, Double) {
        let quarterTurns = degrees / 90
        if quarterTurns == quarterTurns.rounded(), abs(quarterTurns) < 1e9 {
            switch ((Int(quarterTurns) % 4) + 4) % 4 {
            case 0: return (1, 0)
            case 1: return (0, 1)
            case 2: return (-1, 0)
            default: return (0, -1)
            }
        }
        let radians = degrees * .pi / 180
        return (cos(radians), sin(radians))
    }

    private var isSubpathClosedAtEnd: Bool {
        if case .closeSubpath = elements.last { return true }
        return false
    }

    // MARK: Deriving

    /// The path with every point mapped through `transform`.
    public func applying(_ transform: Transform2D) -> Path {
        var result = Path()
        result.elements = elements.map { $0.mapPoints(transform.apply) }
        return result
    }

    /// Maps every point through `transform`, in place (no new array when this path's
    /// elements are not shared).
    public mutating func apply(_ transform: Transform2D) {
        for index in elements.indices { elements[index] = elements[index].mapPoints(transform.apply) }
    }

    /// The bounds of every point the path names, control points included (nil when empty).
    public var controlPointBounds: Rect? {
        // Point by point, with no array of points: a render asks this of every path once
        // per strip it draws, and gathering the points (an array per element) took a few
        // percent of a 1,000-shape export's time.
        var bounds: (x0: Double, y0: Double, x1: Double, y1: Double)?
        func include(_ p: Point) {
            guard let b = bounds else {
                bounds = (p.x, p.y, p.x, p.y)
                return
            }
            bounds = (min(b.x0, p.x), min(b.y0, p.y), max(b.x1, p.x), max(b.y1, p.y))
        }
        for element in elements { element.forEachPoint(include) }
        guard let b = bounds else { return nil }
        return Rect(x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0)
    }
}

extension Path: CustomStringConvertible {
    /// A stable text form, one element per token: `M x y L x y Q cx cy x y C ... Z`.
    public var description: String {
        elements.map { element -> String in
            let numbers = element.points.map { "\(formatNumber($0.x)) \(formatNumber($0.y))" }.joined(separator: " ")
            switch element {
            case .move: return "M \(numbers)"
            case .line: return "L \(numbers)"
            case .quadCurve: return "Q \(numbers)"
            case .curve: return "C \(numbers)"
            case .closeSubpath: return "Z"
            }
        }.joined(separator: " ")
    }
}

extension Path {
    /// The control points of the cubic Bézier equal to the quadratic from `start` to `end`
    /// with control `control` (the controls sit 2/3 of the way to the quadratic's control),
    /// for backends that draw only cubics.
    public static func cubicControls(start: Point, control: Point, end: Point) -> (Point, Point) {
        (
            Point(x: start.x + 2 / 3 * (control.x - start.x), y: start.y + 2 / 3 * (control.y - start.y)),
            Point(x: end.x + 2 / 3 * (control.x - end.x), y: end.y + 2 / 3 * (control.y - end.y))
        )
    }
}
