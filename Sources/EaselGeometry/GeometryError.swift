/// Why untrusted geometry was refused.
public enum GeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    case nonFinitePoint(elementIndex: Int, point: Point)

    /// A one-line message naming the offending path element (0-based) and point.
    public var description: String {
        switch self {
        case .nonFinitePoint(let index, let point):
            return "path element \(index) has a non-finite point \(point)"
        }
    }
}
