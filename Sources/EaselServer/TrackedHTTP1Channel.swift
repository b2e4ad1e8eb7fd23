import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 connection, told to a `ConnectionRegistry`: registered when it
/// is accepted (forgotten when it closes), and marked busy while a request's handler runs
/// on it, so the connection cap knows which connections it may close. A request the HTTP
/// parser refuses, or whose Host header HTTP does not allow, is answered with a problem
/// document, and an HTTP/1.0 request ends its connection unless it asks to keep it
/// (`RequestHeadRules`, `ParserErrorProblems`).
struct TrackedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    let registry: ConnectionRegistry
    let maxHeaderBytes: Int

    /// `HTTP1Channel` with `configuration`, its `responder` wrapped to tell `registry` when
    /// each request starts and ends.
    init(
        responder: @escaping HTTPChannelHandler.Responder, configuration: HTTP1Channel.Configuration,
        registry: ConnectionRegistry
    ) {
        self.registry = registry
        maxHeaderBytes = configuration.httpDecoder.maxHeaderListSize
        http = HTTP1Channel(
            responder: { request, writer, channel in
                registry.requestStarted(on: channel)
                defer { registry.requestEnded(on: channel) }
                try await responder(request, writer, channel)
            },
            configuration: configuration)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Registered once its pipeline is whole: the cap may ask it to close at once, and
        // the handler that closes it must be there to hear it.
        http.setup(channel: channel, logger: logger).flatMapThrowing { [maxHeaderBytes] value in
            let pipeline = channel.pipeline.syncOperations
            let parser = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            // The rules report to the problems' handler, which must come after it.
            let problems = ParserErrorProblems(maxHeaderBytes: maxHeaderBytes)
            try pipeline.addHandler(problems, position: .after(parser))
            try pipeline.addHandler(RequestHeadRules(), position: .after(parser))
            registry.opened(channel)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// An HTTP/1.1 server whose connections are tracked in `registry` (see `ConnectionCap`).
    static func trackedHTTP1(configuration: HTTP1Channel.Configuration, registry: ConnectionRegistry) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            TrackedHTTP1Channel(responder: responder, configuration: configuration, registry: registry)
        }
    }
}
