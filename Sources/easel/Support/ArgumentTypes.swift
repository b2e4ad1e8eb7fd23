import ArgumentParser
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

// Each type here reads an option's value through `parser(...)` (an option's `transform:`),
// which refuses a value with what was expected and an example (`ExpectedValue`): the
// message reads `--by 20: expected DX,DY, e.g. 20,0`, not only that the value is invalid.

/// `X,Y` (also `X Y`), for positions and displacements.
struct PointArgument {
    var point: Point

    init?(argument: String) {
        let parts = argument.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy(\.isFinite) else { return nil }
        point = Point(x: parts[0], y: parts[1])
    }

    /// Reads a point, or says `expected` (`DX,DY, e.g. 20,0`).
    static func parser(expected: String) -> @Sendable (String) throws -> PointArgument {
        { text in
            guard let value = PointArgument(argument: text) else { throw ExpectedValue(expected) }
            return value
        }
    }
}

/// `WxH` (also `W,H`).
struct SizeArgument {
    var size: Size

    init?(argument: String) {
        let parts = argument.lowercased().split(whereSeparator: { $0 == "x" || $0 == "," }).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        size = Size(width: parts[0], height: parts[1])
    }

    init(_ size: Size) { self.size = size }

    /// Reads a size, or says it expected `WxH` and gives `example` (`200x100`).
    static func parser(example: String) -> @Sendable (String) throws -> SizeArgument {
        { text in
            guard let value = SizeArgument(argument: text) else {
                throw ExpectedValue("WxH, e.g. \(example) (two numbers of zero or more)")
            }
            return value
        }
    }
}

/// Any colour `Color(parsing:)` reads: `#RRGGBB[AA]`, CSS names, `r,g,b[,a]`, app palette names.
struct ColorArgument {
    var color: Color

    init?(argument: String) {
        guard let color = try? Color(parsing: argument) else { return nil }
        self.color = color
    }

    /// What a colour option takes, as its error says it.
    static let expected =
        "a colour: #RRGGBB[AA], a CSS name, r,g,b[,a] from 0 to 1, random1-8 or appColor1-7, e.g. tomato or #FF6347"

    /// The message for `value` given to `option`, a colour option that takes none too.
    static func badColor(_ option: String, _ value: String) -> String {
        "\(option) must be \(PropertyType.color(allowsNone: true).expected), not \"\(value)\"."
    }

    /// Reads a colour, or says what a colour is.
    static let parser: @Sendable (String) throws -> ColorArgument = { text in
        guard let value = ColorArgument(argument: text) else { throw ExpectedValue(expected) }
        return value
    }
}

/// A clip-shape name of the Cards library (or an alias, `ShapeNames`), or `none`.
struct ClipArgument {
    var shape: LibraryShape?

    init?(argument: String) {
        if argument.lowercased() == "none" {
            shape = nil
            return
        }
        guard let shape = ShapeNames.libraryShape(named: argument) else { return nil }
        self.shape = shape
    }

    /// The names a clip takes, as help, completion and errors list them.
    static var names: [String] { ShapeNames.clipNames + ["none"] }

    /// Reads a clip, or lists the shapes.
    static let parser: @Sendable (String) throws -> ClipArgument = { text in
        guard let value = ClipArgument(argument: text) else {
            throw ExpectedValue("a clip shape: \(ShapeNames.clipNames.joined(separator: ", ")), or none, e.g. heart")
        }
        return value
    }
}

/// Dash lengths, `6,3` (or `none` for a solid line).
struct DashArgument {
    var lengths: [Double]

    init?(argument: String) {
        if argument.lowercased() == "none" {
            lengths = []
            return
        }
        let parts = argument.split(separator: ",").map { Double($0.trimmingWhitespace) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { return nil }
        lengths = parts.map { $0! }
    }

    /// Reads dash lengths, or says what they are.
    static let parser: @Sendable (String) throws -> DashArgument = { text in
        guard let value = DashArgument(argument: text) else {
            throw ExpectedValue("dash lengths ON,OFF[,ON,OFF…] or none, e.g. 6,3 (numbers of zero or more)")
        }
        return value
    }
}

/// One of an enumeration's names (`--cap round`), refused with the names and an example.
enum Choice {
    /// Reads a `T` by its raw value, or lists them with `example`.
    static func parser<T: RawRepresentable & CaseIterable & Sendable>(example: T) -> @Sendable (String) throws -> T
    where T.RawValue == String {
        { text in
            guard let value = T(rawValue: text) else {
                throw ExpectedValue("\(list(T.allCases.map(\.rawValue))), e.g. \(example.rawValue)")
            }
            return value
        }
    }

    /// `a, b or c`.
    static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The names shell completion offers for a `T`.
    static func completion<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> CompletionKind where T.RawValue == String {
        .list(T.allCases.map(\.rawValue))
    }
}

import FoundationEssentials
