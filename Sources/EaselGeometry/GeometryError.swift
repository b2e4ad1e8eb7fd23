/// Why untrusted geometry was refused.
public enum GeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    case nonFinitePoint(elementIndex: Int, point: Point)

    public var description: String {
        switch self {
        case .nonFinitePoint(let index, let point):
            return "path element \(index) has a non-finite point \(point)"
        }
    }
}
