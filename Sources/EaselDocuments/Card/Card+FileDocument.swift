import EaselGeometry
import EaselSupport
import FoundationEssentials

extension Card: FileDocument {
    /// Cards are read and written only as `.rwcard` files.
    public static var readableContentTypes: [ContentType] { [.card] }
    /// The largest card file read, in bytes (`CardLimits.maxFileBytes`).
    public static var maxFileBytes: Int { CardLimits.maxFileBytes }

    /// Reads a `.rwcard` file as any edition of the Cards app writes it; throws for a folder,
    /// bad JSON or a value out of `CardLimits`.
    public init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        self = try CardDecoder.decode(
            configuration.regularFileBytes(), file: configuration.displayName,
            fileNameID: UUID(uuidString: configuration.fileURL.deletingPathExtension().lastPathComponent), warnings: &warnings)
    }

    /// Reads `.rwcard` bytes from memory (an undo step, an element checked alone), naming
    /// `file` in errors and warnings, as `init(configuration:warnings:)` reads a file.
    public init(decoding bytes: [UInt8], file: String, warnings: inout [DocumentWarning]) throws(DocumentError) {
        self = try CardDecoder.decode(bytes, file: file, warnings: &warnings)
    }

    /// Bytes with an `imageElements` key in their first mebibyte: every card has one, and
    /// no drawing.
    public static func recognizes(contentsOf bytes: [UInt8]) -> Bool {
        String(decoding: bytes.prefix(1 << 20), as: UTF8.self).contains("\"imageElements\"")
    }

    /// The card as `.rwcard` JSON the Cards app reads; throws when a custom clip shape has
    /// no index in the app's library.
    public func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        .regularFile(try CardEncoder.encode(self, file: configuration.fileURL.path))
    }

    /// The image files the card's image elements name, each once.
    public var referencedFileNames: [String] {
        var seen = Set<String>()
        return imageElements.compactMap(\.imageFilename).filter { seen.insert($0).inserted }
    }
}
