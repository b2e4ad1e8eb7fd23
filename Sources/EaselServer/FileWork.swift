import EaselSupport
import NIOPosix

/// The server's blocking file work (edits, undo and redo, new documents, copies, uploads,
/// the document list) on threads of its own, with at most `maxJobs` jobs waiting or running.
/// One more is refused at once (503 with `Retry-After`, nothing done) rather than joining a
/// queue without end behind edits that wait for a document's lock: the queue would hold
/// each request's body and connection, and every later edit and listing would wait behind it.
final class FileWork: Sendable {
    let threads: NIOThreadPool
    private let maxJobs: Int
    private let jobs = Locked(0)

    init(threads: NIOThreadPool, maxJobs: Int) {
        self.threads = threads
        self.maxJobs = max(1, maxJobs)
    }

    /// Runs `body` on the file threads, or throws 503 when `maxJobs` jobs are already there.
    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        let admitted = jobs.withLock { count -> Bool in
            guard count < maxJobs else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw Problem.busy(
                "\(maxJobs) edits and file operations are already waiting; try again shortly", retryAfter: 1, nothingDone: true)
        }
        defer { jobs.withLock { $0 -= 1 } }
        return try await threads.runIfActive(body)
    }
}
