import EaselGeometry
import Foundation
import EaselDocuments

/// Finds the documents below a folder, by extension: `old.rwcard.bak` and extension-less
/// image files are not documents. Hidden files and folders are skipped, symbolic links to
/// folders are not followed (no loops, no escaping the tree), a package-folder drawing is
/// one document, and excluded paths are left out with everything below them.
public enum DocumentScanner {
    /// Relative paths (with "/" separators) of the documents below `root`, sorted.
    public static func documents(in root: URL, registry: DocumentRegistry = .standard, excluding excluded: [URL] = []) -> [String]
    {
        let excludedPaths = Set(excluded.map { $0.standardizedFileURL.path })
        var found: [String] = []
        var pending: [(url: URL, relative: String)] = [(root.standardizedFileURL, "")]
        while let (folder, relativeFolder) = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                if excludedPaths.contains(url.standardizedFileURL.path) { continue }
                var status = stat()
                guard lstat(url.path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFREG:
                    if registry.isDocument(url) { found.append(relative) }
                case S_IFDIR:
                    if registry.isDocument(url) { found.append(relative) } else { pending.append((url, relative)) }
                default:
                    continue  // symbolic links, devices, sockets
                }
            }
        }
        return found.sorted()
    }
}
