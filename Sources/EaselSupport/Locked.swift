import Glibc

/// A value guarded by a pthread mutex. Used instead of `Synchronization.Mutex` because
/// ThreadSanitizer understands pthread locks, so Easel's concurrency can be checked under it
/// without false reports (Tests/Scripts/sanitizers.sh thread).
package final class Locked<Value>: @unchecked Sendable {
    // On the heap: a pthread mutex must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked where Value == Void {
    /// A lock guarding no value of its own, only what its user's code does under it.
    package convenience init() { self.init(()) }

    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        // The mutex alone: an `inout` access to the empty value would be one more access that
        // ThreadSanitizer's exclusivity checks see, and, holding no storage, it need not sit
        // inside the lock (a race report on the batch exporter's lock).
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
