import CEaselSystem
import Foundation
import Testing

@testable import EaselSupport

/// Easel's own worker threads: every index done exactly once, and threads started on
/// another processor that are free to move anywhere once running.
@Suite("Parallel work")
struct ParallelTests {
    /// Counted as Foundation counts them (its cgroup quota, else its affinity mask), never
    /// more than the affinity mask allows.
    @Test func availableProcessorsAreFoundationsCountWithinTheAffinityMask() {
        let affinity = Int(easel_thread_processor_count())
        #expect(affinity >= 1)
        #expect(Parallel.availableProcessors == min(ProcessInfo.processInfo.activeProcessorCount, affinity))
    }

    @Test(arguments: [(0, 4), (1, 4), (7, 1), (100, 2), (1000, 8)])
    func everyIndexRunsExactlyOnce(work: (count: Int, workers: Int)) {
        let seen = Locked([Int](repeating: 0, count: work.count))
        Parallel.forEach(count: work.count, workers: work.workers) { index in
            seen.withLock { $0[index] += 1 }
        }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: work.count))
    }

    @Test func aStartedThreadRunsItsBodyAndMayThenUseEveryProcessorItsStarterMay() throws {
        let processors = easel_thread_processor_count()
        let seen = Locked<Int32?>(nil)
        let thread = try #require(StartedThread.start { seen.withLock { $0 = easel_thread_processor_count() } })
        thread.join()
        // Started away from the starter's processor (one fewer), then given them all back.
        #expect(seen.withLock { $0 } == processors)
    }

    /// Values handed over are dropped on another thread, every one of them, and the caller's
    /// array is left empty.
    @Test func valuesReleasedInBackgroundAreDroppedOnAnotherThread() {
        let dropped = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        final class Watched: Sendable {
            let onDeinit: @Sendable () -> Void
            init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        let caller = pthread_self()
        var values = (0..<3).map { _ in
            Watched {
                let count = dropped.withLock { list in
                    list.append(pthread_equal(pthread_self(), caller) == 0)
                    return list.count
                }
                if count == 3 { done.signal() }
            }
        }
        Parallel.releaseInBackground(all: &values)
        #expect(values.isEmpty)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(dropped.withLock { $0 } == [true, true, true])
    }
}
