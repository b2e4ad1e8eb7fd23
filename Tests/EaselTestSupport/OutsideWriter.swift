import EaselSupport
import Foundation
import Glibc

/// Another program that writes a file at a chosen moment of Easel's work on it (as a sync
/// tool or a second editor might), seen through inotify on the file's folder: for checks
/// that what Easel remembers of a file is what it read or wrote itself, never the file read
/// again a moment later.
public final class OutsideWriter: Sendable {
    /// When the writer writes.
    public enum Moment: Sendable {
        /// As soon as a file of that name is renamed into the folder (a save's last step).
        case afterRename
        /// As soon as the file has been opened, read and closed this many times.
        case afterReads(Int)
    }

    private let done = DispatchSemaphore(value: 0)
    private let outcome = Outcome()

    /// Whether the writer wrote: set by its thread before it signals `done`, read only after.
    private final class Outcome: @unchecked Sendable { var wrote = false }

    /// Starts watching `folder`; at `moment`, writes `bytes` over the file `name` in place (as
    /// a plain program writes, and at once: a write beside it renamed over it comes too late
    /// for the moments these checks are about). Watches for at most ten seconds. Throws when
    /// inotify cannot watch the folder.
    public init(writing bytes: [UInt8], toFileNamed name: String, in folder: URL, at moment: Moment) throws {
        // The events counted, and those watched besides them.
        let (counted, mask, count) =
            switch moment {
            case .afterRename: (UInt32(IN_MOVED_TO), UInt32(IN_MOVED_TO), 1)
            // Opens watched too: inotify folds an event into the same one unread before it,
            // and an open between two closes keeps them apart.
            case .afterReads(let reads): (UInt32(IN_CLOSE_NOWRITE), UInt32(IN_OPEN) | UInt32(IN_CLOSE_NOWRITE), reads)
            }
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watch >= 0, inotify_add_watch(watch, folder.path, mask) >= 0 else {
            if watch >= 0 { close(watch) }
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
        let target = folder.appendingPathComponent(name)
        let (done, outcome, listening) = (done, outcome, DispatchSemaphore(value: 0))
        DispatchQueue.global().async {
            defer {
                close(watch)
                done.signal()
            }
            listening.signal()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var seen = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 100) == 1 else { continue }
                let length = read(watch, &buffer, buffer.count)
                guard length > 0 else { continue }
                seen += InotifyEvent.events(in: buffer[..<length]).filter { $0.name == name && $0.mask & counted != 0 }.count
                guard seen >= count else { continue }
                outcome.wrote = (try? Data(bytes).write(to: target)) != nil
                return
            }
        }
        // Returns once the writer's thread runs: a thread started late would write late.
        listening.wait()
    }

    /// Waits (at most fifteen seconds, once) until the writer has written or given up; true
    /// when it wrote.
    public func wroteInTime() -> Bool {
        guard done.wait(timeout: .now() + 15) == .success else { return false }
        return outcome.wrote
    }
}
