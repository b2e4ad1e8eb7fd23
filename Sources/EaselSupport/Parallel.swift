import Foundation
import Dispatch

/// Work shared among threads.
package enum Parallel {
    /// Calls `body` once for each index in `0..<count`, on up to `workers` threads that each
    /// take the next index until none is left (so uneven items balance out); returns when
    /// every call has returned. One worker runs them in order on the calling thread.
    package static func forEach(count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let workers = max(1, min(workers, count))
        guard workers > 1 else {
            for index in 0..<count { body(index) }
            return
        }
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < count else { return }
                body(index)
            }
        }
    }

    /// Drops `object` (the caller's only reference, set to nil) on a thread of its own, so
    /// that its deinit — unmapping tens of megabytes of pixels — overlaps with what the
    /// caller does next, such as waiting for the disk.
    package static func releaseInBackground<Object: AnyObject>(_ object: inout Object?) {
        guard let value = object else { return }
        // The reference travels as an address: the other thread only releases it.
        let address = UInt(bitPattern: Unmanaged.passRetained(value).toOpaque())
        object = nil
        _ = consume value
        // A thread of its own: Dispatch's threads are shared with Swift's tasks.
        Thread.detachNewThread {
            Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        }
    }
}

/// A value handed to other threads that only read it, or that the caller knows are never
/// used at once (one render's image loader, say): the compiler cannot see that it is safe.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
