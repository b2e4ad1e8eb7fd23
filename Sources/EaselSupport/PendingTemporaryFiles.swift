import FoundationEssentials
import Glibc

/// The temporary files this process has made beside users' files (`AtomicFileStream`) and
/// not yet renamed over their targets or removed, so that a command stopped by a signal
/// removes them on its way out: an interrupted export leaves the folder as it found it.
package enum PendingTemporaryFiles {
    private static let paths = Locked(Set<String>())

    /// Records a temporary file about to be made (before it exists: a signal handled on
    /// another thread between its creation and a registration after it would leave it behind).
    package static func add(_ path: String) { _ = paths.withLock { $0.insert(path) } }

    /// Forgets a temporary file renamed over its target.
    package static func forget(_ path: String) { _ = paths.withLock { $0.remove(path) } }

    /// Removes a temporary file that will not be renamed, and forgets it.
    package static func remove(_ path: String) {
        unlink(path)
        forget(path)
    }

    /// Removes every temporary file still pending and ends the process with `status` (for
    /// a command ended by a signal). The record stays locked until the end, so no other
    /// thread registers (and then makes) a file after the removal; one renamed in the
    /// meantime is simply not there any more.
    package static func removeAllAndExit(status: Int32) -> Never {
        paths.withLock { paths -> Never in
            for path in paths { unlink(path) }
            _exit(status)
        }
    }
}
