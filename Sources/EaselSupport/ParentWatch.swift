import Dispatch
import FoundationEssentials
import Glibc

/// Ties a process's life to its parent's: when the parent dies (a scheduler's task killed, a
/// worker that started `easel` gone), this process is sent SIGTERM, which a command then
/// handles as it handles any SIGTERM (a batch finishes the documents in flight, saves its
/// manifest and report, and stops).
///
/// The parent is watched by its process id, twice a second: when the process that started
/// this one ends, the kernel gives this one another parent. Linux's `PR_SET_PDEATHSIG` is
/// tied to the *thread* that started the process, so a program that starts `easel` from a
/// pool thread which later goes idle and ends (Dispatch's do) would have it killed mid-run.
package enum ParentWatch {
    private static let timer = Locked<DispatchSourceTimer?>(nil)

    /// Starts watching (once per process): SIGTERM to this process when its parent is gone,
    /// at once if it already is. Nothing is watched when the parent is init (pid 1): there is
    /// no task to outlive.
    package static func endWithParent() {
        let parent = getppid()
        guard parent > 1 else { return }
        timer.withLock { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
            source.schedule(deadline: .now(), repeating: .milliseconds(500), leeway: .milliseconds(100))
            source.setEventHandler {
                guard getppid() != parent else { return }
                source.cancel()
                kill(getpid(), SIGTERM)
            }
            source.resume()
            timer = source
        }
    }
}
