import Dispatch
import EaselCairo
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
    /// The names (with or without a port) clients reach this server by besides loopback's,
    /// as a proxy in front of it passes them on (`--public-host easel.example.com`): the Host
    /// check accepts them, and a page from them is this server's own.
    public var publicHosts: [String] = []
    /// The proxies in front of this server (`--trusted-proxy`: an address, or a block such
    /// as 10.0.0.0/8): a request from one is taken as the proxy says, its client's host in
    /// `X-Forwarded-Host`, and needs no token, as on loopback: the proxy is the gate.
    public var trustedProxies: [String] = []
    /// Also look for changes in the folder every this many seconds (`--watch-poll`): where
    /// inotify does not see another machine's writes (NFS), replicas still tell their
    /// clients of each other's edits. nil: inotify alone.
    public var watchPoll: Double?

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

    /// Whether `address` (an IP address as text) is one of the trusted proxies'.
    public func isTrustedProxy(_ address: String) -> Bool {
        trustedProxies.contains { AddressBlock(parsing: $0)?.contains(address) ?? false }
    }

    /// Whether `host` (a Host header: a name with or without a port) is one of the public hosts.
    public func isPublicHost(_ host: String) -> Bool {
        let wanted = host.lowercased()
        return publicHosts.contains { name in
            let name = name.lowercased()
            return name == wanted || AddressBlock.withoutPort(wanted) == name
        }
    }

    /// True for addresses only this machine can reach.
    public var bindsLoopback: Bool { ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.") }
}

/// The bounds of `easel serve` (docs/service-api.md lists them). The document budgets of `easel`
/// itself (file sizes, element counts, image pixels) apply on top of these.
public struct ServerLimits: Sendable {
    /// The largest request body (a document and its images for a stateless render). A body
    /// declared larger is refused (413) before any of it is read; one sent without a length
    /// is refused as soon as it passes this.
    public var maxBodyBytes = 32 << 20
    /// Bytes of request bodies held in memory at once, server-wide: each body reserves its
    /// declared length (or `maxBodyBytes` when it declares none) before it is read, and a
    /// request that finds this spent is refused at once (503 with `Retry-After`). A render
    /// (or an upload) also takes its place in the render queue before its body is read.
    ///
    /// The memory this bounds: at rest (about 45 MiB) plus this budget plus what the render
    /// workers hold while they unpack and render (one body's unpacking each; a render's own
    /// pixels are bounded by `maxRenderPixels`). With the defaults a flood of 32 MiB POSTs
    /// stays under 256 MiB of RSS: `Tests/Scripts/flood.py` measured 40 parallel 32 MiB POSTs
    /// to `/api/render` at a peak of 191 MiB (debug build, two cores; 4 served, 36 refused
    /// with 503; 1.4 GB before the budget), `/healthz` answering throughout.
    public var maxBufferedBodyBytes = 128 << 20
    /// Connections open at once. At most the file descriptor limit (raised to its hard
    /// limit at start) less 64 kept for the server's own files (`ConnectionCap.reservedDescriptors`).
    /// When it is reached, the connection idle the longest (none of its requests in
    /// progress) is closed, as nginx reuses keep-alive connections, so a new client (a
    /// health probe) still gets in; a connection in the middle of a request is never closed
    /// for this. With every connection busy, new ones wait in the listen backlog. Measured by
    /// `Tests/Scripts/flood.py`: 1,000 idle connections under a 1,024-file limit (cap 960)
    /// and 400 under a 256-file limit (cap 192) leave `/healthz` answering in under 10 ms,
    /// the server at 57 and 46 MiB.
    public var maxConnections = 1024
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
    /// A render request is refused (503) when the renders queued ahead of it would take,
    /// at the recent average render time, longer than two renders or 50 ms (whichever is
    /// longer), and in any case longer than this many seconds.
    public var maxQueueWait: Double = 0.5
    /// The largest output, in pixels (the library's own limit, `RenderLimits.maxOutputPixels`,
    /// holds above it).
    public var maxRenderPixels = 25_000_000
    /// Bytes of rendered output kept in memory.
    public var cacheBytes = 128 << 20
    /// Bytes of rendered output kept on disk, in the state folder's `render-cache` (0: none).
    public var diskCacheBytes = 0
    /// Seconds an edit waits for another editor (a CLI command) to finish with the document.
    public var lockTimeout: Double = 5
    /// Edits (undo and redo too), new documents, copies, uploads and listings waiting or
    /// running at once; one more is refused (503 with `Retry-After`). Four threads do this
    /// work, and an edit of a document another editor holds waits up to `lockTimeout` there.
    public var maxFileJobs = 64
    /// Open `GET /api/events` streams at a time; one more is refused (503) until one ends.
    /// Each holds a connection, a bounded backlog and a share of every broadcast.
    public var maxEventStreams = 256

    /// The defaults.
    public init() {}

    /// The deadline of a render starting now, the one rule for stored and sent documents
    /// alike: its decoding, layout and drawing stop `renderTimeout` seconds from now (the
    /// request has been answered with 503 by then). Give it to `DocumentRenderer.scene`.
    var renderDeadline: UInt64? { RenderTimeout.deadline(seconds: renderTimeout) }

    /// Readies `scene` for a render with `options`: an output over `maxRenderPixels` is
    /// refused (413) before any pixel is allocated.
    func prepare(_ scene: inout Scene, options: RenderOptions, document: String?) throws {
        func tooLarge(_ width: Int, _ height: Int) -> Problem {
            Problem(
                .contentTooLarge,
                "a \(width)x\(height) rendering is over this server's limit of \(min(maxRenderPixels, RenderLimits.maxOutputPixels)) pixels (and \(RenderLimits.maxOutputSide) a side); ask for a smaller scale or size",
                document: document)
        }
        let pixels: (width: Int, height: Int)
        do {
            // The pixels of what is drawn: the area asked for, or the whole canvas.
            pixels = try DocumentRenderer.region(of: scene, options: options).pixels
        } catch .tooLarge(let width, let height, _), .cairo(.tooLarge(let width, let height, _)) {
            // The library's own limits are wider: one message, the server's, for every size refused.
            throw tooLarge(width, height)
        }
        guard pixels.width * pixels.height <= maxRenderPixels else { throw tooLarge(pixels.width, pixels.height) }
    }
}
