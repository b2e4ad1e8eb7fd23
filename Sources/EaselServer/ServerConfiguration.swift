import Dispatch
import EaselRender
import Foundation

/// How `easel serve` runs: the folder it serves, where it listens, and what it allows.
public struct ServerConfiguration: Sendable {
    /// The folder whose documents are served; nothing outside it is read or written.
    public var folder: URL
    /// The address to bind: 127.0.0.1 unless told otherwise. Any other address needs a token.
    public var host: String
    /// The port (0 picks a free one; `EaselServer.run(onListening:)` reports it).
    public var port: Int
    /// Serve documents and renders only: every mutating route answers 405.
    public var readOnly: Bool
    /// The bearer token mutating requests (and every request, off loopback) must carry.
    public var token: String?
    /// Origins allowed to call the API from other web pages (CORS); none by default.
    public var allowedOrigins: [String]
    /// Where histories and locks are kept (nil: `$XDG_STATE_HOME/easel`, shared with the CLI).
    public var stateFolder: URL?
    /// Sizes, counts and times that bound every request.
    public var limits: ServerLimits
    /// Log lines as JSON objects (one per line) instead of text.
    public var jsonLogs: Bool
    /// Log a line per request (method, route, status, time); errors are logged either way.
    public var accessLog = false

    /// A configuration serving `folder` on `host`:`port`, read-write, with no token.
    public init(
        folder: URL, host: String = "127.0.0.1", port: Int = 8080, readOnly: Bool = false, token: String? = nil,
        allowedOrigins: [String] = [], stateFolder: URL? = nil, limits: ServerLimits = ServerLimits(), jsonLogs: Bool = false
    ) {
        self.folder = folder
        self.host = host
        self.port = port
        self.readOnly = readOnly
        self.token = token
        self.allowedOrigins = allowedOrigins
        self.stateFolder = stateFolder
        self.limits = limits
        self.jsonLogs = jsonLogs
    }

    /// True for addresses only this machine can reach.
    public var bindsLoopback: Bool { ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.") }
}

/// The bounds of `easel serve` (the README lists them). The document budgets of `easel`
/// itself (file sizes, element counts, image pixels) apply on top of these.
public struct ServerLimits: Sendable {
    /// The largest request body (a document and its images for a stateless render).
    public var maxBodyBytes = 32 << 20
    /// The most parts of a multipart request.
    public var maxParts = 64
    /// The largest header section.
    public var maxHeaderBytes = 16 << 10
    /// Seconds a connection may sit idle (also a client too slow to send its request).
    public var idleTimeout: Double = 30
    /// Renders at a time (default: one per core).
    public var renderWorkers = ProcessInfo.processInfo.activeProcessorCount
    /// Renders that may wait for a worker before requests get 503.
    public var renderQueue = 32
    /// Seconds a request waits for its render before it gets 503.
    public var renderTimeout: Double = 30
    /// A render request is refused (503) when the renders queued ahead of it would take
    /// longer than this many seconds, at the recent average render time.
    public var maxQueueWait: Double = 0.5
    /// The largest output, in pixels.
    public var maxRenderPixels = 25_000_000
    /// Bytes of rendered output kept in memory.
    public var cacheBytes = 128 << 20
    /// Bytes of rendered output kept on disk, in the state folder's `render-cache` (0: none).
    public var diskCacheBytes = 0
    /// Seconds an edit waits for another editor (a CLI command) to finish with the document.
    public var lockTimeout: Double = 5
    /// Open `GET /api/events` streams at a time; one more is refused (503) until one ends.
    /// Each holds a connection, a bounded backlog and a share of every broadcast.
    public var maxEventStreams = 256

    /// The defaults.
    public init() {}

    /// Readies `scene` for a render starting now with `options`, the one rule for stored and
    /// sent documents alike: it stops drawing `renderTimeout` seconds from now (the request
    /// has been answered with 503 by then), and an output over `maxRenderPixels` is refused
    /// (413) before any pixel is allocated.
    func prepare(_ scene: inout Scene, options: RenderOptions, document: String?) throws {
        scene.deadline = RenderTimeout.deadline(seconds: renderTimeout)
        let pixels = try options.size.pixelSize(for: scene.canvasSize)
        guard pixels.width * pixels.height <= maxRenderPixels else {
            throw Problem(
                .contentTooLarge,
                "a \(pixels.width)x\(pixels.height) rendering is over this server's limit of \(maxRenderPixels) pixels; ask for a smaller scale or size",
                document: document)
        }
    }
}
