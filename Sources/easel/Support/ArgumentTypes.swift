import ArgumentParser
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

/// `X,Y` (also `X Y`), for positions and displacements.
struct PointArgument: ExpressibleByArgument {
    var point: Point

    init?(argument: String) {
        let parts = argument.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy(\.isFinite) else { return nil }
        point = Point(x: parts[0], y: parts[1])
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `WxH` (also `W,H`).
struct SizeArgument: ExpressibleByArgument {
    var size: Size

    init?(argument: String) {
        let parts = argument.lowercased().split(whereSeparator: { $0 == "x" || $0 == "," }).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        size = Size(width: parts[0], height: parts[1])
    }

    init(_ size: Size) { self.size = size }

    /// `800x600`, as help shows a default.
    var defaultValueDescription: String { "\(formatNumber(size.width))x\(formatNumber(size.height))" }
}

/// Any colour `Color(parsing:)` reads: `#RRGGBB[AA]`, CSS names, `r,g,b[,a]`, app palette names.
struct ColorArgument: ExpressibleByArgument {
    var color: Color

    init?(argument: String) {
        guard let color = try? Color(parsing: argument) else { return nil }
        self.color = color
    }
}

/// A clip-shape name of the Cards library, or `none`.
struct ClipArgument: ExpressibleByArgument {
    var shape: LibraryShape?

    init?(argument: String) {
        if argument.lowercased() == "none" {
            shape = nil
            return
        }
        guard let shape = LibraryShape(name: argument) else { return nil }
        self.shape = shape
    }

    static var allValueStrings: [String] { LibraryShape.allCases.map(\.name) + ["none"] }
}

/// Dash lengths, `6,3` (or `none` for a solid line).
struct DashArgument: ExpressibleByArgument {
    var lengths: [Double]

    init?(argument: String) {
        if argument.lowercased() == "none" {
            lengths = []
            return
        }
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { return nil }
        lengths = parts.map { $0! }
    }
}

extension Stroke.Cap: ExpressibleByArgument {}
extension Stroke.Join: ExpressibleByArgument {}
extension TextContent.Alignment: ExpressibleByArgument {}
extension OrderDirection: ExpressibleByArgument {}

import Foundation
