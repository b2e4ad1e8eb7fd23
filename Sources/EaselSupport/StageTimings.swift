import FoundationEssentials
import Glibc
import Dispatch

/// Where one command's time goes, for people measuring it: with `EASEL_TIMINGS=1` in the
/// environment, each `mark` records the wall time since the previous one under a stage's
/// name, and `report()` gives them as one line (`easel export` prints it on stderr). When the
/// variable is not set, a mark costs one check of a constant.
package enum StageTimings {
    /// Whether timings are being recorded (`EASEL_TIMINGS` set to anything but `0`).
    package static let isEnabled: Bool = {
        guard let value = getenv("EASEL_TIMINGS") else { return false }
        return String(cString: value) != "0"
    }()

    private struct State {
        var last = DispatchTime.now().uptimeNanoseconds
        /// The thread whose marks count: the one that started the clock (the main thread).
        var thread = pthread_self()
        var stages: [(name: String, milliseconds: Double)] = []
    }

    private static let state = Locked(State())

    /// Starts the clock (the process's first mark counts from here), on the thread whose
    /// marks count.
    package static func start() {
        guard isEnabled else { return }
        state.withLock { $0 = State() }
    }

    /// Ends the stage `name`: the time since the previous mark (or `start`) is its own.
    /// Only the main thread's marks count: the stages are its path through the command
    /// (work done ahead on another thread shows as a shorter stage there).
    package static func mark(_ name: String) {
        guard isEnabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            guard pthread_equal(pthread_self(), state.thread) != 0 else { return }
            state.stages.append((name, Double(now - state.last) / 1e6))
            state.last = now
        }
    }

    /// `read 10.2 ms, lower 1.1 ms, ...` in the order the stages ended, or nil when timings
    /// are off or nothing was marked.
    package static func report() -> String? {
        guard isEnabled else { return nil }
        let stages = state.withLock { $0.stages }
        guard !stages.isEmpty else { return nil }
        let total = stages.reduce(0) { $0 + $1.milliseconds }
        return stages.map { "\($0.name) " + String(printf: "%.1f ms", $0.milliseconds) }.joined(separator: ", ")
            + String(printf: " (%.1f ms in all)", total)
    }
}
