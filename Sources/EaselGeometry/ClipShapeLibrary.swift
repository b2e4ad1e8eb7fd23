import FoundationEssentials
import Glibc

/// The Cards app's clip-shape library (`Shapes.shapes`), in the app's order: a card stores
/// a clip as an index into this list. Each shape makes a `Path` for any rectangle, with the
/// geometry of docs/formats.md (origin top-left, y down; angles in y-down space).
public enum LibraryShape: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case circle = 0
    case rectangle, roundedRectangle, heart, lens, chevron, cone, cloud, diamond, hexagon, octagon

    /// The app's name for the shape, as drawing files store it. What users type and read
    /// (`rounded-rectangle`, with this name as an alias) is EaselDocuments' `ShapeNames`.
    public var name: String {
        switch self {
        case .circle: return "circle"
        case .rectangle: return "rectangle"
        case .roundedRectangle: return "roundedRectangle"
        case .heart: return "heart"
        case .lens: return "lens"
        case .chevron: return "chevron"
        case .cone: return "cone"
        case .cloud: return "cloud"
        case .diamond: return "diamond"
        case .hexagon: return "hexagon"
        case .octagon: return "octagon"
        }
    }

    /// The shape's `name`, for messages and the command line.
    public var description: String { name }

    /// The shape named `name` (case-insensitive; `rounded-rectangle` and `rounded_rectangle`
    /// are accepted for `roundedRectangle`).
    public init?(name: String) {
        let key = name.lowercased().replacing("-", with: "").replacing("_", with: "")
        guard let shape = LibraryShape.allCases.first(where: { $0.name.lowercased() == key }) else { return nil }
        self = shape
    }

    /// The rectangle the app draws a shape in to compare clip paths.
    public static let matchingRect = Rect(x: 0, y: 0, width: 100, height: 100)

    /// The first library shape whose path in the 100x100 matching rectangle equals `path`,
    /// which is how the app turns a clip shape into the index it saves.
    public static func matching(_ path: Path) -> LibraryShape? {
        allCases.first { $0.path(in: matchingRect) == path }
    }

    /// The shape's outline laid out in `rect`.
    public func path(in rect: Rect) -> Path {
        let (x, y, w, h) = (rect.minX, rect.minY, rect.width, rect.height)
        func p(_ px: Double, _ py: Double) -> Point { Point(x: x + px, y: y + py) }
        var path = Path()
        switch self {
        case .circle:
            let d = min(w, h)
            path.addEllipse(in: Rect(x: x + (w - d) / 2, y: y + (h - d) / 2, width: d, height: d))
        case .rectangle:
            path.addRect(rect)
        case .roundedRectangle:
            path.addRoundedRect(rect, cornerRadius: 25)
        case .heart:
            path.move(to: p(w / 2, h))
            path.addCurve(to: p(0, 0.25 * h), control1: p(0.35 * w, 0.9 * h), control2: p(0, 0.5 * h))
            path.addArc(center: p(0.25 * w, 0.25 * h), radius: 0.25 * w, fromDegrees: 180, toDegrees: 360)
            path.addArc(center: p(0.75 * w, 0.25 * h), radius: 0.25 * w, fromDegrees: 180, toDegrees: 360)
            path.addCurve(to: p(w / 2, h), control1: p(w, 0.5 * h), control2: p(0.65 * w, 0.9 * h))
            path.closeSubpath()
        case .lens:
            path.move(to: p(0, h / 2))
            path.addQuadCurve(to: p(w, h / 2), control: p(w / 2, 0))
            path.addQuadCurve(to: p(0, h / 2), control: p(w / 2, h))
            path.closeSubpath()
        case .chevron:
            path.addPolygon([p(0, 0), p(0.75 * w, 0), p(w, 0.5 * h), p(0.75 * w, h), p(0, h), p(0.25 * w, 0.5 * h)])
        case .cone:
            let r = min(w, h) / 2
            path.addArc(center: p(w / 2, h / 2), radius: r, fromDegrees: 0, toDegrees: -180)
            path.addLine(to: p(w / 2, h))
            path.addLine(to: p(w / 2 + r, h / 2))
            path.closeSubpath()
        case .cloud:
            path.move(to: p(0.2 * w, 0.2 * h))
            path.addQuadCurve(to: p(0.6 * w, 0.1 * h), control: p(0.32 * w, -0.12 * h))
            path.addQuadCurve(to: p(0.85 * w, 0.2 * h), control: p(0.8 * w, 0.05 * h))
            path.addQuadCurve(to: p(0.9 * w, 0.6 * h), control: p(1.1 * w, 0.35 * h))
            path.addQuadCurve(to: p(0.65 * w, 0.9 * h), control: p(w, 0.95 * h))
            path.addQuadCurve(to: p(0.15 * w, 0.7 * h), control: p(0.2 * w, 1.1 * h))
            path.addQuadCurve(to: p(0.2 * w, 0.2 * h), control: p(-0.15 * w, 0.45 * h))
            path.closeSubpath()
        case .diamond:
            path.addPolygon([p(w / 2, 0), p(w, h / 2), p(w / 2, h), p(0, h / 2)])
        case .hexagon:
            path.addPolygon(Self.regularPolygonVertices(sides: 6, rect: rect))
        case .octagon:
            path.addPolygon(Self.regularPolygonVertices(sides: 8, rect: rect))
        }
        return path
    }

    /// The app's polygon: r = min(w,h)/2, vertices (r cos θ + r, r sin θ + r). Note that it is
    /// centred at (r, r) from the rectangle's origin, not at the rectangle's centre.
    private static func regularPolygonVertices(sides: Int, rect: Rect) -> [Point] {
        let r = min(rect.width, rect.height) / 2
        return (0..<sides).map { i in
            let theta = 2 * Double.pi * Double(i) / Double(sides)
            return Point(x: rect.minX + r * cos(theta) + r, y: rect.minY + r * sin(theta) + r)
        }
    }
}
