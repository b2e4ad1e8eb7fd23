import EaselGeometry
import EaselSupport
import FoundationEssentials
import Glibc

/// One live progress line on stderr when it is a terminal (done/total, documents per
/// second, ETA, failures); nothing otherwise, so logs never hold control codes.
public final class ProgressDisplay: @unchecked Sendable {
    private let enabled: Bool
    private let lock = Locked()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private var line = ""

    /// A display that draws only when `enabled` and stderr is a terminal.
    public init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) != 0
    }

    /// Redraws the line (at most ten times a second, and at the end).
    public func update(_ progress: BatchProgress) {
        guard enabled else { return }
        lock.withLock {
            guard Date().timeIntervalSince(lastDraw) > 0.1 || progress.done == progress.total else { return }
            lastDraw = Date()
            let rate = progress.elapsed > 0 ? Double(progress.done) / progress.elapsed : 0
            let remaining = rate > 0 ? Double(progress.total - progress.done) / rate : 0
            let eta = String(printf: "%d:%02d", Int(saturating: remaining) / 60, Int(saturating: remaining) % 60)
            let line =
                "[\(progress.done)/\(progress.total)] " + String(printf: "%.1f", rate)
                + " docs/s, ETA \(eta), \(progress.failed) failed"
            StandardStreams.writeError(Array(("\r\u{1B}[K" + line).utf8))
            self.line = line
            drawn = true
        }
    }

    /// Prints `text` (a whole line) on stdout or stderr above the live line: the live line
    /// is cleared first and drawn again after, so lines and progress never mix.
    public func printAbove(_ text: String, toStandardError: Bool) {
        lock.withLock {
            if drawn { StandardStreams.writeError(Array("\r\u{1B}[K".utf8)) }
            let bytes = Array((text + "\n").utf8)
            if toStandardError { StandardStreams.writeError(bytes) } else { StandardStreams.writeOutput(bytes) }
            if drawn { StandardStreams.writeError(Array(line.utf8)) }
        }
    }

    /// Clears the line.
    public func finish() {
        guard enabled else { return }
        lock.withLock { if drawn { StandardStreams.writeError(Array("\r\u{1B}[K".utf8)) } }
    }
}
