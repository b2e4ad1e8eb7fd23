import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /api/events`: server-sent events, one `change` event per changed document (or
/// resource), as JSON `{"path", "kind", "revision"}`, and a comment line every 15 seconds.
/// The stream ends when the server shuts down. When `ServerLimits.maxEventStreams` streams
/// are open, another is refused with 503 and `Retry-After`.
struct EventRoutes<Context: RequestContext>: Sendable {
    let feed: ChangeFeed

    static var headers: HTTPFields {
        [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"]
    }

    func add(to router: Router<Context>) {
        // Its own HEAD: one made from GET would subscribe and never read the stream.
        router.head("/api/events") { _, _ in Response(status: .ok, headers: Self.headers) }
        router.get("/api/events") { _, _ in
            let feed = self.feed
            guard let subscription = feed.subscribe() else {
                var problem = Problem(.serviceUnavailable, "too many event streams are open; try again later")
                problem.headers[.retryAfter] = "5"
                throw problem
            }
            let (id, events) = subscription
            return Response(
                status: .ok, headers: Self.headers,
                body: ResponseBody { writer in
                    // However the stream ends (a client gone makes a write throw), its slot frees.
                    defer { feed.unsubscribe(id) }
                    try await withGracefulShutdownHandler {
                        try await writer.write(ByteBuffer(string: ": easel events\nretry: 1000\n\n"))
                        let encoder = JSONEncoder()
                        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                        for await event in events {
                            guard let event else {
                                try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                                continue
                            }
                            let json = String(decoding: try encoder.encode(event), as: UTF8.self)
                            try await writer.write(ByteBuffer(string: "event: change\ndata: \(json)\n\n"))
                        }
                    } onGracefulShutdown: {
                        feed.unsubscribe(id)
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
