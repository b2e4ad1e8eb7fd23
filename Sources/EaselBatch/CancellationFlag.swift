import Synchronization

/// Set from a signal handler or another thread to stop starting new documents.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// A flag that is not yet set.
    public init() {}
    /// Sets the flag; documents already started still finish. Safe from any thread.
    public func cancel() { flag.store(true, ordering: .relaxed) }
    /// True once `cancel()` has been called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
