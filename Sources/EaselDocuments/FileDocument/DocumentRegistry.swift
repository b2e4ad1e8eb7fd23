import EaselGeometry
import EaselSupport
import FoundationEssentials
import Glibc

/// The document types Easel knows, like an app's declared document types: any supported
/// file opens by its extension. Library users can register their own types.
public struct DocumentRegistry: Sendable {
    /// One registered file type: the content type and the document type that reads it.
    public struct Entry: Sendable {
        /// The content type, whose extension selects this entry.
        public var contentType: ContentType
        /// The document type that opens files of that content type.
        public var documentType: any FileDocument.Type
    }

    /// Every registered file type, in registration order, at most one per extension.
    public private(set) var entries: [Entry] = []

    /// An empty registry that opens nothing; see `standard` for Easel's own types.
    public init() {}

    /// Card (`.rwcard`) and Drawing (`.drawing`).
    public static var standard: DocumentRegistry {
        var registry = DocumentRegistry()
        registry.register(Card.self)
        registry.register(Drawing.self)
        return registry
    }

    /// Adds every readable content type of `type`; a later registration of the same
    /// extension wins.
    public mutating func register<D: FileDocument>(_ type: D.Type) {
        for contentType in type.readableContentTypes {
            entries.removeAll { $0.contentType.preferredFilenameExtension == contentType.preferredFilenameExtension }
            entries.append(Entry(contentType: contentType, documentType: type))
        }
    }

    /// The extensions (without dots) of every registered type, for messages and file scans.
    public var supportedExtensions: [String] { entries.map(\.contentType.preferredFilenameExtension) }

    /// The entry for a file, by its extension (case-insensitive). `old.rwcard.bak` is not a card.
    public func entry(for url: URL) -> Entry? {
        let ext = url.pathExtension.lowercased()
        guard !ext.isEmpty else { return nil }
        return entries.first { $0.contentType.preferredFilenameExtension.lowercased() == ext }
    }

    /// True when a registered type reads files with `url`'s extension; the file is not read.
    public func isDocument(_ url: URL) -> Bool { entry(for: url) != nil }

    /// `isDocument` for a path as typed (a file, or a package folder with or without a `/`
    /// after it), without making a URL: a new process's first URLs cost a few tenths of a
    /// millisecond, which a single export's early opening of its document would wait for.
    /// Read byte by byte (an export looks at every name in its output's folder: thousands in
    /// /tmp, where Unicode-aware string slicing took most of a single export's time).
    public func isDocument(path: String) -> Bool {
        let (slashByte, dotByte) = (UInt8(ascii: "/"), UInt8(ascii: "."))
        var name = path.utf8[...]
        while name.count > 1, name.last == slashByte { name = name.dropLast() }
        if let slash = name.lastIndex(of: slashByte) { name = name[name.index(after: slash)...] }
        // As URL's pathExtension: after the last dot, which neither starts nor ends the name.
        guard let dot = name.lastIndex(of: dotByte), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
            return false
        }
        let ext = name[name.index(after: dot)...]
        // Beyond ASCII, lowercasing is Unicode's (a Kelvin sign lowercases to "k").
        guard ext.allSatisfy({ $0 < 0x80 }) else {
            let lowered = String(Substring(ext)).lowercased()
            return entries.contains { $0.contentType.preferredFilenameExtension.lowercased() == lowered }
        }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return entries.contains { entry in
            let registered = entry.contentType.preferredFilenameExtension.utf8
            return registered.count == ext.count && zip(registered, ext).allSatisfy { lower($0) == lower($1) }
        }
    }

    /// Where the document at `url` keeps its content and resources, as its registered type
    /// says, without reading it (the batch exporter's up-to-date check uses this); nil for a
    /// file no registered type reads.
    public func location(of url: URL) -> DocumentLocation? {
        entry(for: url).map { DocumentLocation(type: $0.documentType, url: url) }
    }

    /// Whether the document at `url` is a package: a folder whose content is a file inside
    /// it (a drawing package), as its type says for what is there now.
    package func isPackage(_ url: URL) -> Bool {
        guard let location = location(of: url) else { return false }
        return location.contentFile.standardizedFileURL != url.standardizedFileURL
    }

    /// Opens the document at `url` as whatever type its extension names: the value, where
    /// it lives, where its resources resolve from, and the warnings noticed on the way.
    public func open(_ url: URL) throws(DocumentError) -> LocatedDocument {
        try openReadingContent(url).located
    }

    /// Opens the document at `url` as `open` does, and gives the bytes of its content file
    /// from the same read (nil when the package has none): a revision hashed from them names
    /// exactly the version that was opened, even when the file is replaced meanwhile.
    package func openReadingContent(_ url: URL) throws(DocumentError) -> (located: LocatedDocument, content: [UInt8]?) {
        guard let entry = entry(for: url) else {
            throw DocumentError(
                file: url.relativePath, kind: .unsupportedType(fileExtension: url.pathExtension, supported: supportedExtensions))
        }
        let file: FileWrapper
        do {
            // Of a package, its content file alone.
            file = try FileWrapper(
                contentsOf: url, maxBytes: entry.documentType.maxFileBytes,
                onlyReading: [entry.documentType.contentFile(for: url).lastPathComponent])
        } catch var error {
            // Named as the document was given (`in/a.rwcard`), as its other errors are.
            if error.file == url.path { error.file = url.relativePath }
            throw error
        }
        let configuration = ReadConfiguration(contentType: entry.contentType, file: file, fileURL: url)
        var warnings: [DocumentWarning] = []
        let document = try entry.documentType.init(configuration: configuration, warnings: &warnings)
        let located = LocatedDocument(document, at: url, contentType: entry.contentType, warnings: warnings)
        return (located, file.content(at: entry.documentType.contentFile(for: url), of: url))
    }

    /// Opens a single-file document given as bytes with no file of its own (standard input,
    /// a request body), as if it were the file `name` in `folder` (where its images are then
    /// looked for; `name` also names it in errors). Its type is the one `name`'s extension
    /// registers; failing that, the first registered type that recognizes the bytes
    /// (`FileDocument.recognizes(contentsOf:)`); failing that, the last registered type,
    /// whose error then says what is wrong.
    public func open(bytes: [UInt8], name: String, in folder: URL) throws(DocumentError) -> LocatedDocument {
        // Relative to the folder: named in messages as given, resolved in the folder.
        let base = URL(fileURLWithPath: folder.path, isDirectory: true)
        let named = URL(fileURLWithPath: name, relativeTo: base)
        guard
            let entry = entry(for: named) ?? entries.first(where: { $0.documentType.recognizes(contentsOf: bytes) })
                ?? entries.last
        else {
            throw DocumentError(file: name, kind: .unsupportedType(fileExtension: "", supported: supportedExtensions))
        }
        guard bytes.count <= entry.documentType.maxFileBytes else {
            throw DocumentError(
                file: name,
                kind: .limitExceeded("\(bytes.count) bytes, over the limit of \(entry.documentType.maxFileBytes) bytes"))
        }
        let ext = entry.contentType.preferredFilenameExtension
        let url = named.pathExtension == ext ? named : URL(fileURLWithPath: "\(name).\(ext)", relativeTo: base)
        let configuration = ReadConfiguration(contentType: entry.contentType, file: .regularFile(bytes), fileURL: url)
        var warnings: [DocumentWarning] = []
        let document = try entry.documentType.init(configuration: configuration, warnings: &warnings)
        return LocatedDocument(document, at: url, contentType: entry.contentType, warnings: warnings)
    }

    /// Places a document made in memory at `url` (not yet saved), as the content type the
    /// extension names; throws when the type cannot be written there.
    public func locate(_ document: any FileDocument, at url: URL) throws(DocumentError) -> LocatedDocument {
        LocatedDocument(document, at: url, contentType: try writableEntry(for: document, at: url).contentType)
    }

    /// Saves a located document to its URL atomically.
    public func save(_ located: LocatedDocument) throws(DocumentError) {
        try save(located.document, to: located.url)
    }

    /// Saves `document` to `url` atomically, as the content type its extension names.
    /// Refuses, writing nothing, a file Easel could not open again (over the size limit).
    public func save(_ document: any FileDocument, to url: URL) throws(DocumentError) {
        try fileWrapper(for: document, at: url).write(to: url)
    }

    /// The file wrapper `document` saves as at `url`, checked to be openable again: what
    /// `save` writes, for callers that write it together with other files.
    public func fileWrapper(for document: any FileDocument, at url: URL) throws(DocumentError) -> FileWrapper {
        let entry = try writableEntry(for: document, at: url)
        var status = stat()
        let existing: FileWrapper? =
            lstat(url.path, &status) != 0 ? nil : ((status.st_mode & S_IFMT) == S_IFDIR ? .directory([:]) : .regularFile([]))
        let wrapper = try document.fileWrapper(
            configuration: WriteConfiguration(contentType: entry.contentType, existingFile: existing, fileURL: url))
        try Self.checkReadable(wrapper, as: type(of: document), at: url)
        return wrapper
    }

    /// Throws, before anything is written, when saving `wrapper` would make a file that
    /// Easel itself refuses to open (over the type's `maxFileBytes`).
    public static func checkReadable(_ wrapper: FileWrapper, as type: any FileDocument.Type, at url: URL) throws(DocumentError) {
        let largest = wrapper.largestRegularFileSize
        guard largest <= type.maxFileBytes else {
            throw DocumentError(
                file: url.relativePath,
                kind: .limitExceeded(
                    "saving would write a file of \(largest) bytes, over the \(type.maxFileBytes) bytes Easel opens; nothing was saved (remove elements or shorten texts to make it smaller)"
                ))
        }
    }

    /// The entry `document` is saved as at `url`; throws when its type cannot write that extension.
    private func writableEntry(for document: any FileDocument, at url: URL) throws(DocumentError) -> Entry {
        guard let entry = entry(for: url), type(of: document).writableContentTypes.contains(entry.contentType) else {
            throw DocumentError(
                file: url.relativePath,
                kind: .unsupportedType(
                    fileExtension: url.pathExtension,
                    supported: type(of: document).writableContentTypes.map(\.preferredFilenameExtension)))
        }
        return entry
    }
}
