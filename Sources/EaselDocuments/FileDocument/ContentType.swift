import EaselGeometry
import EaselSupport
/// A document content type, in the spirit of Apple's `UTType` (which Linux lacks): an
/// identifier, the file extension it is saved with, and the types it conforms to.
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    /// The type's unique reverse-DNS name, for example `org.easel.drawing`.
    public var identifier: String
    /// The extension (no dot) files of this type are saved with and recognised by.
    public var preferredFilenameExtension: String
    /// The identifiers of more general types this one is a kind of, such as `public.json`.
    public var conformsTo: [String]

    /// A content type; give the extension without its dot.
    public init(identifier: String, preferredFilenameExtension: String, conformsTo: [String] = []) {
        self.identifier = identifier
        self.preferredFilenameExtension = preferredFilenameExtension
        self.conformsTo = conformsTo
    }

    /// The Cards app's card: JSON in a `.rwcard` file.
    public static let card = ContentType(
        identifier: "com.raywenderlich.rwcard", preferredFilenameExtension: "rwcard",
        conformsTo: ["public.json", "public.data"])
    /// Easel's own drawing: JSON in a `.drawing` file.
    public static let drawing = ContentType(
        identifier: "org.easel.drawing", preferredFilenameExtension: "drawing",
        conformsTo: ["public.json", "public.data"])

    /// True when `identifier` is this type's own or one it lists in `conformsTo`.
    public func conforms(to identifier: String) -> Bool {
        self.identifier == identifier || conformsTo.contains(identifier)
    }

    /// The type's identifier.
    public var description: String { identifier }
}
