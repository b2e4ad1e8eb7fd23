import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers a request the HTTP parser refuses — a header section over the limit, a request
/// line or header that is not HTTP/1.1 — or `RequestHeadRules` refuses, with a problem
/// document saying why, as every other refusal is answered: 431 for too large a header
/// section, 400 for the rest.
///
/// Hummingbird answers such a request itself, before any route or middleware runs, with a
/// bare 400 and no body, once the parser's error has passed through the pipeline. This
/// handler sits just after the parser, notes the error as it passes, and writes the problem
/// in place of that bare answer (only then: a parser error never reaches a route's own
/// response, and no other response is touched).
final class ParserErrorProblems: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The largest header section the parser allows, for the 431's words.
    private let maxHeaderBytes: Int
    /// What the client is told, once the parser or `RequestHeadRules` has refused the
    /// connection's input.
    private var refusal: Problem?
    /// Whether a response has begun and not ended (its head written, its end not yet).
    private var responseOpen = false

    init(maxHeaderBytes: Int) { self.maxHeaderBytes = maxHeaderBytes }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError {
            refusal = Self.problem(for: error, maxHeaderBytes: maxHeaderBytes)
            context.fireErrorCaught(error)
        } else if error is HostHeaderRefusal {
            refusal = Problem(
                .badRequest,
                "the request's Host header is missing, repeated or not a host and port: HTTP/1.1 asks for exactly one")
            // Hummingbird answers a parser's error, whichever it is, with a bare 400 and
            // closes the connection; that answer is the one replaced below.
            context.fireErrorCaught(HTTPParserError.unknown)
        } else {
            context.fireErrorCaught(error)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(let head):
            if let refusal, !responseOpen, head.status == .badRequest, head.headers["content-length"] == ["0"] {
                // The bare answer's empty end, which follows, ends the problem too.
                writeProblem(refusal, version: head.version, context: context)
                promise?.succeed()
            } else {
                context.write(data, promise: promise)
            }
            responseOpen = true
        case .body:
            context.write(data, promise: promise)
        case .end:
            responseOpen = false
            context.write(data, promise: promise)
        }
    }

    private func writeProblem(_ problem: Problem, version: HTTPVersion, context: ChannelHandlerContext) {
        let body = problem.json
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/problem+json")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Connection", value: "close")
        // As on every other answer (the middleware's, which this one never reaches).
        headers.add(name: "Cross-Origin-Resource-Policy", value: "same-origin")
        headers.add(name: "Server", value: "easel")
        let status = HTTPResponseStatus(statusCode: problem.status.code, reasonPhrase: problem.status.reasonPhrase)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
    }

    /// What the client is told of the parser's `error`.
    static func problem(for error: HTTPParserError, maxHeaderBytes: Int) -> Problem {
        switch error {
        case .headerOverflow:
            return Problem(
                .requestHeaderFieldsTooLarge,
                "the request's header section (or its request line) is over this server's limit of \(maxHeaderBytes) bytes")
        case .invalidMethod: return Problem(.badRequest, "the request's method is not an HTTP method")
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidPort:
            return Problem(.badRequest, "the request's target is not a valid URL path")
        case .invalidVersion: return Problem(.badRequest, "the request is not HTTP/1.1 or HTTP/1.0")
        case .invalidHeaderToken, .invalidCharactersUsed:
            return Problem(.badRequest, "a header of the request holds a character HTTP does not allow there")
        case .invalidContentLength, .unexpectedContentLength:
            return Problem(.badRequest, "the request's Content-Length is not valid, or not allowed with its Transfer-Encoding")
        case .invalidChunkSize: return Problem(.badRequest, "a chunk of the request's body does not start with a valid size")
        default: return Problem(.badRequest, "the request is not valid HTTP/1.1 (\(error))")
        }
    }
}
