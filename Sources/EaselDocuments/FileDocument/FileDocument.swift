import EaselGeometry
import EaselSupport
import FoundationEssentials

/// Easel's document protocol, modelled on SwiftUI's `FileDocument`: a document type says
/// which content types it reads and writes, is made from a read configuration, makes a
/// file wrapper for a write configuration, and says where its resources live and which
/// files it draws from. Card and Drawing conform; library users can conform their own
/// types and register them with `DocumentRegistry`.
///
/// A type says everything else about itself by conforming to the protocols of the rooms
/// above: `RenderableDocument` (EaselRender: how it lowers to a scene) and
/// `EditableDocument` (EaselEditing: how its elements are edited). Every path that opens
/// documents (export, batch, golden, edit) goes through the registry and those protocols,
/// so a registered third type works everywhere Card and Drawing do.
public protocol FileDocument: Sendable {
    static var readableContentTypes: [ContentType] { get }
    static var writableContentTypes: [ContentType] { get }
    /// The largest file of this type that is read; a larger one is refused from its size,
    /// before any of it is read.
    static var maxFileBytes: Int { get }

    /// Reads the document. Recoverable problems (a legacy file that was upgraded, an
    /// invalid id) are appended to `warnings`; unrecoverable ones throw.
    init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError)

    /// The file contents for saving.
    func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper

    /// The files this document draws from (its images), by the names the document gives
    /// them; they are looked up in its resource folder. Each name once, in first-use order.
    var referencedFileNames: [String] { get }

    /// The folder the resources of the document at `url` resolve from: by default the
    /// folder holding the file.
    static func resourceFolder(for url: URL) -> URL

    /// The file whose bytes are the document at `url` (what changes when it is saved): by
    /// default the file itself.
    static func contentFile(for url: URL) -> URL

    /// Whether `bytes`, which came without a file name (standard input, a request body),
    /// look like a file of this type: `DocumentRegistry.open(bytes:name:in:)` reads them as
    /// the first registered type that says so. A quick look, not a read: by default no.
    static func recognizes(contentsOf bytes: [UInt8]) -> Bool
}

extension FileDocument {
    /// By default a type writes every content type it reads.
    public static var writableContentTypes: [ContentType] { readableContentTypes }
    /// By default files up to 64 MiB are read.
    public static var maxFileBytes: Int { 64 << 20 }
    /// By default a document draws from no other files.
    public var referencedFileNames: [String] { [] }
    /// By default resources resolve from the folder that holds the document.
    public static func resourceFolder(for url: URL) -> URL { url.deletingLastPathComponent() }
    /// By default the document's bytes are the file at `url` itself.
    public static func contentFile(for url: URL) -> URL { url }
    /// By default a type does not claim bytes that came without a name.
    public static func recognizes(contentsOf bytes: [UInt8]) -> Bool { false }

    /// Reads the document, discarding any warnings; throws what the reading initialiser throws.
    public init(configuration: ReadConfiguration) throws(DocumentError) {
        var ignored: [DocumentWarning] = []
        try self.init(configuration: configuration, warnings: &ignored)
    }
}

/// What a document is read from.
public struct ReadConfiguration: Sendable {
    /// The content type the file is being read as (chosen by its extension).
    public var contentType: ContentType
    /// The file's contents: a regular file's bytes, or a package folder's tree.
    public var file: FileWrapper
    /// Where the document lives, so that it can resolve sibling files (a card's images).
    /// Also the name used in error messages.
    public var fileURL: URL

    /// A read configuration for contents already in memory (`file`) that came from `fileURL`.
    public init(contentType: ContentType, file: FileWrapper, fileURL: URL) {
        self.contentType = contentType
        self.file = file
        self.fileURL = fileURL
    }

    /// The name errors and warnings use for the file.
    public var displayName: String { fileURL.relativePath }

    /// The bytes of a regular file; throws when the document is a folder.
    public func regularFileBytes() throws(DocumentError) -> [UInt8] {
        guard let bytes = file.regularFileContents else {
            throw DocumentError(
                file: displayName, kind: .io("is a folder, expected a \(contentType.preferredFilenameExtension) file"))
        }
        return bytes
    }
}

/// What a document is written for.
public struct WriteConfiguration: Sendable {
    /// The content type to write (chosen by the destination's extension).
    public var contentType: ContentType
    /// What is on disk now, if anything: its kind only — `.regularFile([])` for a file,
    /// `.directory([:])` for a folder (a drawing package stays a package) — not its contents,
    /// so saving a large document does not read it again first.
    public var existingFile: FileWrapper?
    /// Where the document will be written (for error messages).
    public var fileURL: URL

    /// A write configuration for saving to `fileURL`; pass `existingFile` when one is there.
    public init(contentType: ContentType, existingFile: FileWrapper? = nil, fileURL: URL) {
        self.contentType = contentType
        self.existingFile = existingFile
        self.fileURL = fileURL
    }
}
