import Foundation
import EaselDocuments

/// Finds the documents in a folder tree, by extension.
enum DocumentScanner {
    /// Relative paths of every document below `folder`, sorted; hidden files are skipped
    /// and symbolic links are not followed out of the tree.
    static func documents(in folder: URL, registry: DocumentRegistry) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") { continue }
            let url = folder.appendingPathComponent(relative)
            var status = stat()
            guard lstat(url.path, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            guard registry.isDocument(url), kind == S_IFREG || kind == S_IFDIR else { continue }
            found.append(relative)
            // A package-folder drawing is one document: do not look inside it.
            if kind == S_IFDIR { enumerator.skipDescendants() }
        }
        return found.sorted()
    }
}
