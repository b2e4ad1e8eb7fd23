import EaselServer
import EaselTestSupport
import Foundation
import Testing

/// A graceful shutdown (what SIGTERM and Ctrl-C start in `easel serve`) under load: the
/// renders in flight are finished and answered whole, the rest refused, none cut short.
@Suite("A graceful shutdown finishes the requests in flight")
struct GracefulShutdownTests {
    /// The render queue's depth, from the metrics (Prometheus writes "1.0").
    static func queueDepth(_ server: LiveServer) async throws -> Double {
        let metrics = try await server.request("GET", "/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("easel_render_queue_depth ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test func rendersInFlightAreFinishedAndNoneIsCutShort() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.limits.cacheBytes = 0  // every request renders
            $0.limits.renderQueue = 64
        }
        let port = server.port
        let responses = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await offThread {
                        // Distinct sizes: every request renders (2600x4000 and thereabouts).
                        let socket = try RawHTTP.connect(port: port)
                        defer { close(socket) }
                        let path = "/api/documents/\(ServerFixtures.card)/render.png?width=\(2000 + index)"
                        try RawHTTP.send(
                            socket, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
                        let bytes = RawHTTP.readAll(socket)
                        guard !bytes.isEmpty else { return (0, true) }  // not accepted any more: refused, not corrupted
                        let response = try RawHTTP.parse(bytes)
                        return (response.status, response.headers["content-length"].flatMap(Int.init) == response.body.count)
                    }
                }
            }
            // Shut down once renders are really in flight, however slow the machine.
            var depth = 0.0
            let deadline = Date().addingTimeInterval(60)
            while depth < 1, Date() < deadline {
                depth = try await Self.queueDepth(server)
                if depth < 1 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(depth >= 1, "renders were in flight")
            try await server.stop()
            return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
        }
        #expect(responses.contains { $0.0 == 200 }, "requests in flight were finished")
        #expect(responses.allSatisfy { $0.1 }, "no response was cut short")
        #expect(responses.allSatisfy { [0, 200, 503].contains($0.0) }, "\(responses.map(\.0))")
    }
}
