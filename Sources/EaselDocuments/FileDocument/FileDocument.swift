import Foundation

/// Easel's document protocol, modelled on SwiftUI's `FileDocument`: a document type says
/// which content types it reads and writes, is made from a read configuration, and makes a
/// file wrapper for a write configuration. Card and Drawing conform; library users can
/// conform their own types and register them with `DocumentRegistry`.
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
}

extension FileDocument {
    public static var writableContentTypes: [ContentType] { readableContentTypes }
    public static var maxFileBytes: Int { 64 << 20 }

    public init(configuration: ReadConfiguration) throws(DocumentError) {
        var ignored: [DocumentWarning] = []
        try self.init(configuration: configuration, warnings: &ignored)
    }
}

/// What a document is read from.
public struct ReadConfiguration: Sendable {
    public var contentType: ContentType
    public var file: FileWrapper
    /// Where the document lives, so that it can resolve sibling files (a card's images).
    /// Also the name used in error messages.
    public var fileURL: URL

    public init(contentType: ContentType, file: FileWrapper, fileURL: URL) {
        self.contentType = contentType
        self.file = file
        self.fileURL = fileURL
    }

    /// The name errors and warnings use for the file.
    public var displayName: String { fileURL.path }

    /// The bytes of a regular file; throws when the document is a folder.
    public func regularFileBytes() throws(DocumentError) -> [UInt8] {
        guard let bytes = file.regularFileContents else {
            throw DocumentError(file: displayName, kind: .io("is a folder, expected a \(contentType.preferredFilenameExtension) file"))
        }
        return bytes
    }
}

/// What a document is written for.
public struct WriteConfiguration: Sendable {
    public var contentType: ContentType
    /// The file as it is on disk now, if any.
    public var existingFile: FileWrapper?
    /// Where the document will be written (for error messages).
    public var fileURL: URL

    public init(contentType: ContentType, existingFile: FileWrapper? = nil, fileURL: URL) {
        self.contentType = contentType
        self.existingFile = existingFile
        self.fileURL = fileURL
    }
}
