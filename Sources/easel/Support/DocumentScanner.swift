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
            guard lstat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            if registry.isDocument(url) { found.append(relative) }
        }
        return found.sorted()
    }
}
