import NIOCore
import NIOHTTP1

/// Applies the rules of a request's head that hang on its HTTP version, which only this side
/// of the pipeline knows (Hummingbird's requests do not carry it), just after the parser:
///
/// - A request whose Host header HTTP does not allow is refused, as RFC 9112 (section 3.2)
///   tells a server to: an HTTP/1.1 request without one, any request with more than one, or
///   one whose value is not a host and port. The host is what the loopback check judges a
///   caller by (`AccessMiddleware`). The refusal is reported as `HostHeaderRefusal`, which
///   `ParserErrorProblems` turns into what the parser reports: it is answered with a 400 once
///   any earlier response on the connection has ended, written as a problem document saying
///   why, and the connection closes. Nothing of the request, nor of anything after it on the
///   connection, goes further.
/// - An HTTP/1.0 request that does not ask to keep the connection alive ends it once it is
///   answered, as HTTP/1.0 clients expect (Hummingbird would keep it open, and a client
///   reading its answer to the end would wait for the idle timeout).
final class RequestHeadRules: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Whether a request on this connection was refused: everything after it is dropped.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        guard Self.allowsHost(head) else {
            refused = true
            context.fireErrorCaught(HostHeaderRefusal())
            return
        }
        if head.version == .http1_0 && !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Whether `head`'s Host headers are as HTTP requires: exactly one from HTTP/1.1 on (at
    /// most one before), its value a host and an optional port, or empty.
    static func allowsHost(_ head: HTTPRequestHead) -> Bool {
        let hosts = head.headers["host"]
        let required = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
        guard hosts.count == 1 || (hosts.isEmpty && !required) else { return false }
        return hosts.allSatisfy(isHostAndPort)
    }

    /// Whether `value` is made of what a URI's host (a name, an IPv4 address or a bracketed
    /// IPv6 literal) and port may hold: RFC 3986's unreserved, sub-delims, `%`, `:`, `[`, `]`.
    private static func isHostAndPort(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return Self.punctuation.contains(byte)
            }
        }
    }

    private static let punctuation = Set("-._~!$&'()*+,;=%:[]".utf8)
}

/// A request refused by `RequestHeadRules` for its Host header.
struct HostHeaderRefusal: Error {}
