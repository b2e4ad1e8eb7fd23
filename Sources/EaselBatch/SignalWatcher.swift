import Dispatch
import EaselSupport
import FoundationEssentials
import Glibc
import Synchronization

/// Catches SIGINT and SIGTERM while a batch or a watch runs, so it can stop cleanly.
/// Watchers nest: the innermost one started is told of a signal, and each puts back the
/// handling (and the signal mask) it found, so an outer watcher keeps working after an
/// inner one stops.
///
/// A real handler, not a Dispatch signal source: on Linux a Dispatch source reads the
/// signal from the kernel on its own thread, which only works when every thread blocks it,
/// and it needed the signal set to SIG_IGN, which makes the kernel throw a signal away
/// when the thread it picks does not block it. Started from a shell (nothing blocked),
/// `export --watch` ignored Ctrl-C and SIGTERM; only Foundation's `Process`, which starts
/// children with both blocked, hid that. The handler also replaces a SIG_IGN inherited
/// from the parent (`nohup`, `trap "" INT`, a background job of a script) and the watcher
/// unblocks both signals on the thread that starts it (a blocked mask is inherited across
/// exec too): a command that says "Ctrl-C stops" must stop on it.
public final class SignalWatcher: @unchecked Sendable {
    private let onSignal: @Sendable (Int32) -> Void
    private let lock = Locked()
    private var signal: Int32?
    private var stopped = false
    /// The handling each signal had before this watcher, put back by `stop()`.
    private var previousActions: [(signal: Int32, action: sigaction)] = []
    /// The signals of the two that were blocked on the starting thread, blocked again by `stop()`.
    private var previouslyBlocked = sigset_t()

    /// Starts watching; `onSignal` runs (on a background queue) for each signal caught, with
    /// its number.
    public init(onSignal: @escaping @Sendable (Int32) -> Void) {
        self.onSignal = onSignal
        SignalRelay.shared.push(self)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        sigemptyset(&action.sa_mask)
        // Other calls on the interrupted thread go on; a wait in poll() still returns early.
        action.sa_flags = SA_RESTART
        var handled = sigset_t()
        sigemptyset(&handled)
        sigemptyset(&previouslyBlocked)
        for number in [SIGINT, SIGTERM] {
            var previous = sigaction()
            sigaction(number, &action, &previous)
            previousActions.append((number, previous))
            sigaddset(&handled, number)
        }
        var previousMask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &handled, &previousMask)
        for number in [SIGINT, SIGTERM] where sigismember(&previousMask, number) == 1 {
            sigaddset(&previouslyBlocked, number)
        }
    }

    /// The first signal caught, if any.
    public var caught: Int32? { lock.withLock { signal } }

    /// Called by the relay, off the signal handler, for a signal this watcher is told of.
    fileprivate func deliver(_ number: Int32) {
        lock.withLock { if signal == nil { signal = number } }
        onSignal(number)
    }

    /// Stops watching and puts back the handling the signals had when it started, and
    /// blocks again on this thread those that were blocked. Calling it again does nothing.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        for (number, previous) in previousActions.reversed() {
            var action = previous
            sigaction(number, &action, nil)
        }
        pthread_sigmask(SIG_BLOCK, &previouslyBlocked, nil)
        SignalRelay.shared.remove(self)
    }
}

/// The write end of the relay's pipe, for the signal handler (-1 before the relay exists).
private let relayDescriptor = Atomic<Int32>(-1)

/// The signal handler: writes the signal's number into the relay's pipe, which is all a
/// handler may safely do. Without a pipe (none could be made), the signal ends the process
/// as it would have without a watcher.
private func relaySignal(_ number: Int32) {
    let savedErrno = errno
    defer { errno = savedErrno }
    let descriptor = relayDescriptor.load(ordering: .acquiring)
    guard descriptor >= 0 else { _exit(128 + number) }
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(descriptor, &byte, 1)
}

/// The process's one route from the signal handler to the watchers: a pipe (never closed,
/// so a handler running late never writes into a reused descriptor) read on a Dispatch
/// queue, which tells the innermost running watcher.
private final class SignalRelay: @unchecked Sendable {
    static let shared = SignalRelay()

    private let lock = Locked()
    /// Running watchers, innermost last.
    private var watchers: [SignalWatcher] = []
    private let source: DispatchSourceRead?

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // The handler ends the process instead; touched here, not first in the handler.
            relayDescriptor.store(-1, ordering: .releasing)
            source = nil
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            // A full pipe drops a repeated signal rather than blocking the handler.
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        let reading = ends[0]
        let source = DispatchSource.makeReadSource(fileDescriptor: reading, queue: .global())
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(reading, &bytes, bytes.count)
            guard count > 0 else { return }
            for number in bytes.prefix(count) { SignalRelay.shared.deliver(Int32(number)) }
        }
        source.resume()
        self.source = source
        relayDescriptor.store(ends[1], ordering: .releasing)
    }

    func push(_ watcher: SignalWatcher) { lock.withLock { watchers.append(watcher) } }

    func remove(_ watcher: SignalWatcher) { lock.withLock { watchers.removeAll { $0 === watcher } } }

    private func deliver(_ number: Int32) {
        lock.withLock { watchers.last }?.deliver(number)
    }
}
