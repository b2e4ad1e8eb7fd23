import EaselGeometry
import EaselSupport
import FoundationEssentials

/// A document together with where it lives: made once when the file is opened and passed
/// along, so no later code works out a document's folder from its URL again.
public struct LocatedDocument: Sendable {
    /// The document value.
    public var document: any FileDocument
    /// The file (or package folder) it was opened from or will be saved to.
    public let url: URL
    /// The content type it was read as.
    public let contentType: ContentType
    /// The folder its images and other resources resolve from (a card's folder, a drawing
    /// package itself).
    public let resourceFolder: URL
    /// The file whose bytes are the document (a package's `drawing.json`, or `url`).
    public let contentFile: URL
    /// What was odd about it when it was opened (a legacy card, an invalid id).
    public var warnings: [DocumentWarning]

    /// Places `document` at `url`, with the folders its type says.
    public init(_ document: any FileDocument, at url: URL, contentType: ContentType, warnings: [DocumentWarning] = []) {
        let location = DocumentLocation(type: type(of: document), url: url)
        self.document = document
        self.url = url
        self.contentType = contentType
        self.resourceFolder = location.resourceFolder
        self.contentFile = location.contentFile
        self.warnings = warnings
    }

    /// Places a document made in memory at `url` (for resolving its images), as its type's
    /// first writable content type.
    public init(_ document: any FileDocument, at url: URL) {
        let type = type(of: document)
        self.init(document, at: url, contentType: type.writableContentTypes.first ?? type.readableContentTypes[0])
    }

    /// The name errors and warnings use for the document.
    /// As the user named it: a relative path stays relative.
    public var displayName: String { url.relativePath }

    /// The files the document draws from, each resolved in its resource folder.
    public var referencedFiles: [ReferencedFile] {
        document.referencedFileNames.map {
            ReferencedFile(name: $0, resolution: FolderFileResolver.resolve($0, inFolder: resourceFolder), folder: resourceFolder)
        }
    }
}

/// Where a document keeps its content and resources, as its type says.
public struct DocumentLocation: Hashable, Sendable {
    /// The folder its resources resolve from.
    public var resourceFolder: URL
    /// The file whose bytes are the document.
    public var contentFile: URL

    init(type: any FileDocument.Type, url: URL) {
        resourceFolder = type.resourceFolder(for: url)
        contentFile = type.contentFile(for: url)
    }
}

/// A file a document draws from, by the name the document gives, and where it is looked
/// for: a missing file keeps the path it would have (if it appears later, the output must
/// change); a refused name (`../x`) has no path, since it is never read.
public struct ReferencedFile: Hashable, Sendable {
    /// The name as the document spells it.
    public var name: String
    /// Where it is (or would be) read from; nil when the name is refused.
    public var path: String?

    /// A referenced file named `name` and read from `path` (nil when the name is refused).
    public init(name: String, path: String?) {
        self.name = name
        self.path = path
    }

    init(name: String, resolution: FolderFileResolver.Resolution, folder: URL) {
        self.name = name
        switch resolution {
        case .file(let file): path = file.path
        case .missing: path = folder.appendingPathComponent(name).path
        case .refused: path = nil
        }
    }
}
