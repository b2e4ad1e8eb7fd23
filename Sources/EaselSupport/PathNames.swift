/// Path-name arithmetic on plain strings, as `NSString`'s path methods do it (the tests hold
/// them to NSString's answers; a path of slashes alone is `/` here): the CLI's modules use
/// Foundation's essentials only, which have these for URLs but not for the paths as the user
/// typed them (a URL would make a relative path absolute in every message).
package enum PathNames {
    /// The last component: `/tmp/a.png` → `a.png`, `/tmp/` → `tmp`, `/` → `/`.
    package static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The folder part: `/tmp/a.png` → `/tmp`, `/tmp` → `/`, `a.png` → `` (empty).
    package static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The last component's extension without its dot (`a.tar.gz` → `gz`); empty when it has
    /// none, or when its only dot starts it (`.profile`).
    package static func `extension`(of path: String) -> String {
        guard let dot = extensionDot(of: path) else { return "" }
        let name = lastComponent(of: path)
        return String(name[name.index(after: dot)...])
    }

    /// `path` without its last component's extension (and without trailing slashes).
    package static func deletingExtension(of path: String) -> String {
        let trimmed = String(withoutTrailingSlashes(path))
        guard let dot = extensionDot(of: path) else { return trimmed }
        let name = lastComponent(of: path)
        let dropped = name.distance(from: dot, to: name.endIndex)
        return String(trimmed.dropLast(dropped))
    }

    /// `component` after `path`, with one slash between them.
    package static func appending(_ component: String, to path: String) -> String {
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// The dot that starts the last component's extension, an index into `lastComponent`.
    private static func extensionDot(of path: String) -> String.Index? {
        let name = lastComponent(of: path)
        guard name != "..", name != "/", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return dot
    }

    private static func withoutTrailingSlashes(_ path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }
}
