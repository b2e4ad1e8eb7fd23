import EaselDocuments
import EaselRender
import EaselSupport
import FoundationEssentials
import Glibc

/// The rule that an export never destroys anything of the user's: an output may replace
/// only an earlier Easel output — never a document, never a file a document draws from,
/// never anything else that happens to sit where the output goes.
///
/// A file at the output path is an earlier output when the manifest records it, or when it
/// is a regular file of the output's own format (PNG, SVG or PDF by its first bytes) that
/// no document names. Documents and the files they reference are always protected.
public struct OutputProtection: Sendable {
    /// Real paths no output may replace: documents, their content files, their images.
    public private(set) var protectedPaths: Set<String> = []
    /// Real paths known to be earlier outputs (from the manifest).
    public var earlierOutputs: Set<String> = []

    public init() {}

    /// Protects a document and every file it references.
    public mutating func protect(_ located: LocatedDocument) {
        protectedPaths.insert(StateFolder.realPath(of: located.url))
        protectedPaths.insert(StateFolder.realPath(of: located.contentFile))
        for file in located.referencedFiles {
            if let path = file.path { protectedPaths.insert(StateFolder.realPath(of: URL(fileURLWithPath: path))) }
        }
    }

    /// Protects every document `registry` reads in `folder` (not below it) and the files
    /// they reference. A document that does not open protects its own file only.
    ///
    /// With `mentioning`, a document file whose bytes do not contain that plain name (letters,
    /// digits, `.`, `-`, `_`, spaces: written as is in JSON) nor any `\u` escape (which may
    /// spell it otherwise) cannot reference it and is not decoded, so re-exporting into a
    /// folder of many cards stays cheap. A folder that is itself a document (a drawing
    /// package) protects that document and its files too.
    public mutating func protectDocuments(in folder: URL, registry: DocumentRegistry, mentioning name: String? = nil) {
        if registry.isDocument(path: folder.lastPathComponent), FileIO.isFolder(folder.path),
            let package = try? registry.open(folder)
        {
            protect(package)
        }
        let plain = name.map { Array($0.utf8) }.flatMap { bytes in
            bytes.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || [0x2E, 0x2D, 0x5F, 0x20].contains($0)
            }
                ? bytes : nil
        }
        // Names straight from readdir (FileManager stats every entry: thousands in /tmp).
        let folderPath = folder.path
        let names = DocumentScanner.rawNames(in: folderPath).compactMap { String(validating: $0, as: UTF8.self) }
        // Paths as strings, the folder's links resolved once: a URL or two a document (made,
        // resolved, turned back into a path) took 10 µs each, 5 ms of a single export into
        // the app's folder of 500 cards. A URL is made only for a document that is opened.
        let resolvedFolder = StateFolder.resolvedFolder(folderPath)
        for entry in names {
            // By the name's extension alone, before anything else (every name in a folder
            // of thousands, /tmp say, is looked at).
            guard registry.isDocument(path: entry) else { continue }
            let path = PathNames.appending(entry, to: folderPath)
            protectedPaths.insert(
                resolvedFolder.map { StateFolder.realPath(of: entry, inResolvedFolder: $0) }
                    ?? StateFolder.realPath(of: URL(fileURLWithPath: path)))
            if let plain, let mentions = try? FileIO.fileContains(at: path, plain, maxBytes: 64 << 20), !mentions,
                let escapes = try? FileIO.fileContains(at: path, Array("\\u".utf8), maxBytes: 64 << 20), !escapes
            {
                continue
            }
            if let located = try? registry.open(folder.appendingPathComponent(entry)) { protect(located) }
        }
    }

    /// Why `target` must not be replaced by an output in `format`, or nil when it may be:
    /// nothing is there, or an earlier output is.
    public func refusal(toReplace target: URL, format: OutputFormat, registry: DocumentRegistry = .standard) -> String? {
        var status = stat()
        guard lstat(target.path, &status) == 0 else { return nil }
        let real = StateFolder.realPath(of: target)
        if protectedPaths.contains(real) || registry.isDocument(target) {
            return "it is a document or a file a document uses"
        }
        if earlierOutputs.contains(real) { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "it is a folder"
        case S_IFLNK: return "it is a symbolic link"
        default: return "it is not a regular file"
        }
        guard Self.looksLike(format, target) else { return "it is not an earlier \(format) output of Easel" }
        return nil
    }

    /// Throws unless exporting `located` to `output` in `format` is safe: the output would
    /// replace nothing, or only an earlier output (not the document, not a file it or any
    /// other document in the output's folder uses).
    public static func checkSingleExport(
        of located: LocatedDocument, to output: URL, format: OutputFormat, registry: DocumentRegistry = .standard
    ) throws(DocumentError) {
        try SingleExportCheck(output: output, format: format, registry: registry).check(of: located)
    }

    /// `checkSingleExport` in two steps, so that the slow one can be done while the document
    /// is still being read: looking through the output folder's documents for the output's
    /// name does not depend on the document (a single export's main thread does it while
    /// another core reads the document, which took 0.6–1.6 ms off a re-export's path).
    public struct SingleExportCheck: Sendable {
        let output: URL
        let format: OutputFormat
        let registry: DocumentRegistry
        /// What the output folder's documents protect, gathered when something was at the
        /// output path already (an output that replaces nothing needs no look).
        let folder: OutputProtection?

        /// Looks through the output folder's documents when something is at `output`.
        public init(output: URL, format: OutputFormat, registry: DocumentRegistry = .standard) {
            self.output = output
            self.format = format
            self.registry = registry
            var status = stat()
            folder = lstat(output.path, &status) == 0 ? Self.folderProtection(of: output, registry: registry) : nil
        }

        static func folderProtection(of output: URL, registry: DocumentRegistry) -> OutputProtection {
            var protection = OutputProtection()
            protection.protectDocuments(
                in: output.deletingLastPathComponent(), registry: registry, mentioning: output.lastPathComponent)
            return protection
        }

        /// Throws unless exporting `located` to the output is safe, as `checkSingleExport` says.
        public func check(of located: LocatedDocument) throws(DocumentError) {
            var status = stat()
            guard lstat(output.path, &status) == 0 else { return }
            // The document's own refusals first (the document itself, its images, anything
            // not an earlier output), then the folder's documents'.
            var protection = OutputProtection()
            protection.protect(located)
            if let reason = protection.refusal(toReplace: output, format: format, registry: registry) {
                throw error(replacing: output, by: located.url, because: reason)
            }
            // Something may have appeared at the output since the folder was looked at.
            var folderWide = folder ?? Self.folderProtection(of: output, registry: registry)
            folderWide.protect(located)
            if let reason = folderWide.refusal(toReplace: output, format: format, registry: registry) {
                throw error(replacing: output, by: located.url, because: reason)
            }
        }
    }

    /// The refusal as an error naming both files and what to do.
    public static func error(replacing target: URL, by document: URL, because reason: String) -> DocumentError {
        DocumentError(
            file: document.path,
            kind: .io(
                "the output \(target.path) would replace an existing file, and \(reason); nothing was written — choose another output path, or move that file away"
            ))
    }

    /// Whether the file at `url` starts as a file of `format` does.
    static func looksLike(_ format: OutputFormat, _ url: URL) -> Bool {
        guard let head = FileIO.head(of: url.path, count: 512) else { return false }
        switch format {
        case .png: return head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case .pdf: return head.starts(with: Array("%PDF-".utf8))
        case .svg: return String(decoding: head, as: UTF8.self).contains("<svg")
        }
    }
}
