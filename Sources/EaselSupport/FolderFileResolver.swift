import FoundationEssentials
import Glibc

/// Finds the file behind a name a document gives (a card's image), inside the document's own folder only.
/// A name with a path separator, `..`, an absolute path, a NUL byte, or a symlink that
/// leads outside the folder is refused: a card must never make Easel read other files.
package enum FolderFileResolver {
    package enum Resolution: Hashable, Sendable {
        /// A regular file inside the card's folder.
        case file(URL)
        /// The name is fine but no such file exists (a warning; the error image is drawn).
        case missing(String)
        /// The name is not allowed (the error image is drawn; validation reports it).
        case refused(String)
    }

    package static func resolve(_ name: String, inFolder folder: URL) -> Resolution {
        if name.isEmpty { return .refused("the image name is empty") }
        if name.contains("\0") { return .refused("the image name \"\(printable(name))\" contains a NUL byte") }
        if name.contains("/") || name.contains("\\") {
            return .refused(
                "the image name \"\(printable(name))\" contains a path separator; images must be files in the card's folder")
        }
        if name == "." || name == ".." { return .refused("the image name \"\(name)\" is not a file name") }

        let candidate = folder.appendingPathComponent(name)
        var status = stat()
        guard lstat(candidate.path, &status) == 0 else {
            return .missing("the image file \"\(name)\" is missing from \(folder.path)")
        }
        if (status.st_mode & S_IFMT) == S_IFLNK {
            // A symlink is followed only when it stays inside the card's folder.
            guard let target = realPath(candidate.path) else {
                let loop = errno == ELOOP
                return .missing("the image file \"\(name)\" is \(loop ? "a loop of symbolic links" : "a broken symbolic link")")
            }
            guard let base = realPath(folder.path) else {
                return .missing("the folder \(folder.path) of the image file \"\(name)\" cannot be read")
            }
            guard target.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
                return .refused("the image file \"\(name)\" is a symbolic link that leads outside the card's folder")
            }
            guard stat(target, &status) == 0 else { return .missing("the image file \"\(name)\" is a broken symbolic link") }
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .refused("the image \"\(name)\" is not a regular file")
        }
        return .file(candidate)
    }

    /// The path with every symbolic link resolved; nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func printable(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.value < 0x20 ? "?" : Character($0) }.prefix(80))
    }
}
