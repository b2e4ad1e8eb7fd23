import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /api/events`: server-sent events, one `change` event per changed document (or
/// resource), as JSON `{"path", "kind", "revision"}`, each with an `id` every replica gives
/// the same change, and a comment line every 5 seconds. A client that reconnects with
/// `Last-Event-ID` (browsers do by themselves) is sent what it missed first, or a `resync`
/// event when this server does not hold all of it (load everything again). The stream ends
/// when the server shuts down. When `ServerLimits.maxEventStreams` streams are open,
/// another is refused with 503 and `Retry-After`.
struct EventRoutes<Context: RequestContext>: Sendable {
    let feed: ChangeFeed

    static var headers: HTTPFields {
        [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"]
    }

    func add(to router: Router<Context>) {
        // Its own HEAD: one made from GET would subscribe and never read the stream.
        router.head("/api/events") { _, _ in Response(status: .ok, headers: Self.headers) }
        router.get("/api/events") { request, _ in
            let feed = self.feed
            let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!]
            guard let subscription = feed.subscribe() else {
                throw Problem.busy("too many event streams are open; try again later", retryAfter: 5, nothingDone: true)
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
                        func send(_ event: ChangeFeed.Event) async throws {
                            let json = String(decoding: try encoder.encode(event), as: UTF8.self)
                            try await writer.write(ByteBuffer(string: "id: \(event.id)\nevent: change\ndata: \(json)\n\n"))
                        }
                        // Subscribed first, then what was missed: nothing falls between (an
                        // event in both is sent twice; a client takes a change twice as once).
                        switch lastEventID.map(feed.replay(after:)) {
                        case .events(let missed)?: for event in missed { try await send(event) }
                        case .resync?: try await writer.write(ByteBuffer(string: "event: resync\ndata: {}\n\n"))
                        case nil: break
                        }
                        for await event in events {
                            guard let event else {
                                try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                                continue
                            }
                            try await send(event)
                        }
                    } onGracefulShutdown: {
                        feed.unsubscribe(id)
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
