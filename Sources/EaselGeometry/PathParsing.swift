extension Path {
    /// Reads a path written as absolute commands, as in SVG: `M x y`, `L x y`,
    /// `Q cx cy x y`, `C c1x c1y c2x c2y x y`, `Z` (numbers separated by spaces or commas).
    /// Returns nil for anything else, a non-finite number, or a path not starting with `M`.
    public init?(parsing text: String) {
        var tokens = text.replacing(",", with: " ").split(separator: " ").map(String.init)[...]
        var elements: [Element] = []
        func numbers(_ count: Int) -> [Double]? {
            guard tokens.count >= count else { return nil }
            let values = tokens.prefix(count).compactMap(Double.init)
            guard values.count == count, values.allSatisfy(\.isFinite) else { return nil }
            tokens = tokens.dropFirst(count)
            return values
        }
        while let command = tokens.popFirst() {
            switch command.uppercased() {
            case "M":
                guard let n = numbers(2) else { return nil }
                elements.append(.move(to: Point(x: n[0], y: n[1])))
            case "L":
                guard let n = numbers(2) else { return nil }
                elements.append(.line(to: Point(x: n[0], y: n[1])))
            case "Q":
                guard let n = numbers(4) else { return nil }
                elements.append(.quadCurve(to: Point(x: n[2], y: n[3]), control: Point(x: n[0], y: n[1])))
            case "C":
                guard let n = numbers(6) else { return nil }
                elements.append(
                    .curve(to: Point(x: n[4], y: n[5]), control1: Point(x: n[0], y: n[1]), control2: Point(x: n[2], y: n[3])))
            case "Z": elements.append(.closeSubpath)
            default: return nil
            }
        }
        guard case .move? = elements.first, let path = try? Path(validating: elements) else { return nil }
        self = path
    }
}

import FoundationEssentials
