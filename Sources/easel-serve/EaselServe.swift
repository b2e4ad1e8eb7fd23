import ArgumentParser
import Dispatch
import EaselServer
import EaselSupport
import Foundation

/// `easel-serve`: a folder's documents over HTTP. Its own executable, so that `easel` builds
/// without SwiftNIO and Hummingbird; `easel serve …` runs it (found beside `easel` or on PATH).
@main
struct EaselServe: ParsableCommand {
    /// Keeps a closed standard stream from being reused by a file the server opens, then
    /// parses and runs the command.
    static func main() {
        StandardStreams.reserveClosedDescriptors()
        main(nil)
    }

    /// Errors in the CLI's one style (`easel: error: …`): this program is `easel serve`.
    static var _errorPrefix: String { "easel: error: " }

    static let configuration = CommandConfiguration(
        commandName: "easel-serve",
        abstract: "Serve a folder's documents over HTTP: list, JSON, renders (PNG, SVG, PDF), edits, undo, change events.",
        discussion: """
            Listens on 127.0.0.1:8080 by default. Any other address needs --token-file: every API \
            request then carries Authorization: Bearer TOKEN. Stops gracefully on SIGTERM or Ctrl-C. \
            The routes are in docs/service-api.md. `easel serve ARGUMENTS` runs this program with \
            the same arguments.
            Example: easel serve Assets/Samples --port 8080
            """,
        version: EaselVersion.current
    )

    @Argument(help: "The folder to serve; nothing outside it is read or written.", completion: .directory)
    var folder: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port, printed when listening).")
    var port = 8080

    @Flag(name: .customLong("read-only"), help: "Serve documents and renders only; refuse edits, undo and redo.")
    var readOnly = false

    @Option(name: .customLong("token-file"), help: "A file holding the bearer token (required off loopback).")
    var tokenFile: String?

    @Option(name: .customLong("allow-origin"), help: "Allow this origin to call the API from its pages (CORS); repeatable.")
    var allowOrigin: [String] = []

    @Option(
        name: .customLong("public-host"),
        help:
            "A name clients reach this server by through a proxy (easel.example.com, with or without a port); repeatable. The Host check accepts it."
    )
    var publicHost: [String] = []

    @Option(
        name: .customLong("trusted-proxy"),
        help:
            "The address (or block, 10.0.0.0/8) of a proxy in front of this server: its requests are taken as it says (X-Forwarded-Host) and need no token; repeatable."
    )
    var trustedProxy: [String] = []

    @Option(
        name: .customLong("watch-poll"),
        help:
            "Also look for changes every SECONDS, for folders whose changes inotify does not see (NFS and other network file systems, written from other machines)."
    )
    var watchPoll: Double?

    @Option(name: .customLong("log-format"), help: "text or json (one object per line, on stderr).")
    var logFormat: LogFormat = .text

    @Flag(name: .customLong("access-log"), help: "Log a line per request (method, route, status, milliseconds).")
    var accessLog = false

    @Option(name: .customLong("cache-mb"), help: "Megabytes of rendered output kept in memory.")
    var cacheMegabytes = 128

    @Option(
        name: .customLong("disk-cache-mb"),
        help: "Megabytes of rendered output also kept on disk in Easel's state folder (0: none).")
    var diskCacheMegabytes = 0

    @Option(name: .customLong("render-queue"), help: "Renders that may wait for a worker before requests get 503.")
    var renderQueue = 32

    @Option(
        name: .customLong("max-connections"),
        help:
            "Connections open at once (at most the open-file limit less 64); at the cap the longest-idle one is closed.")
    var maxConnections = 1024

    /// How the server logs: readable lines, or one JSON object per line.
    enum LogFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        // Bounded above too: megabytes become bytes by a shift, which must not wrap.
        guard (0...(1 << 20)).contains(cacheMegabytes), (0...(1 << 20)).contains(diskCacheMegabytes) else {
            throw ValidationError("--cache-mb and --disk-cache-mb must be from 0 to 1048576 (1 TiB).")
        }
        guard (0...100_000).contains(renderQueue) else { throw ValidationError("--render-queue must be from 0 to 100000.") }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be from 1 to 1000000.")
        }
        for block in trustedProxy where AddressBlock(parsing: block) == nil {
            throw ValidationError("--trusted-proxy must be an IP address or a block such as 10.0.0.0/8, not \"\(block)\".")
        }
        for name in publicHost where name.isEmpty || name.contains("/") || name.contains(" ") {
            throw ValidationError("--public-host must be a host name, with or without a port, not \"\(name)\".")
        }
        if let watchPoll, !(watchPoll >= 0.1 && watchPoll <= 3600) {
            throw ValidationError("--watch-poll must be from 0.1 to 3600 seconds.")
        }
    }

    /// Runs the server until SIGTERM or Ctrl-C. A failure to start (an address in use, a
    /// refused configuration) is one line on stderr and exit status 1; usage errors stay
    /// ArgumentParser's (exit 64).
    func run() throws {
        do {
            try serve()
        } catch let error as ValidationError {
            throw error
        } catch {
            ServeDiagnostics.printError("easel: error: \(error)")
            throw ExitCode(1)
        }
    }

    private func serve() throws {
        var token: String?
        if let tokenFile {
            let text = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            // A refused configuration, as a missing token is (exit 1): the options are well formed.
            guard text.count >= 16 else {
                throw ServerSetupError("the token in \(tokenFile) is shorter than 16 characters; use a long random one")
            }
            token = text
        }
        var limits = ServerLimits()
        limits.cacheBytes = cacheMegabytes << 20
        limits.diskCacheBytes = diskCacheMegabytes << 20
        limits.renderQueue = renderQueue
        limits.maxConnections = maxConnections
        var configuration = ServerConfiguration(
            folder: URL(fileURLWithPath: folder), host: host, port: port, readOnly: readOnly, token: token,
            allowedOrigins: allowOrigin, limits: limits, jsonLogs: logFormat == .json)
        configuration.accessLog = accessLog
        configuration.publicHosts = publicHost
        configuration.trustedProxies = trustedProxy
        configuration.watchPoll = watchPoll
        let server = try EaselServer(configuration: configuration)
        let failure = Locked<Error?>(nil)
        let done = DispatchSemaphore(value: 0)
        let host = self.host, folder = self.folder, tokenFile = self.tokenFile
        Task {
            do {
                try await server.run { port in
                    // One start line, with the URL to open: an address that means every one
                    // is opened as this machine's own.
                    let everywhere = host == "0.0.0.0" || host == "::"
                    let shown = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "[::1]" : host.contains(":") ? "[\(host)]" : host
                    let url = "http://\(shown):\(port)/"
                    ServeDiagnostics.printError(
                        "easel: serving \(folder) on \(url) (open it in a browser"
                            + (everywhere ? "; listening on every address, \(host))" : ")"))
                    // The token is never printed: where it is, and how a request carries it.
                    if let tokenFile {
                        ServeDiagnostics.printError(
                            "easel: note: API requests need the header Authorization: Bearer TOKEN, with the token in \(tokenFile): "
                                + "curl -H \"Authorization: Bearer $(cat \(tokenFile))\" \(url)api/documents")
                    }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
