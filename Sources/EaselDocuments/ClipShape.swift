import EaselGeometry

/// A shape that clips an element. The Cards app stores a clip as an index into its shape
/// library, but in the model a clip is a *path*: a library shape, or any custom outline
/// given in the library's 100x100 matching square. Saving into a card file finds the
/// library index by path equality, exactly as the app does.
public enum ClipShape: Hashable, Sendable, CustomStringConvertible {
    case library(LibraryShape)
    /// A custom outline in the 100x100 square `LibraryShape.matchingRect`, scaled to the
    /// clipped rectangle when drawn.
    case custom(Path)

    /// The outline laid out in `rect`.
    public func path(in rect: Rect) -> Path {
        switch self {
        case .library(let shape):
            return shape.path(in: rect)
        case .custom(let path):
            let unit = LibraryShape.matchingRect
            let transform = Transform2D.translation(x: -unit.minX, y: -unit.minY)
                .concatenating(.scale(x: rect.width / unit.width, y: rect.height / unit.height))
                .concatenating(.translation(x: rect.minX, y: rect.minY))
            return path.applying(transform)
        }
    }

    /// The app's index for this clip: the first library shape whose path in the 100x100
    /// square equals this clip's, or nil when none does.
    public var libraryIndex: Int? {
        LibraryShape.matching(path(in: LibraryShape.matchingRect))?.rawValue
    }

    public var description: String {
        switch self {
        case .library(let shape): return shape.name
        case .custom: return "custom"
        }
    }
}
