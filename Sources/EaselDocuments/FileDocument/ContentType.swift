import EaselGeometry
import EaselSupport
/// A document content type, in the spirit of Apple's `UTType` (which Linux lacks): an
/// identifier, the file extension it is saved with, and the types it conforms to.
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    public var identifier: String
    public var preferredFilenameExtension: String
    public var conformsTo: [String]

    public init(identifier: String, preferredFilenameExtension: String, conformsTo: [String] = []) {
        self.identifier = identifier
        self.preferredFilenameExtension = preferredFilenameExtension
        self.conformsTo = conformsTo
    }

    /// The Cards app's card: JSON in a `.rwcard` file.
    public static let card = ContentType(identifier: "com.raywenderlich.rwcard", preferredFilenameExtension: "rwcard",
                                         conformsTo: ["public.json", "public.data"])
    /// Easel's own drawing: JSON in a `.drawing` file.
    public static let drawing = ContentType(identifier: "org.easel.drawing", preferredFilenameExtension: "drawing",
                                            conformsTo: ["public.json", "public.data"])

    public func conforms(to identifier: String) -> Bool {
        self.identifier == identifier || conformsTo.contains(identifier)
    }

    public var description: String { identifier }
}
