import EaselDocuments
import EaselSupport
import FoundationEssentials
import Glibc

/// `easel export --watch`: exports again whenever a document, or an image one uses, changes
/// (inotify, never through a link), debounced by a quarter second of quiet, until SIGINT or
/// SIGTERM (or the caller's flag), or until a watched folder is removed and does not come back.
public struct ExportWatch {
    /// Why a watch ended.
    public enum Ending: Equatable, Sendable {
        /// SIGINT or SIGTERM (the signal's number).
        case signal(Int32)
        /// The flag the caller gave was set.
        case stopped
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
    /// `started` the number of folders watched once the watch is set up. It stops on SIGINT
    /// or SIGTERM, or, when `stop` is given, once that flag is set instead (a program that
    /// watches alongside other work, such as a test, keeps its own signal handling). Returns
    /// why it ended; throws when the folders cannot be watched at all.
    public static func run(
        inputs: [URL], ignoring: [String], stop: CancellationFlag? = nil, warn: @escaping (String) -> Void,
        started: (Int) -> Void, export: Export
    ) throws -> Ending {
        let ignored = ignoring.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        // Before anything else: a signal in the first moments of the watch stops it too.
        let signals = stop == nil ? SignalWatcher { _ in } : nil
        defer { signals?.stop() }
        // Why to stop now, if a signal came or the flag was set.
        func ending() -> Ending? {
            if let signal = signals?.caught { return .signal(signal) }
            return stop?.isCancelled == true ? .stopped : nil
        }
        let watcher = try FolderWatcher(roots: roots(for: inputs), warn: warn) { path in
            ignored.contains { path == $0 || path.hasPrefix($0 + "/") }
        }
        started(watcher.folderCount)
        while true {
            if let ending = ending() { return ending }
            let changed = watcher.changes(timeout: 0.2)
            if let failure = watcher.failure { return .folderGone("\(failure)") }
            guard !changed.isEmpty else { continue }
            // An editor's save is several events: wait for a quarter second of quiet.
            while ending() == nil, !watcher.changes(timeout: 0.25).isEmpty {}
            if let ending = ending() { return ending }
            guard export() else { return ending() ?? .signal(SIGINT) }
        }
    }
}
