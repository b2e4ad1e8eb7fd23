import EaselSupport
import EaselGeometry

/// A shape that clips an element. The Cards app stores a clip as an index into its shape
/// library, but in the model a clip is a *path*: a library shape, or any custom outline
/// given in the unit square. Saving into a card file finds the library index by path
/// equality in the app's 100x100 matching square, exactly as the app does.
public enum ClipShape: Hashable, Sendable, CustomStringConvertible {
    case library(LibraryShape)
    /// A custom outline in the unit square (0...1 in x and y), scaled to the clipped
    /// rectangle when drawn.
    case custom(Path)

    /// The outline laid out in `rect`.
    public func path(in rect: Rect) -> Path {
        switch self {
        case .library(let shape):
            return shape.path(in: rect)
        case .custom(let path):
            return path.applying(
                Transform2D.scale(x: rect.width, y: rect.height).concatenating(.translation(x: rect.minX, y: rect.minY)))
        }
    }

    /// The app's index for this clip: the first library shape whose path in the 100x100
    /// square equals this clip's, or nil when none does.
    public var libraryIndex: Int? {
        LibraryShape.matching(path(in: LibraryShape.matchingRect))?.rawValue
    }

    /// The library shape's name, or "custom" for an outline of its own.
    public var description: String {
        switch self {
        case .library(let shape): return shape.name
        case .custom: return "custom"
        }
    }
}
