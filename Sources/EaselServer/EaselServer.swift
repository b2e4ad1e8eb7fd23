import EaselDocuments
import EaselGeometry
import EaselSupport
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `easel serve`: the documents of one folder over HTTP — listed, described, rendered
/// (cached by ETag), edited with the CLI's history, and watched for changes — on
/// Hummingbird. Build one from a configuration and `run` it; it stops gracefully on SIGTERM
/// and SIGINT (no new connections, in-flight requests finish, event streams end).
public struct EaselServer: Sendable {
    /// How it runs.
    public let configuration: ServerConfiguration
    let service: DocumentService
    let pool: RenderPool
    let metrics: ServerMetrics
    let feed: ChangeFeed
    let logger: Logger
    /// Blocking file work: edits, new documents, uploads (`ServerLimits.maxFileJobs`).
    let files: FileWork
    /// The request bodies held in memory at once (`ServerLimits.maxBufferedBodyBytes`).
    let bodies: BodyBudget
    /// The open connections, for the connection cap (`ServerLimits.maxConnections`).
    let connections: ConnectionRegistry
    let editor = EditorRoutes<ServerRequestContext>()

    /// A server for `configuration`; throws when the folder is not one, when it would
    /// listen beyond this machine without a token, or when its token is too weak (see
    /// `TokenStrength`: at least 16 bytes and 8 distinct characters).
    public init(configuration: ServerConfiguration, registry: DocumentRegistry = .standard) throws {
        if let token = configuration.token, !token.isEmpty, let weakness = TokenStrength.weakness(of: token) {
            throw ServerSetupError(weakness)
        }
        if !configuration.bindsLoopback && (configuration.token ?? "").isEmpty {
            throw ServerSetupError(
                "refusing to listen on \(configuration.host) without a token: anyone who can reach it could read and edit the documents; give --token-file, or bind 127.0.0.1"
            )
        }
        self.configuration = configuration
        let folder = try ServedFolder(configuration.folder)
        service = DocumentService(
            folder: folder, registry: registry, limits: configuration.limits, stateFolder: configuration.stateFolder)
        pool = RenderPool(
            workers: configuration.limits.renderWorkers, queueLimit: configuration.limits.renderQueue,
            timeout: .milliseconds(Int64(saturating: configuration.limits.renderTimeout * 1000)),
            maxWait: configuration.limits.maxQueueWait)
        metrics = ServerMetrics()
        feed = ChangeFeed(
            folder: folder, registry: registry, maxSubscribers: configuration.limits.maxEventStreams,
            pollSeconds: configuration.watchPoll)
        var logger = Logger(label: "easel.serve") { label in
            configuration.jsonLogs ? JSONLogHandler(label: label) as any LogHandler : StreamLogHandler.standardError(label: label)
        }
        logger.logLevel = .info
        self.logger = logger
        let threads = NIOThreadPool(numberOfThreads: 4)
        threads.start()
        files = FileWork(threads: threads, maxJobs: configuration.limits.maxFileJobs)
        bodies = BodyBudget(capacity: configuration.limits.maxBufferedBodyBytes)
        connections = ConnectionRegistry(limit: ConnectionCap.effectiveLimit(configured: configuration.limits.maxConnections))
    }

    /// The router with every route and middleware.
    func router() -> Router<ServerRequestContext> {
        // HEAD answers as GET does, without the body (RFC 9110: a GET resource must allow it).
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(
            ObservabilityMiddleware(
                metrics: metrics, logger: logger, folder: configuration.folder, accessLog: configuration.accessLog))
        router.middlewares.add(AccessMiddleware(configuration: configuration))
        router.get("/healthz") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n"))) }
        router.get("/readyz") { _, _ in try readiness() }
        router.get("/metrics") { _, _ in
            let cache = service.cache.usage
            metrics.gauges(
                queueDepth: pool.depth, bodyBytes: bodies.inUse, cacheEntries: cache.entries, cacheBytes: cache.bytes,
                subscribers: feed.subscriberCount)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        DocumentRoutes<ServerRequestContext>(
            service: service, pool: pool, metrics: metrics, limits: configuration.limits, files: files, bodies: bodies
        )
        .add(to: router)
        EventRoutes<ServerRequestContext>(feed: feed).add(to: router)
        PickerRoutes<ServerRequestContext>(pool: pool).add(to: router)
        StatelessRenderRoutes<ServerRequestContext>(service: service, pool: pool, limits: configuration.limits, bodies: bodies)
            .add(to: router)
        editor.add(to: router)
        return router
    }

    private func readiness() throws -> Response {
        if let failure = feed.failure.withLock({ $0 }) {
            throw Problem(.serviceUnavailable, "change events are not available: \(failure)")
        }
        guard FileManager.default.isReadableFile(atPath: service.folder.realPath) else {
            throw Problem(.serviceUnavailable, "the served folder cannot be read")
        }
        // Every edit keeps its history there: a server that cannot make it answers every edit
        // with a failure (a container run as a user with no home, say), so it is not ready.
        let state = service.state.url.path
        do {
            try FileIO.createFolders(at: state, permissions: 0o700)
        } catch {
            throw Problem(
                .serviceUnavailable,
                "Easel's state folder (edit histories) cannot be made: \(error.reason); set XDG_STATE_HOME to a writable folder")
        }
        if let stranger = service.state.strangerFolder() {
            throw Problem(.serviceUnavailable, StateFolder.strangerReason(stranger))
        }
        guard access(state, W_OK | X_OK) == 0 else {
            throw Problem(
                .serviceUnavailable,
                "Easel's state folder (edit histories) cannot be written; set XDG_STATE_HOME to a writable folder")
        }
        return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
    }

    /// The Hummingbird application (tests run it with HummingbirdTesting).
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let limits = configuration.limits
        let channel = HTTP1Channel.Configuration(
            idleTimeout: .milliseconds(Int64(saturating: limits.idleTimeout * 1000)),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes, maxHeaderFieldCount: 100))
        // The command prints the one start line, with the URL to open; Hummingbird's own
        // "Server started and listening on …" (info) would be a second in another format, so
        // the application's logger speaks from notice up. Requests and failures are logged
        // with `logger` itself (ObservabilityMiddleware), as before.
        var applicationLogger = logger
        applicationLogger.logLevel = .notice
        // Connections are capped below the file descriptor limit, the idle ones closed first
        // under pressure, so a flood of idle connections cannot starve `/healthz`.
        return Application(
            router: router(), server: .trackedHTTP1(configuration: channel, registry: connections),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "easel",
                availableConnectionsDelegate: ConnectionCap(registry: connections)),
            services: [Lifecycle(server: self)],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: applicationLogger)
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully. `onListening` receives
    /// the port once the server accepts connections.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let app = application(onListening: onListening)
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// Starts the change feed with the server and stops it (ending event streams) at shutdown.
    struct Lifecycle: Service {
        let server: EaselServer

        func run() async throws {
            server.feed.start()
            try? await gracefulShutdown()
            server.feed.stop()
            await server.pool.shutdown()
            try? await server.files.threads.shutdownGracefully()
        }
    }
}

/// Why a server cannot start (a folder that is not one, an address that needs a token).
public struct ServerSetupError: Error, CustomStringConvertible {
    /// What is wrong and what to do.
    public var description: String
    package init(_ description: String) { self.description = description }
}
