import Dispatch
import EaselCairo
import EaselSupport
import Hummingbird
import NIOPosix

/// Runs renders on one thread per core, with a bounded queue: a request that finds every
/// worker busy and the queue full is refused at once (503 with `Retry-After`) instead of
/// waiting without bound, and one that waits longer than the timeout gets a 503 too (the
/// render then finishes in the background and still counts against the queue, so a flood
/// cannot pile up hidden work).
///
/// The queue is also bounded in time: a request is refused when the renders ahead of it
/// would take longer than `maxWait` at the recent average render time. Under a flood the
/// requests that are served are then served quickly (their latency stays near `maxWait`
/// plus one render), and the rest are told at once to come back later.
final class RenderPool: Sendable {
    /// Renders at a time.
    let workers: Int
    /// Renders that may wait for a worker.
    let queueLimit: Int
    /// How long a request waits for its render.
    let timeout: Duration
    /// The longest expected wait for a worker before a request is refused, in seconds.
    let maxWait: Double
    private let threads: NIOThreadPool
    private let admitted = Locked(0)
    /// The recent average render time in seconds (exponentially weighted).
    private let averageRender = Locked(0.0)

    init(workers: Int, queueLimit: Int, timeout: Duration, maxWait: Double = 0.5) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.timeout = timeout
        self.maxWait = maxWait
        threads = NIOThreadPool(numberOfThreads: self.workers)
        threads.start()
    }

    /// Renders running or waiting now.
    var depth: Int { admitted.withLock { $0 } }

    /// Runs `work` on a worker and returns its result; throws a 503 `Problem` when the
    /// queue is full or the render takes longer than the timeout.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let average = averageRender.withLock { $0 }
        let accepted = admitted.withLock { count -> Bool in
            guard count < workers + queueLimit else { return false }
            // The renders ahead of this one, shared among the workers.
            let ahead = Double(max(0, count - workers + 1))
            guard ahead * average / Double(workers) <= maxWait else { return false }
            count += 1
            return true
        }
        guard accepted else { throw Self.busy("every render worker is busy and the queue is full") }
        let task = Task { () throws -> T in
            defer { self.admitted.withLock { $0 -= 1 } }
            return try await threads.runIfActive {
                let started = DispatchTime.now().uptimeNanoseconds
                defer {
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                    self.averageRender.withLock { $0 = $0 == 0 ? seconds : $0 * 0.8 + seconds * 0.2 }
                }
                // The render's strips and PNG bands take only the cores other renders leave idle.
                EncoderParallelism.begin()
                defer { EncoderParallelism.end() }
                return try work()
            }
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await task.value }
            group.addTask {
                try? await Task.sleep(for: self.timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw Self.busy("the render took longer than \(self.timeout) and was given up")
            }
            return value
        }
    }

    static func busy(_ detail: String) -> Problem {
        var problem = Problem(.serviceUnavailable, detail)
        problem.headers[.retryAfter] = "1"
        return problem
    }

    func shutdown() async { try? await threads.shutdownGracefully() }
}
