import EaselDocuments
import EaselSupport
import Foundation

/// `easel export --watch`: exports again whenever a document, or an image one uses, changes
/// (inotify, never through a link), debounced by a quarter second of quiet, until SIGINT or
/// SIGTERM, or until a watched folder is removed and does not come back.
public struct ExportWatch {
    /// Why a watch ended.
    public enum Ending: Equatable, Sendable {
        /// SIGINT or SIGTERM (the signal's number).
        case signal(Int32)
        /// A watched folder was removed and no folder came back in its place: what happened.
        case folderGone(String)
    }

    /// What to do on each change: export again, and say whether to go on watching (false when
    /// a signal stopped the export).
    public typealias Export = () -> Bool

    /// The folders `inputs` need watched: a document's folder (its images beside it) and its
    /// resource folder when that is elsewhere (a package), a folder of documents recursively.
    public static func roots(for inputs: [URL], registry: DocumentRegistry = .standard) -> [(
        path: String, recursive: Bool
    )] {
        var roots: [(path: String, recursive: Bool)] = []
        for input in inputs {
            let url = input.standardizedFileURL
            guard registry.isDocument(url) else {
                roots.append((url.path, true))
                continue
            }
            roots.append((url.deletingLastPathComponent().path, false))
            if let location = registry.location(of: url), location.resourceFolder.path != url.deletingLastPathComponent().path {
                roots.append((location.resourceFolder.standardizedFileURL.path, false))
            }
        }
        return roots
    }

    /// Watches the folders `inputs` need, leaving out changes to `ignoring` (Easel's own
    /// outputs: a folder and everything below it, or a file), and runs `export` after each
    /// burst of changes. `warn` receives the watcher's warnings (a folder limit reached),
    /// `started` the number of folders watched once the watch is set up. Returns why it
    /// ended; throws when the folders cannot be watched at all.
    public static func run(
        inputs: [URL], ignoring: [String], warn: @escaping (String) -> Void, started: (Int) -> Void,
        export: Export
    ) throws -> Ending {
        let ignored = ignoring.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        // Before anything else: a signal in the first moments of the watch stops it too.
        let signals = SignalWatcher { _ in }
        defer { signals.stop() }
        let watcher = try FolderWatcher(roots: roots(for: inputs), warn: warn) { path in
            ignored.contains { path == $0 || path.hasPrefix($0 + "/") }
        }
        started(watcher.folderCount)
        while true {
            if let signal = signals.caught { return .signal(signal) }
            let changed = watcher.changes(timeout: 0.2)
            if let failure = watcher.failure { return .folderGone("\(failure)") }
            guard !changed.isEmpty else { continue }
            // An editor's save is several events: wait for a quarter second of quiet.
            while signals.caught == nil, !watcher.changes(timeout: 0.25).isEmpty {}
            if let signal = signals.caught { return .signal(signal) }
            guard export() else { return .signal(signals.caught ?? SIGINT) }
        }
    }
}
