import Dispatch
import EaselCairo
import EaselSupport
import Hummingbird
import NIOPosix

/// Runs renders on one thread per core, with a bounded queue: a request that finds every
/// worker busy and the queue full is refused at once (503 with `Retry-After`) instead of
/// waiting without bound, and one that waits longer than the timeout gets a 503 too, at the
/// timeout (the render stops by itself at its scene's deadline, and counts against the
/// queue until then, so a flood cannot pile up hidden work).
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
        let refusal = admitted.withLock { count -> String? in
            guard count < workers + queueLimit else {
                return "every render worker is busy and the queue is full (\(queueLimit) renders waiting)"
            }
            // The renders ahead of this one, shared among the workers.
            let ahead = Double(max(0, count - workers + 1))
            let wait = ahead * average / Double(workers)
            guard wait <= maxWait else {
                return
                    "every render worker is busy, and the renders waiting would take about \(Self.seconds(wait)) s, over the limit of \(Self.seconds(maxWait)) s"
            }
            count += 1
            return nil
        }
        if let refusal { throw Self.busy(refusal) }
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
        // Whichever comes first, the render or the timeout, answers. (A task group would
        // wait for the render however long it took: a running render cannot be cancelled
        // from outside; it stops by itself at its scene's deadline.)
        let answered = Locked(false)
        return try await withCheckedThrowingContinuation { continuation in
            @Sendable func answer(_ result: Result<T, any Error>) {
                guard
                    answered.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                continuation.resume(with: result)
            }
            let timer = Task {
                guard (try? await Task.sleep(for: self.timeout)) != nil else { return }
                answer(.failure(Self.busy("the render took longer than \(self.timeout) and was given up")))
            }
            Task {
                answer(await task.result)
                timer.cancel()
            }
        }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }

    static func busy(_ detail: String) -> Problem {
        var problem = Problem(.serviceUnavailable, detail)
        problem.headers[.retryAfter] = "1"
        return problem
    }

    func shutdown() async { try? await threads.shutdownGracefully() }
}
