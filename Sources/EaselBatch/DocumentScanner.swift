import EaselDocuments
import FoundationEssentials
import Glibc

/// Finds the documents below a folder, by extension: `old.rwcard.bak` and extension-less
/// image files are not documents. Hidden files and folders are skipped, symbolic links are
/// not followed (no loops, no escaping the tree), a package-folder drawing is one document,
/// and excluded paths are left out with everything below them.
///
/// Nothing named like a document is dropped without a word: a symbolic link, a pipe or
/// device, or a name that is not valid UTF-8 is listed with the reason it is not exported.
public enum DocumentScanner {
    /// One entry of a scan: a document, or something named like one that cannot be exported.
    public struct Entry: Hashable, Sendable {
        /// The path relative to the scanned folder, with "/" separators (bytes that are not
        /// UTF-8 are shown as `\xNN`).
        public var relativePath: String
        /// Why it is not exported; nil for a document.
        public var problem: String?
    }

    /// Relative paths of the documents below `root`, sorted.
    public static func documents(in root: URL, registry: DocumentRegistry = .standard, excluding excluded: [URL] = []) -> [String]
    {
        scan(root, registry: registry, excluding: excluded).filter { $0.problem == nil }.map(\.relativePath)
    }

    /// Every document below `root`, and every entry named like one that cannot be
    /// exported, sorted by path.
    public static func scan(_ root: URL, registry: DocumentRegistry = .standard, excluding excluded: [URL] = []) -> [Entry] {
        let excludedPaths = Set(excluded.map { $0.standardizedFileURL.path })
        var found: [Entry] = []
        var pending: [(url: URL, relative: String)] = [(root.standardizedFileURL, "")]
        while let (folder, relativeFolder) = pending.popLast() {
            for rawName in rawNames(in: folder.path) where rawName.first != UInt8(ascii: ".") {
                guard let name = String(validating: rawName, as: UTF8.self) else {
                    let shown = relativeFolder.isEmpty ? escaped(rawName) : relativeFolder + "/" + escaped(rawName)
                    if looksLikeDocument(rawName, registry: registry) {
                        found.append(
                            Entry(relativePath: shown, problem: "the file name is not valid UTF-8; rename it to export it"))
                    } else if isFolder(folder.path, rawName) {
                        found.append(
                            Entry(
                                relativePath: shown,
                                problem: "the folder name is not valid UTF-8, so it was not searched; rename it"))
                    }
                    continue
                }
                let url = folder.appendingPathComponent(name)
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                if excludedPaths.contains(url.standardizedFileURL.path) { continue }
                var status = stat()
                guard lstat(url.path, &status) == 0 else { continue }
                let isDocument = registry.isDocument(url)
                switch status.st_mode & S_IFMT {
                case S_IFREG:
                    if isDocument { found.append(Entry(relativePath: relative)) }
                case S_IFDIR:
                    if isDocument && registry.isPackage(url) {
                        found.append(Entry(relativePath: relative))  // a package (a drawing folder)
                    } else if isDocument {
                        // Named like a type that is never a folder (a card): the app looks
                        // inside it for cards, and so does the scan.
                        found.append(
                            Entry(
                                relativePath: relative,
                                problem: "is a folder, not a \(url.pathExtension) file; the documents inside it are scanned"))
                        pending.append((url, relative))
                    } else {
                        pending.append((url, relative))
                    }
                case S_IFLNK:
                    if isDocument {
                        found.append(
                            Entry(
                                relativePath: relative,
                                problem:
                                    "is a symbolic link, which a folder scan does not follow (export, validate and golden alike); name the file it leads to instead"
                            ))
                    }
                default:
                    if isDocument {
                        found.append(
                            Entry(
                                relativePath: relative,
                                problem: "is not a regular file (a pipe, device or socket); it was not read"))
                    }
                }
            }
        }
        return found.sorted { $0.relativePath < $1.relativePath }
    }

    /// The names in a folder as the file system stores them (bytes, not always UTF-8).
    static func rawNames(in folder: String) -> [[UInt8]] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in Array(buffer.prefix { $0 != 0 }) }
            if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
        }
        return names
    }

    static func looksLikeDocument(_ rawName: [UInt8], registry: DocumentRegistry) -> Bool {
        let lowered = rawName.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        return registry.supportedExtensions.contains {
            lowered.count > $0.utf8.count + 1
                && lowered.suffix($0.utf8.count + 1).elementsEqual(Array(("." + $0.lowercased()).utf8))
        }
    }

    static func isFolder(_ folder: String, _ rawName: [UInt8]) -> Bool {
        var path = Array(folder.utf8) + [UInt8(ascii: "/")] + rawName + [0]
        var status = stat()
        return path.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { lstat($0, &status) }
        } == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// A name with bytes that are not printable ASCII or valid UTF-8 shown as `\xNN`.
    static func escaped(_ rawName: [UInt8]) -> String {
        rawName.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(printf: "\\x%02X", $0) }.joined()
    }
}
