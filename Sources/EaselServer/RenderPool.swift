import Dispatch
import EaselCairo
import EaselSupport
import Hummingbird
import NIOPosix

/// Runs renders on one thread per core, with a bounded queue served first come, first
/// served (a request is queued for the workers the moment it is admitted, and the oldest is
/// taken first): a request that finds every worker busy and the queue full is refused at
/// once (503 with `Retry-After`) instead of waiting without bound, and one that waits longer than the timeout gets a 503 too, at the
/// timeout (the render stops by itself at its scene's deadline, and counts against the
/// queue until then, so a flood cannot pile up hidden work).
///
/// The queue is also bounded in time: a request is refused when the renders ahead of it
/// would take longer, at the recent average render time, than its wait bound: two renders
/// or 50 ms, whichever is longer, and never more than `maxWait`. Under a flood the
/// requests that are served are then served about as fast as when there is no flood
/// (their latency stays within a few renders, however many clients ask), and the rest are
/// told at once to come back later. (A bound in renders alone would refuse a page's burst
/// of small thumbnails; one in seconds alone would let cheap renders queue for many times
/// their own length.)
///
/// A request with a body (a sent document, an upload) checks for room (`checkRoom()`)
/// before its body is read, so a request the queue would refuse never costs the memory of
/// its body, and takes its place (`admit()`) once the body has arrived: a client sending
/// its body slowly holds no place that renders need meanwhile (three such clients, each
/// holding a place until the idle timeout, once had every render refused by an idle server).
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
    /// Renders queued for a worker and not started yet.
    var waiting: Int { queued.withLock { $0 } }
    private let queued = Locked(0)

    /// Runs `work` on a worker and returns its result; throws a 503 `Problem` when the
    /// queue is full or the render takes longer than the timeout. `doing` names the work in
    /// that message ("the render", "working out the document's description").
    func run<T: Sendable>(doing: String = "the render", _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(with: try admit(), doing: doing, work)
    }

    /// Throws the 503 `admit()` would throw now, without taking a place: checked before a
    /// request's body is read, so that a body the queue would refuse is never read.
    func checkRoom() throws {
        try admit().release()
    }

    /// A place among the renders running or waiting: a request the queue refuses is refused
    /// at once. Throws a 503 `Problem` (with `Retry-After`) when the queue is full or the
    /// renders ahead would take longer than `maxWait`. The place counts against the queue
    /// from now until the ticket is released or the work it runs ends.
    func admit() throws -> Ticket {
        let average = averageRender.withLock { $0 }
        let refusal = admitted.withLock { count -> String? in
            guard count < workers + queueLimit else {
                return "every render worker is busy and the queue is full (\(queueLimit) renders waiting)"
            }
            // The renders ahead of this one, shared among the workers.
            let ahead = Double(max(0, count - workers + 1))
            let wait = ahead * average / Double(workers)
            let bound = Self.waitBound(averageRender: average, maxWait: maxWait)
            guard wait <= bound else {
                return
                    "every render worker is busy, and the renders waiting would take about \(Self.seconds(wait)) s, over the limit of \(Self.seconds(bound)) s"
            }
            count += 1
            return nil
        }
        if let refusal { throw Problem.busy(refusal, nothingDone: true) }
        return Ticket { self.admitted.withLock { $0 -= 1 } }
    }

    /// Runs `work` on a worker in the place `ticket` holds (see `run(_:)`); the place is
    /// given back when the work ends, even when the request was answered at the timeout first.
    func run<T: Sendable>(
        with ticket: Ticket, doing: String = "the render", _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        guard ticket.start() else { throw Problem.busy("the render's place in the queue was given up", nothingDone: true) }
        // Set once the request is answered: work still waiting for a worker by then is not started.
        let answered = Locked(false)
        // When the request is answered with 503 at the latest: every decode the work does
        // without a deadline of its own (an upload's image, deep in an edit) stops then too.
        let (seconds, attoseconds) = timeout.components
        let deadline =
            DispatchTime.now().uptimeNanoseconds + UInt64(min(max(0, seconds), 86_400)) * 1_000_000_000
            + UInt64(max(0, attoseconds)) / 1_000_000_000
        // Whichever comes first, the render or the timeout, answers. (A running render
        // cannot be cancelled from outside; it stops by itself at its scene's deadline.)
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
                // Not "nothing done": the work goes on, and an upload may yet be saved.
                answer(.failure(Problem.busy("\(doing) took longer than \(self.timeout) and was given up", nothingDone: false)))
            }
            // Queued here, synchronously, in the order requests arrive: the workers take the
            // oldest first, so none waits behind later ones (first come, first served).
            queued.withLock { $0 += 1 }
            threads.submit { state in
                self.queued.withLock { $0 -= 1 }
                defer {
                    ticket.finish()
                    self.returnFreeMemoryWhenIdle()
                }
                // The client has had its 503 already: drawing (or saving an upload) now helps nobody.
                guard state == .active, !answered.withLock({ $0 }) else {
                    answer(
                        .failure(Problem.busy("the request was given up while it waited for a worker", nothingDone: true)))
                    return
                }
                let started = DispatchTime.now().uptimeNanoseconds
                // The render's strips and PNG bands take only the cores other renders leave idle.
                EncoderParallelism.begin()
                let result = Result { try DecodeDeadline.applying(deadline) { try work() } }
                EncoderParallelism.end()
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                self.averageRender.withLock { $0 = $0 == 0 ? seconds : $0 * 0.8 + seconds * 0.2 }
                answer(result)
                timer.cancel()
            }
        }
    }

    /// Memory malloc holds free that is given back to the system once no render is
    /// running or waiting: after a few large photos a server would otherwise keep their
    /// memory (80 MB of a 380 MB server after rendering the benchmark's photo cards at
    /// scale 3). Under load the pool is never idle, and between light renders far less
    /// than this is free, so renders do not pay for memory given back and faulted in again.
    static let freeMemoryKeptWhenIdle = 32 << 20

    private func returnFreeMemoryWhenIdle() {
        guard depth == 0 else { return }
        FreeMemory.returnToSystem(whenOver: Self.freeMemoryKeptWhenIdle)
    }

    /// How long a request may expect to wait for a worker: two renders or 50 ms, whichever
    /// is longer, and never more than `maxWait` (all in seconds).
    static func waitBound(averageRender: Double, maxWait: Double) -> Double {
        min(maxWait, max(0.05, 2 * averageRender))
    }

    private static func seconds(_ value: Double) -> String { String(format: value < 0.1 ? "%.2f" : "%.1f", value) }

    func shutdown() async { try? await threads.shutdownGracefully() }

    /// A place in the pool (`admit()`): released by the route when it ends without running
    /// work (its body was refused, or ended early), or when the work it ran ends. Releasing
    /// twice, or after the work started, does nothing; a ticket dropped unreleased gives
    /// its place back when it goes away.
    final class Ticket: Sendable {
        private enum State { case held, running, done }
        private let state = Locked(State.held)
        private let giveBack: @Sendable () -> Void

        fileprivate init(giveBack: @escaping @Sendable () -> Void) { self.giveBack = giveBack }

        /// Gives the place back unless work is running in it (that work gives it back when it ends).
        func release() {
            let wasHeld = state.withLock { state -> Bool in
                guard state == .held else { return false }
                state = .done
                return true
            }
            if wasHeld { giveBack() }
        }

        /// Marks the place as running work; false when it was released already.
        fileprivate func start() -> Bool {
            state.withLock { state in
                guard state == .held else { return false }
                state = .running
                return true
            }
        }

        /// The work has ended: the place is given back.
        fileprivate func finish() {
            let wasRunning = state.withLock { state -> Bool in
                guard state == .running else { return false }
                state = .done
                return true
            }
            if wasRunning { giveBack() }
        }

        deinit {
            if state.withLock({ $0 }) != .done { giveBack() }
        }
    }
}
