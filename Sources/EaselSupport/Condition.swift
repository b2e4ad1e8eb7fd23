import Glibc

/// A pthread mutex and condition variable, used as `NSCondition` is (`lock`, `wait` in a
/// loop on the predicate, `broadcast`, `unlock`) without bringing Foundation's runtime into
/// the CLI; ThreadSanitizer understands it, as it does `Locked`.
package final class Condition: @unchecked Sendable {
    // On the heap: neither may move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits, the lock held, until a broadcast (or a spurious wake-up: wait in a loop).
    package func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes one waiter.
    package func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// `body` with the lock held.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
