import FoundationEssentials
import Glibc

/// Easel's own folder for what it keeps about documents — undo histories and edit locks —
/// so that nothing is left beside a user's documents (the Cards app loads every file whose
/// name contains ".rwcard", hidden sidecars included). `$XDG_STATE_HOME/easel`, or
/// `~/.local/state/easel` when that is not set.
package struct StateFolder: Sendable {
    /// The root: `…/easel`.
    package let url: URL

    package init(url: URL) {
        self.url = url
    }

    /// The folder the environment names.
    package static var fromEnvironment: StateFolder {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local/state")
        }
        return StateFolder(url: base.appendingPathComponent("easel"))
    }

    /// The folder kept for the document at `document`, keyed by its real path (so `./a.rwcard`
    /// and `/x/../a.rwcard` share one history), created on demand with owner-only access.
    /// Throws when the state folder is not this user's alone (see `isPrivate`).
    package func folder(forDocument document: URL) throws(DocumentError) -> URL {
        let folder = location(forDocument: document)
        do { try FileIO.createFolders(at: folder.path, permissions: 0o700) } catch {
            // The system's reason (`Not a directory`, `Permission denied`).
            throw DocumentError(
                file: document.path,
                kind: .io(
                    "cannot create Easel's state folder \(folder.path): \(error.reason); set XDG_STATE_HOME to a writable folder"
                ))
        }
        if let stranger = strangerFolder(down: folder) {
            throw DocumentError(file: document.path, kind: .io(Self.strangerReason(stranger)))
        }
        return folder
    }

    /// Why a folder of the state folder that is not this user's alone is not used.
    package static func strangerReason(_ folder: String) -> String {
        "Easel's state folder \(folder) belongs to another user or others may write in it, so a history there could put their content in your document; set XDG_STATE_HOME to a folder of your own"
    }

    /// Whether every folder from the root down to `folder` that exists is this user's alone:
    /// a real folder (not a link) that this user owns and no one else may write in. A history,
    /// a lock or a cached render in someone else's (the state folder of a shared `/state`,
    /// made first by another user) could put their content in this user's documents.
    package func isPrivate(down folder: URL) -> Bool { strangerFolder(down: folder) == nil }

    /// The first folder from the root down to `folder` that exists and is not this user's
    /// alone, or nil.
    package func strangerFolder(down folder: URL = URL(fileURLWithPath: "/")) -> String? {
        var chain = [url.path]
        let root = url.path + "/"
        if folder.path.hasPrefix(root) {
            var path = url.path
            for part in folder.path.dropFirst(root.count).split(separator: "/") {
                path += "/" + part
                chain.append(path)
            }
        }
        for path in chain {
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }  // nothing below a missing folder
            guard (status.st_mode & S_IFMT) == S_IFDIR, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
                return path
            }
        }
        return nil
    }

    /// Where the folder for `document` is, without creating it.
    package func location(forDocument document: URL) -> URL {
        let key = String(FNV1a.hash(Self.realPath(of: document)), radix: 16)
        return url.appendingPathComponent("documents").appendingPathComponent(key)
    }

    /// The document's path with its folder's symbolic links resolved (the document itself
    /// may not exist yet).
    package static func realPath(of document: URL) -> String {
        guard let folder = resolvedFolder(document.deletingLastPathComponent().path) else {
            return document.standardizedFileURL.path
        }
        return realPath(of: document.lastPathComponent, inResolvedFolder: folder)
    }

    /// `folder` with its symbolic links resolved (nil when it cannot be): resolved once, it
    /// gives the real path of every name in it (`realPath(of:inResolvedFolder:)`).
    package static func resolvedFolder(_ folder: String) -> String? {
        guard let resolved = realpath(folder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What `realPath(of:)` gives for `name` in the folder `resolvedFolder` resolved to.
    package static func realPath(of name: String, inResolvedFolder folder: String) -> String {
        PathNames.appending(name, to: folder)
    }
}
