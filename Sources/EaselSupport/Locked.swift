import Foundation

/// A value guarded by a pthread mutex (NSLock). Used instead of `Synchronization.Mutex`
/// because ThreadSanitizer understands pthread locks, so Easel's concurrency can be checked
/// under it without false reports (Tests/Scripts/sanitizers.sh thread).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
