import EaselServer
import EaselSupport
import EaselTestSupport
import Foundation
import Logging
import ServiceLifecycle

/// A real `easel serve` server on an ephemeral loopback port, serving a copy of some
/// documents, with its own state folder (histories, locks). Stopped gracefully by `stop()`.
final class LiveServer: @unchecked Sendable {
    let folder: TemporaryFolder
    /// Histories, locks and the disk cache (removed with the server unless shared).
    let state: TemporaryFolder
    var stateFolder: URL { state.url }
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, Error>

    /// Starts a server over `folder`, configured further by `configure`.
    static func start(
        _ folder: TemporaryFolder, state: TemporaryFolder = TemporaryFolder("easel-serve-state"),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> LiveServer {
        _ = removeAtExit
        leftovers.withLock { $0 += [folder.url, state.url] }
        // The limits are the product's (the idle timeout too: a short one closes connections
        // mid-request when the sanitizer runs make the machine slow); a test about a limit sets it.
        var configuration = ServerConfiguration(folder: folder.url, port: 0, stateFolder: state.url)
        configure(&configuration)
        let server = try EaselServer(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = server.application { continuation.yield($0) }
        var logger = Logger(label: "easel-serve-test")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("the server did not start") }
        return LiveServer(folder: folder, state: state, port: port, group: group, task: task)
    }

    private init(folder: TemporaryFolder, state: TemporaryFolder, port: Int, group: ServiceGroup, task: Task<Void, Error>) {
        self.folder = folder
        self.state = state
        self.port = port
        self.group = group
        self.task = task
    }

    /// Shuts down gracefully and waits for the server to finish.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }

    /// One request over a new connection (see `RawHTTP`), on a thread of its own: blocking
    /// socket calls must not hold the threads the server's handlers run on.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) async throws -> RawHTTP.Response {
        let port = self.port
        return try await offThread { try RawHTTP.request(port: port, method: method, path: path, headers: headers, body: body) }
    }
}

/// Folders of servers whose graceful stop may still be running when the test process ends
/// (tests stop them from a `defer`); they are removed at exit so that no run leaves them in /tmp.
private let leftovers = Locked<[URL]>([])
private let removeAtExit: Void = {
    atexit {
        for url in leftovers.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}()
