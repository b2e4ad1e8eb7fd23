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
        return folder
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
