import CEaselSystem
import Foundation

/// The temporary files this process has made beside users' files (`AtomicFileStream`) and
/// not yet renamed over their targets or removed, registered with `SignalEnding`'s handler
/// so that a command stopped by a signal removes them on its way out: an interrupted export
/// leaves the folder as it found it.
package enum PendingTemporaryFiles {
    /// Each path, with its slot in the signal handler's table (-1: not in it).
    private static let paths = Locked([String: Int32]())

    /// Records a temporary file just made.
    package static func add(_ path: String) {
        paths.withLock { paths in
            guard paths[path] == nil else { return }
            paths[path] = easel_pending_file_add(path)
        }
    }

    /// Forgets a temporary file renamed over its target.
    package static func forget(_ path: String) {
        paths.withLock { paths in
            if let slot = paths.removeValue(forKey: path) { easel_pending_file_remove(slot) }
        }
    }

    /// Removes a temporary file that will not be renamed, and forgets it.
    package static func remove(_ path: String) {
        unlink(path)
        forget(path)
    }
}

/// A single command ended by SIGINT or SIGTERM, from the signal handler itself: the pending
/// temporary files are removed, `interrupted` or `terminated` is written to standard error,
/// and the process ends with the signal's status (128 + its number). No thread is made,
/// at start or at the end (a watcher on Dispatch cost a single export about 0.5 ms).
package enum SignalEnding {
    /// Installs the handlers, keeping the handling they replace.
    package static func start(interrupted: String, terminated: String) {
        easel_end_on_signals(interrupted + "\n", terminated + "\n")
    }

    /// Puts back the handling the signals had before.
    package static func stop() { easel_stop_ending_on_signals() }
}
