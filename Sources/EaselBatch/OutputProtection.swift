import EaselDocuments
import EaselRender
import EaselSupport
import Foundation

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
        protectedPaths.insert(Self.realPath(located.url))
        protectedPaths.insert(Self.realPath(located.contentFile))
        for file in located.referencedFiles {
            if let path = file.path { protectedPaths.insert(Self.realPath(URL(fileURLWithPath: path))) }
        }
    }

    /// Protects every document `registry` reads in `folder` (not below it) and the files
    /// they reference. A document that does not open protects its own file only.
    public mutating func protectDocuments(in folder: URL, registry: DocumentRegistry) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard registry.isDocument(url) else { continue }
            protectedPaths.insert(Self.realPath(url))
            if let located = try? registry.open(url) { protect(located) }
        }
    }

    /// Why `target` must not be replaced by an output in `format`, or nil when it may be:
    /// nothing is there, or an earlier output is.
    public func refusal(toReplace target: URL, format: OutputFormat, registry: DocumentRegistry = .standard) -> String? {
        var status = stat()
        guard lstat(target.path, &status) == 0 else { return nil }
        let real = Self.realPath(target)
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
        var status = stat()
        guard lstat(output.path, &status) == 0 else { return }
        var protection = OutputProtection()
        protection.protect(located)
        protection.protectDocuments(in: output.deletingLastPathComponent(), registry: registry)
        if let reason = protection.refusal(toReplace: output, format: format, registry: registry) {
            throw error(replacing: output, by: located.url, because: reason)
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
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 512)) ?? Data())
        switch format {
        case .png: return head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case .pdf: return head.starts(with: Array("%PDF-".utf8))
        case .svg: return String(decoding: head, as: UTF8.self).contains("<svg")
        }
    }

    /// The path with the symbolic links of its folder resolved (the file itself may be a
    /// link or not exist).
    static func realPath(_ url: URL) -> String {
        StateFolder.realPath(of: url)
    }
}
