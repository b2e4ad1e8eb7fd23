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
}
