import EaselGeometry
import EaselSupport
import FoundationEssentials
import Glibc

extension Drawing: FileDocument {
    /// Drawings are read and written only as `.drawing` files (or package folders).
    public static var readableContentTypes: [ContentType] { [.drawing] }
    /// The largest drawing file read, in bytes (`DrawingLimits.maxFileBytes`).
    public static var maxFileBytes: Int { DrawingLimits.maxFileBytes }

    /// The JSON file inside a package-folder drawing (`Name.drawing/drawing.json`), whose
    /// images sit beside it in the package.
    public static let packageDocumentName = "drawing.json"

    /// Reads drawing JSON from memory (an undo step, an element checked alone), naming `file`
    /// in errors and warnings, as `init(configuration:warnings:)` reads a file.
    public init(decoding bytes: [UInt8], file: String, warnings: inout [DocumentWarning]) throws(DocumentError) {
        self = try DrawingDecoder.decode(bytes, file: file, warnings: &warnings)
    }

    /// Bytes with a `graphics` key in their first mebibyte (a drawing's list of graphics).
    public static func recognizes(contentsOf bytes: [UInt8]) -> Bool {
        String(decoding: bytes.prefix(1 << 20), as: UTF8.self).contains("\"graphics\"")
    }

    /// Reads a drawing file, or a package folder's `drawing.json`; throws for a package
    /// without one, bad JSON or a value out of `DrawingLimits`.
    public init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        let bytes: [UInt8]
        switch configuration.file {
        case .regularFile(let contents):
            bytes = contents
        case .directory(let children):
            guard let contents = children[Self.packageDocumentName]?.regularFileContents else {
                throw DocumentError(
                    file: configuration.displayName,
                    kind: .io(
                        "a drawing package folder must contain \(Self.packageDocumentName) as a file of its own (not a symbolic link)"
                    ))
            }
            bytes = contents
        }
        self = try DrawingDecoder.decode(bytes, file: configuration.displayName, warnings: &warnings)
    }

    /// The drawing as JSON in the current format; a package folder stays a package, with only
    /// its `drawing.json` replaced.
    public func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        let json = FileWrapper.regularFile(DrawingEncoder.encode(self))
        // A package stays a package: only its JSON is replaced; the images beside it stay.
        if case .directory? = configuration.existingFile {
            return .directory([Self.packageDocumentName: json])
        }
        return json
    }

    /// The file holding a document's JSON: a package folder's `drawing.json`, or the file
    /// itself. What changes when the document is saved.
    public static func contentFile(for url: URL) -> URL {
        if FileIO.isFolder(url.path) {
            return url.appendingPathComponent(packageDocumentName)
        }
        return url
    }

    /// The folder a drawing's images are resolved in: the package itself, or the folder
    /// holding the drawing file.
    public static func resourceFolder(for url: URL) -> URL {
        if FileIO.isFolder(url.path) { return url }
        return url.deletingLastPathComponent()
    }

    /// The image files the drawing uses, groups included, each name once.
    public var referencedFileNames: [String] {
        var names: [String] = []
        var seen = Set<String>()
        func collect(_ graphics: [Graphic]) {
            for graphic in graphics {
                switch graphic.kind {
                case .image(let file): if seen.insert(file).inserted { names.append(file) }
                case .group(let children): collect(children)
                default: break
                }
            }
        }
        collect(graphics)
        return names
    }
}
