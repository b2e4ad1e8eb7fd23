import EaselDocuments
import Foundation
import ZIPFoundation
import EaselSupport

/// A zip of a document and its images (`application/zip`), read in memory with
/// ZIPFoundation: the document is the one entry (a file, or a package folder) that a
/// registered type reads; its images are the files in its resource folder. Bounded
/// against zip bombs: at most `maxEntries` entries, each file at most `maxFileBytes`
/// decompressed and all of them `maxTotalBytes` (counted as they inflate, whatever the
/// headers claim); no absolute paths, `..`, or links. Its bytes are checked by
/// `ZipStructure` first: ZIPFoundation trusts a zip's offsets and traps on bad ones.
/// `package` so the zip fuzz target (Fuzz/) can read zips as the server does.
package enum ZipBody {
    /// What a zip body holds: the document and its images.
    package struct Contents {
        /// The document's path inside the zip ("card.rwcard", "Art.drawing").
        package var documentPath: String
        /// The document as a file wrapper (a package folder is a directory).
        package var document: FileWrapper
        /// The images, by the name the document uses (relative to its resource folder).
        package var images: [String: [UInt8]]
    }

    /// The most a zip may hold: entries, and bytes inflated per file and in all.
    package struct Limits {
        /// The most entries (files and folders).
        package var maxEntries: Int
        /// The most bytes one file inflates to.
        package var maxFileBytes: Int
        /// The most bytes all files inflate to together.
        package var maxTotalBytes: Int

        /// Limits of `maxEntries` entries, `maxFileBytes` a file and `maxTotalBytes` in all.
        package init(maxEntries: Int = 256, maxFileBytes: Int = 64 << 20, maxTotalBytes: Int = 256 << 20) {
            self.maxEntries = maxEntries
            self.maxFileBytes = maxFileBytes
            self.maxTotalBytes = maxTotalBytes
        }
    }

    private struct TooLarge: Error {}

    /// The document and images of the zip `body`, or a problem saying what is wrong with it.
    package static func read(_ body: [UInt8], registry: DocumentRegistry, limits: Limits = Limits()) throws(Problem)
        -> Contents
    {
        // ZIPFoundation traps on offsets past the body and spins on deflate streams that
        // run off its end: nothing reaches it that has not been checked byte by byte.
        try ZipStructure.check(body, limits: limits)
        let archive: Archive
        do {
            archive = try Archive(data: Data(body), accessMode: .read)
        } catch {
            throw Problem(.badRequest, "the body is not a zip archive that can be read (\(error))")
        }
        var files: [String: [UInt8]] = [:]
        var total = 0, count = 0
        for entry in archive {
            count += 1
            guard count <= limits.maxEntries else { throw tooManyEntries(limits) }
            let path = entry.path.hasSuffix("/") ? String(entry.path.dropLast()) : entry.path
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                throw Problem(.badRequest, "the zip entry \(entry.path.quotedForMessage) is not a plain relative path")
            }
            switch entry.type {
            case .directory: continue
            case .symlink: throw Problem(.badRequest, "the zip entry \(entry.path.quotedForMessage) is a symbolic link")
            case .file: break
            }
            var bytes: [UInt8] = []
            do {
                _ = try archive.extract(entry) { chunk in
                    bytes += chunk
                    total += chunk.count
                    if bytes.count > limits.maxFileBytes || total > limits.maxTotalBytes { throw TooLarge() }
                }
            } catch is TooLarge {
                throw tooLarge(limits)
            } catch {
                throw Problem(.badRequest, "the zip entry \(entry.path.quotedForMessage) cannot be read (\(error))")
            }
            // Two entries of one name: zip tools disagree on which wins, so neither is guessed.
            guard files.updateValue(bytes, forKey: path) == nil else {
                throw Problem(.badRequest, "the zip has two entries named \(path.quotedForMessage); send one of each")
            }
        }
        // The document: the shortest path a registered type reads (a package folder holds its own files).
        var candidates = Set<String>()
        for path in files.keys {
            let components = path.split(separator: "/")
            for length in 1...components.count {
                let prefix = components.prefix(length).joined(separator: "/")
                if registry.isDocument(URL(fileURLWithPath: "/" + prefix)) {
                    candidates.insert(prefix)
                    break
                }
            }
        }
        guard candidates.count == 1, let documentPath = candidates.first else {
            throw Problem(
                .badRequest,
                candidates.isEmpty
                    ? "the zip holds no document (a .rwcard or .drawing file, or a .drawing package folder)"
                    : "the zip holds \(candidates.count) documents (\(candidates.sorted().joined(separator: ", "))); send one")
        }
        let document: FileWrapper
        if let bytes = files[documentPath] {
            document = .regularFile(bytes)
        } else {
            document = directory(files, under: documentPath + "/")
        }
        // Images resolve in the document's resource folder, as they would on disk.
        let type = registry.entry(for: URL(fileURLWithPath: "/" + documentPath))!.documentType
        let resourceFolder = type.resourceFolder(for: URL(fileURLWithPath: "/zip/" + documentPath)).path
        let prefix = resourceFolder == "/zip" ? "" : String(resourceFolder.dropFirst("/zip/".count)) + "/"
        var images: [String: [UInt8]] = [:]
        for (path, bytes) in files where path.hasPrefix(prefix) && path != documentPath {
            images[String(path.dropFirst(prefix.count))] = bytes
        }
        return Contents(documentPath: documentPath, document: document, images: images)
    }

    /// The answer to a zip that inflates past `limits`.
    static func tooLarge(_ limits: Limits) -> Problem {
        Problem(
            .contentTooLarge,
            "the zip inflates past \(limits.maxFileBytes >> 20) MiB a file or \(limits.maxTotalBytes >> 20) MiB in all")
    }

    /// The answer to a zip of more than `limits.maxEntries` entries.
    static func tooManyEntries(_ limits: Limits) -> Problem {
        Problem(.contentTooLarge, "more than \(limits.maxEntries) entries in the zip")
    }

    /// The files below `prefix` as a directory wrapper, folders nested.
    private static func directory(_ files: [String: [UInt8]], under prefix: String) -> FileWrapper {
        var children: [String: FileWrapper] = [:]
        var folders = Set<String>()
        for (path, bytes) in files where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            if let slash = rest.firstIndex(of: "/") {
                folders.insert(String(rest[..<slash]))
            } else {
                children[String(rest)] = .regularFile(bytes)
            }
        }
        for folder in folders { children[folder] = directory(files, under: prefix + folder + "/") }
        return .directory(children)
    }
}
