import EaselGeometry

/// The one table of the names people type and read for shapes and clips: `easel add KIND`,
/// `--clip`, `easel info` (text and JSON), the server's edit requests and element
/// descriptions, help and error messages. One name per shape, in the command line's
/// kebab-case; the spellings Easel took before stay accepted as aliases.
///
/// The file formats keep their own names and are not changed by this table: a drawing's
/// JSON says `"kind": "roundedRectangle"` (`GraphicKind.name`, `LibraryShape.name`), and a
/// card stores a clip as the app's index.
public enum ShapeNames {
    /// One shape as users name it: the name shown, and the other spellings accepted for it.
    public struct Entry: Sendable, Equatable {
        /// The name shown in output, help and messages, and accepted as typed.
        public let name: String
        /// Other spellings accepted for it (older names, the file format's camelCase).
        public let aliases: [String]
    }

    /// The drawing kinds that are not clip-library shapes, in the order help lists them;
    /// `rectangle` and `rounded-rectangle` are also library shapes (see `clipShapes`).
    public static let drawingOnlyKinds: [Entry] = [
        Entry(name: "rectangle", aliases: ["rect"]),
        Entry(name: "rounded-rectangle", aliases: ["rounded-rect", "roundedRectangle"]),
        Entry(name: "ellipse", aliases: []),
        Entry(name: "polygon", aliases: []),
        Entry(name: "star", aliases: []),
        Entry(name: "line", aliases: []),
        Entry(name: "path", aliases: []),
        Entry(name: "text", aliases: []),
        Entry(name: "image", aliases: []),
    ]

    /// The Cards app's clip-shape library, in the app's order, as users name each shape.
    public static let clipShapes: [(shape: LibraryShape, entry: Entry)] = LibraryShape.allCases.map { shape in
        switch shape {
        case .rectangle: return (shape, drawingOnlyKinds[0])
        case .roundedRectangle: return (shape, drawingOnlyKinds[1])
        default: return (shape, Entry(name: shape.name, aliases: []))
        }
    }

    /// Every kind `easel add` takes for a drawing, as shown: the drawing kinds, then the
    /// library's other shapes (circle, heart, …).
    public static var drawingKindNames: [String] {
        drawingOnlyKinds.map(\.name)
            + clipShapes.filter { $0.shape != .rectangle && $0.shape != .roundedRectangle }.map(\.entry.name)
    }

    /// Every clip name, as shown: the library's shapes in the app's order.
    public static var clipNames: [String] { clipShapes.map(\.entry.name) }

    /// The name shown for library shape `shape`.
    public static func name(of shape: LibraryShape) -> String {
        clipShapes.first { $0.shape == shape }?.entry.name ?? shape.name
    }

    /// The name shown for a graphic of kind `kind` (a group is "group").
    public static func name(of kind: GraphicKind) -> String {
        switch kind {
        case .rectangle: return drawingOnlyKinds[0].name
        case .roundedRectangle: return drawingOnlyKinds[1].name
        case .libraryShape(let shape): return name(of: shape)
        default: return kind.name
        }
    }

    /// The name shown for a clip: its library shape's, or "custom" for an outline of its own.
    public static func name(of clip: ClipShape) -> String {
        switch clip {
        case .library(let shape): return name(of: shape)
        case .custom: return "custom"
        }
    }

    /// The library shape `typed` names, by its name or an alias, or nil.
    public static func libraryShape(named typed: String) -> LibraryShape? {
        let key = Self.key(typed)
        return clipShapes.first { matches(key, $0.entry) }?.shape
    }

    /// The name shown for the drawing kind `typed` names (by name or alias: `rect` gives
    /// `rectangle`), including the library's shapes; nil when it names none.
    public static func drawingKind(named typed: String) -> String? {
        let key = Self.key(typed)
        if let entry = drawingOnlyKinds.first(where: { matches(key, $0) }) { return entry.name }
        return clipShapes.first { matches(key, $0.entry) }?.entry.name
    }

    /// Names compare without case, `-` or `_`: `rounded-rect`, `roundedRect` and
    /// `ROUNDED_RECT` are one spelling.
    package static func key(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
    }

    static func matches(_ key: String, _ entry: Entry) -> Bool {
        Self.key(entry.name) == key || entry.aliases.contains { Self.key($0) == key }
    }
}
