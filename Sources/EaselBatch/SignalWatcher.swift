import Dispatch
import Foundation

/// Catches SIGINT and SIGTERM while a batch runs, so it can stop cleanly. Watchers nest:
/// each puts back the handling it found, so an outer watcher keeps working after an inner
/// one stops.
public final class SignalWatcher: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    /// The handling each signal had before this watcher, put back by `stop()`.
    private var previousHandlers: [(signal: Int32, handler: __sighandler_t?)] = []
    private let lock = NSLock()
    private var signal: Int32?

    /// Starts watching; `onSignal` runs (on a background queue) for each signal caught, with
    /// its number.
    public init(onSignal: @escaping @Sendable (Int32) -> Void) {
        for number in [SIGINT, SIGTERM] {
            previousHandlers.append((number, Foundation.signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                self?.lock.withLock { if self?.signal == nil { self?.signal = number } }
                onSignal(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal caught, if any.
    public var caught: Int32? { lock.withLock { signal } }

    /// Stops watching and puts back the handling the signals had when it started.
    public func stop() {
        for source in sources { source.cancel() }
        for (number, handler) in previousHandlers { Foundation.signal(number, handler) }
    }
}
