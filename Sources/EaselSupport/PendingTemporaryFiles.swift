import Foundation

/// The temporary files this process has made beside users' files (`AtomicFileStream`) and
/// not yet renamed over their targets or removed, so that a command stopped by a signal
/// can remove them on its way out: an interrupted export leaves the folder as it found it.
package enum PendingTemporaryFiles {
    private static let paths = Locked(Set<String>())

    /// Records a temporary file just made.
    package static func add(_ path: String) { _ = paths.withLock { $0.insert(path) } }

    /// Forgets a temporary file renamed over its target.
    package static func forget(_ path: String) { _ = paths.withLock { $0.remove(path) } }

    /// Removes a temporary file that will not be renamed, and forgets it.
    package static func remove(_ path: String) {
        unlink(path)
        forget(path)
    }

    /// Removes every temporary file still pending (for a process about to end on a signal);
    /// one renamed in the meantime is simply not there any more.
    package static func removeAll() {
        for path in paths.withLock({ paths in
            defer { paths.removeAll() }
            return paths
        }) { unlink(path) }
    }
}
