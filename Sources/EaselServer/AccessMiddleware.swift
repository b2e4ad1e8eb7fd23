import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import EaselSupport

/// Who may do what, checked before any route runs:
/// - **Host**: on loopback without a token, the `Host` header must name this machine
///   (127.x.x.x, localhost, [::1]) or one of the public hosts a proxy in front of it serves it
///   as (`--public-host`), so a web page cannot reach the service by DNS rebinding.
/// - **Proxies**: a request from a trusted proxy (`--trusted-proxy`) is taken as the proxy
///   says: the client's host is its `X-Forwarded-Host`, and it needs no token (the proxy is
///   the gate, as loopback is); anyone else's `X-Forwarded-*` headers are ignored.
/// - **Token**: off loopback (where `easel serve` refuses to start without one) every API
///   request carries `Authorization: Bearer TOKEN`, compared in constant time.
/// - **Cross-site requests**: a mutating request without the token must not come from
///   another site: its `Origin`, when present, is this server's own, and `Sec-Fetch-Site`,
///   when present, is `same-origin` or `none`. Browsers send these on every cross-site POST,
///   so no page the user visits can edit their documents; curl sends neither.
/// - **Read-only**: edits, undo and redo answer 405.
/// - **CORS**: off, unless origins are configured; then those get the CORS headers.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let configuration: ServerConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let origin = request.headers[.origin]
        do {
            return try await check(request, context: context, next: next)
        } catch var problem as Problem {
            // A refusal an allowed origin's page can read (a 401, 403, 405 or 503 without
            // these headers reaches its script as an opaque network error).
            addCORSHeaders(to: &problem.headers, origin: origin)
            throw problem
        } catch var error as HTTPError {
            // A route's own HTTP errors too, and the router's 404 for a path no route serves
            // (its not-found responder runs inside the middlewares).
            addCORSHeaders(to: &error.headers, origin: origin)
            throw error
        }
    }

    /// Adds the CORS headers an allowed `origin` needs to a refusal's `headers`, leaving
    /// any it already has.
    private func addCORSHeaders(to headers: inout HTTPFields, origin: String?) {
        guard let origin, configuration.allowedOrigins.contains(origin) else { return }
        for field in Self.corsHeaders(origin: origin) where headers[field.name] == nil { headers.append(field) }
    }

    private func check(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // Judged on the path as the router matches it (empty segments dropped, each one
        // percent-decoded): `//api/documents` reaches the same route as `/api/documents`.
        let segments = Self.routeSegments(request.uri.path)
        let isPublic = Self.isPublic(segments)
        let hasToken = Self.bearerMatches(request.headers[.authorization], token: configuration.token)
        let origin = request.headers[.origin]
        // A trusted proxy names the client's host; only its word on that is taken.
        let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress
        let viaProxy = peer.map(configuration.isTrustedProxy) ?? false
        let forwarded =
            viaProxy
            ? request.headers[HTTPField.Name("X-Forwarded-Host")!]?.split(separator: ",").first
                .map { $0.trimmingCharacters(in: .whitespaces) } : nil
        let clientHost = forwarded ?? request.head.authority
        // Where only this machine (or a trusted proxy) can reach the server, no token is asked.
        let gated = configuration.bindsLoopback || viaProxy

        // Through a proxy, the Host it sent is judged too: a page whose name was rebound to a
        // trusted address (a browser on the proxy's own machine) comes with its own Host, and
        // would name any forwarded host it liked. A proxy sends the public name, loopback, or
        // its upstream's one-label name (nginx's `easel_replicas`), which no page can have.
        let proxyHost = viaProxy ? request.head.authority.flatMap { Self.isSingleLabelHost($0) ? nil : $0 } : nil
        if gated && !hasToken,
            let host = [clientHost, proxyHost].compactMap({ $0 })
                .first(where: { !Self.isLoopbackHost($0) && !configuration.isPublicHost($0) })
        {
            throw Problem(
                .forbidden,
                "the Host header \(host.quotedForMessage) is not this machine; easel serve answers only to 127.x.x.x, localhost, [::1] and the names given with --public-host"
            )
        }
        // A CORS preflight from an allowed origin is answered before the token is asked
        // for: browsers never send credentials on a preflight, and it reveals nothing.
        if request.method == .options, let origin, configuration.allowedOrigins.contains(origin) {
            var headers = Self.corsHeaders(origin: origin)
            // The route's methods (a read-only server's reads), or all of them for a path no
            // route serves (the request itself then gets its 404).
            headers[.accessControlAllowMethods] =
                Self.answeredMethods(segments, readOnly: configuration.readOnly)?.map(\.rawValue).joined(separator: ", ")
                ?? "GET, POST, DELETE, OPTIONS"
            headers[.accessControlAllowHeaders] = "Authorization, Content-Type, If-Match, If-None-Match"
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        if !isPublic && !gated && !hasToken {
            var problem = Problem(.unauthorized, "this server needs its token: send Authorization: Bearer TOKEN")
            problem.headers[.wwwAuthenticate] = "Bearer"
            throw problem
        }
        // What this server answers at this path, OPTIONS included (a read-only one none of
        // the writes): one list for OPTIONS and for every 405's Allow.
        let answered = Self.answeredMethods(segments, readOnly: configuration.readOnly)
        let allow = answered.map { $0.map(\.rawValue).joined(separator: ", ") }
        if let allowed = Self.allowedMethods(segments), !allowed.contains(request.method) {
            // OPTIONS (not a CORS preflight from an allowed origin, answered above) says what the route answers.
            if request.method == .options { return Response(status: .noContent, headers: [.allow: allow ?? ""]) }
            var problem = Problem(
                .methodNotAllowed, "\(request.method.rawValue) is not a method of \(request.uri.path); it answers \(allow ?? "")")
            problem.headers[.allow] = allow
            throw problem
        }
        let mutating = Self.isMutating(method: request.method, segments: segments)
        if mutating && configuration.readOnly {
            var problem = Problem(
                .methodNotAllowed, "this server is read-only (--read-only): it serves documents and renders only")
            problem.headers[.allow] = allow
            throw problem
        }
        if (request.method == .post || request.method == .delete) && !hasToken {
            let crossSite = request.headers[values: HTTPField.Name("Sec-Fetch-Site")!].contains {
                !["same-origin", "none"].contains($0)
            }
            let foreignOrigin =
                origin.map {
                    !Self.isOwnOrigin($0, host: clientHost ?? "") && !configuration.allowedOrigins.contains($0)
                } ?? false
            if crossSite || foreignOrigin {
                throw Problem(
                    .forbidden,
                    "a request from another site (Origin \(origin ?? "unknown")) needs the server's token; none was sent")
            }
        }
        var response = try await next(request, context)
        if let origin, configuration.allowedOrigins.contains(origin) {
            for field in Self.corsHeaders(origin: origin) { response.headers.append(field) }
        }
        return response
    }

    /// The path's segments as the router matches them: empty ones dropped, each decoded.
    static func routeSegments(_ path: String) -> [String] {
        // Foundation's decoding is slow, and almost no segment needs it: every request pays here.
        path.split(separator: "/").map { $0.contains("%") ? (String($0).removingPercentEncoding ?? String($0)) : String($0) }
    }

    /// What needs no token off loopback: the editor's page and files, and the probes and
    /// metrics. Everything else does, whatever it is (denied by default).
    static func isPublic(_ segments: [String]) -> Bool {
        switch segments.first {
        case nil: return true  // "/", the editor's page
        case "healthz", "readyz", "metrics": return segments.count == 1
        case "editor": return segments.count == 2
        default: return false
        }
    }

    /// The methods a route answers (HEAD wherever GET is), so that any other gets 405 with
    /// `Allow` rather than 404; nil for a path no route serves (that is a 404). Kept beside
    /// the routes' own table in `EaselServer.swift`, `DocumentRoutes`, `DocumentFileRoutes`,
    /// `EventRoutes`, `EditorRoutes` and `StatelessRenderRoutes`; a test asks every route.
    static func allowedMethods(_ segments: [String]) -> [HTTPRequest.Method]? {
        let reads: [HTTPRequest.Method] = [.get, .head]
        switch (segments.first, segments.count) {
        case (nil, _): return reads  // the editor's page
        case ("healthz", 1), ("readyz", 1), ("metrics", 1), ("editor", 2): return reads
        case ("api", 2) where segments[1] == "documents": return reads + [.post]
        case ("api", _) where segments.count > 2 && segments[1] == "documents":
            let last = segments[segments.count - 1]
            // A document's actions.
            if ["edits", "undo", "redo", "duplicate", "images", "preview.png"].contains(last) { return [.post] }
            if segments.count > 3, ["render.png", "render.svg", "render.pdf"].contains(last) { return reads }  // its renders
            return reads + [.delete]  // a document
        case ("api", 2) where segments[1] == "render": return [.post]
        case ("api", 2) where segments[1] == "events" || segments[1] == "schema": return reads
        case ("api", 2) where segments[1] == "stickers", ("api", 4) where segments[1] == "stickers": return reads
        case ("api", 3) where segments[1] == "font-samples" || segments[1] == "clip-samples": return reads
        default: return nil
        }
    }

    /// The methods this server answers at a path, OPTIONS included: the route's, without
    /// the writes when the server is read-only; nil for a path no route serves.
    static func answeredMethods(_ segments: [String], readOnly: Bool) -> [HTTPRequest.Method]? {
        allowedMethods(segments).map { allowed in
            allowed.filter { !readOnly || !isMutating(method: $0, segments: segments) } + [.options]
        }
    }

    /// The requests that may write to the folder: every one but a read (GET, HEAD,
    /// OPTIONS) and `POST /api/render`, which writes nothing (denied by default, so edits,
    /// undo, redo, new documents, copies, uploads and deleting are all covered).
    static func isMutating(method: HTTPRequest.Method, segments: [String]) -> Bool {
        ![.get, .head, .options].contains(method) && segments != ["api", "render"]
    }

    /// Whether a `Host` header names this machine, read strictly: exactly `[::1]`,
    /// `localhost` or an IPv4 literal 127.x.x.x (a server bound to 127.0.0.2 is reached as
    /// that), each optionally followed by `:port` (digits only). Anything more is refused:
    /// labels after the name (`[::1].evil.example`), userinfo (`127.0.0.1:1@evil.example`),
    /// signs or spaces in a number. A DNS name that merely resolves here is not this machine.
    /// Whether `host` (with or without a port) is a name of one label (`easel_replicas`,
    /// `easel:8080`): no dot, not an address, so not a name on the internet a page could have.
    static func isSingleLabelHost(_ host: String) -> Bool {
        guard !host.hasPrefix("[") else { return false }
        let name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return !name.isEmpty && !name.contains(".") && !name.allSatisfy { ("0"..."9").contains($0) }
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        let text = host.lowercased()
        let name: Substring
        let port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return false }
            name = text[...close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            name = Substring(text)
            port = nil
        }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(port),
                number <= 65535
            else { return false }
        }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        let isLoopbackIPv4 =
            octets.count == 4 && octets.first == "127"
            && octets.allSatisfy { (1...3).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } && UInt8($0) != nil }
        return name == "localhost" || name == "[::1]" || isLoopbackIPv4
    }

    static func isOwnOrigin(_ origin: String, host: String) -> Bool {
        !host.isEmpty && (origin == "http://\(host)" || origin == "https://\(host)")
    }

    /// A constant-time comparison of the bearer token (no early exit on the first difference).
    /// The scheme is matched case-insensitively and may be followed by more than one space
    /// (RFC 9110 §11.1: `bearer`, `BEARER` and `Bearer` are one scheme).
    static func bearerMatches(_ header: String?, token: String?) -> Bool {
        guard let token, !token.isEmpty, let header, let space = header.firstIndex(of: " "),
            header[..<space].lowercased() == "bearer"
        else { return false }
        let given = Array(header[space...].drop { $0 == " " }.utf8), expected = Array(token.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in 0..<expected.count { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }

    static func corsHeaders(origin: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.accessControlAllowOrigin] = origin
        headers[.vary] = "Origin"
        headers[.accessControlExposeHeaders] = "ETag, Retry-After"
        return headers
    }
}

/// Counts and times every request by route and status, logs it, and turns any error that
/// is not already a problem into one (500 with no server details).
struct ObservabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let logger: Logger
    let folder: URL
    let accessLog: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let started = DispatchTime.now().uptimeNanoseconds
        let route = ServerMetrics.route(method: request.method.rawValue, path: request.uri.path)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            var problem = Self.problem(for: error, folder: folder)
            if problem.status.code >= 500 && problem.status != .serviceUnavailable {
                // The whole error, paths included, for the operator (the client's is hidden).
                logger.error("request failed", metadata: ["route": "\(route)", "error": "\(problem.logDetail ?? "\(error)")"])
            }
            finish(request, route: route, status: problem.status.code, started: started)
            problem.headers[Self.resourcePolicy] = "same-origin"
            return try problem.response(from: request, context: context)
        }
        finish(request, route: route, status: response.status.code, started: started)
        response.headers[Self.resourcePolicy] = "same-origin"
        return response
    }

    /// `Cross-Origin-Resource-Policy`, sent as `same-origin` on every answer: another site's
    /// page cannot embed a render or a document (`<img>`, `<script>`) to learn whether it
    /// exists, how large it is, or to start a large render. Pages of allowed origins use
    /// CORS requests, which this header does not restrict.
    static var resourcePolicy: HTTPField.Name { HTTPField.Name("Cross-Origin-Resource-Policy")! }

    private func finish(_ request: Request, route: String, status: Int, started: UInt64) {
        let elapsed = DispatchTime.now().uptimeNanoseconds - started
        metrics.request(route: route, method: request.method.rawValue, status: status, nanoseconds: elapsed)
        guard accessLog else { return }
        logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(status)",
                "ms": "\(String(format: "%.1f", Double(elapsed) / 1e6))",
            ])
    }

    /// Any error as a problem: Easel's errors keep their message (server paths removed).
    static func problem(for error: Error, folder: URL) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case let error as HTTPError:
            // Its headers go with it: the CORS headers the access middleware added (a 404
            // for a path no route serves among them), an Allow, a Retry-After.
            var problem = Problem(error.status, error.body ?? error.status.reasonPhrase)
            problem.headers = error.headers
            return problem
        case let error as any HTTPResponseError:
            return Problem(error.status, error.status.reasonPhrase)
        default:
            return Problem(
                .internalServerError, "the server failed: \(ServedFolder.hidingServerPaths(in: "\(error)", folder: folder))")
        }
    }
}
