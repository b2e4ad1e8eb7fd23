import EaselDocuments
import Foundation
import Glibc

/// The folder `easel serve` serves, and the only place it reads or writes. A request names
/// a document by its path relative to the folder; `resolve` turns that into a file only
/// when it is plainly inside: no `..`, no absolute path, no hidden component (Easel's own
/// temporary files and state are hidden), no symbolic link anywhere on the way (checked on
/// every request, so a link planted later leads nowhere; the check and the open are two
/// steps, see docs/service-api.md), and a registered document type. Anything else is "not found", without saying what exists outside.
public struct ServedFolder: Sendable {
    /// The folder, as the user named it.
    public let url: URL
    /// Its real path (symbolic links resolved), which every served file is below.
    public let realPath: String

    /// Serves `url`; throws when it is not a readable folder.
    public init(_ url: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue,
            let resolved = realpath(url.path, nil)
        else {
            throw ServerSetupError("\(url.path) is not a folder easel serve can read")
        }
        defer { free(resolved) }
        self.url = url.standardizedFileURL
        self.realPath = String(cString: resolved)
    }

    /// The components of a relative path from a request, percent-decoded and checked; nil
    /// when any is empty, `.` or `..`, hidden, or holds a slash or a NUL. (A backslash is an
    /// ordinary character in a Linux file name, and such a document is listed, so it is
    /// served too.)
    static func components(of rawPath: String) -> [String]? {
        let parts = rawPath.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty else { return nil }
        var result: [String] = []
        for part in parts {
            // Foundation's decoding is slow and most names have nothing to decode (every request walks this).
            guard let decoded = part.contains("%") ? String(part).removingPercentEncoding : String(part), !decoded.isEmpty,
                !decoded.hasPrefix("."),
                !decoded.contains("/"), !decoded.contains("\u{0}")
            else { return nil }
            result.append(decoded)
        }
        return result
    }

    /// The file or package of the document at `relativePath`, or nil when the path is not
    /// a document plainly inside the folder (see the type's rules).
    func document(at relativePath: String, registry: DocumentRegistry) -> URL? {
        guard let path = plainPath(relativePath)?.path else { return nil }
        let url = URL(fileURLWithPath: path)
        guard registry.isDocument(url) else { return nil }
        return url
    }

    /// The real path of `relativePath` inside the folder, and what the last component is
    /// (`S_IFREG`, `S_IFDIR`…), when every component exists, passes `components(of:)` and
    /// none is a symbolic link; nil otherwise. Documents, added images and the folders new
    /// documents go in are all found through this one walk.
    func plainPath(_ relativePath: String) -> (path: String, type: mode_t)? {
        guard let components = Self.components(of: relativePath) else { return nil }
        var path = realPath
        var type: mode_t = 0
        for component in components {
            path += "/" + component
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFLNK else { return nil }
            type = status.st_mode & S_IFMT
        }
        return (path, type)
    }

    /// The path of `url` relative to the folder ("cards/a.rwcard").
    func relativePath(of url: URL) -> String {
        // A URL made from the real path (as `document(at:)` makes them) needs no standardizing.
        let plain = url.path
        if plain.hasPrefix(realPath + "/"), !plain.contains("/./"), !plain.contains("/../") {
            return String(plain.dropFirst(realPath.count + 1))
        }
        let path = url.standardizedFileURL.path
        for base in [realPath, self.url.path] where path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return url.lastPathComponent
    }

    /// `message` with every absolute path left in it replaced by "a server file" (for what
    /// lies outside the served folder, such as the state folder's locks), once the served
    /// folder's own paths have been made relative.
    static func hidingAllPaths(in message: String) -> String {
        // Only a path that starts at the beginning or after a space or quote is absolute: the
        // slashes inside a relative name (`sub/a.drawing`) are left alone.
        message.replacingOccurrences(
            of: #"(^|[\s'"(])/[^\s:'"]+"#, with: "$1a server file", options: .regularExpression)
    }

    /// `message` with the folder's absolute path taken out, so that errors sent to clients
    /// name documents as the client does and reveal nothing of the server's file system.
    static func hidingServerPaths(in message: String, folder: URL) -> String {
        var text = message
        var bases = [folder.standardizedFileURL.path]
        if let resolved = realpath(folder.path, nil) {
            bases.append(String(cString: resolved))
            free(resolved)
        }
        for base in bases.sorted(by: { $0.count > $1.count }) where base != "/" {
            text = text.replacingOccurrences(of: base + "/", with: "").replacingOccurrences(of: base, with: "the served folder")
        }
        return text
    }
}
