import Dispatch
import Foundation

/// Catches SIGINT and SIGTERM while a batch runs, so it can stop cleanly.
public final class SignalWatcher: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var signal: Int32?

    /// Starts watching; `onSignal` runs (on a background queue) for each signal caught.
    public init(onSignal: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                self?.lock.withLock { if self?.signal == nil { self?.signal = number } }
                onSignal()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal caught, if any.
    public var caught: Int32? { lock.withLock { signal } }

    /// Stops watching and restores the default handlers.
    public func stop() {
        for source in sources { source.cancel() }
        Foundation.signal(SIGINT, SIG_DFL)
        Foundation.signal(SIGTERM, SIG_DFL)
    }
}
