import Foundation
import Testing
import EaselServer
import EaselTestSupport

/// What a refusal tells the client: an allowed origin's page can read every refusal (a 404
/// for a path no route serves too), and a read-only server says the same methods in a
/// 405's `Allow` as in its answer to OPTIONS.
@Suite("Server access headers")
struct ServerAccessHeadersTests {
    @Test func aNotFoundIsReadableByAnAllowedOrigin() async throws {
        let origin = "http://good.example"
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.allowedOrigins = [origin] }
        defer { Task { try await server.stop() } }
        let missing = try await server.request("GET", "/nothing/here", headers: ["Origin": origin])
        #expect(missing.status == 404)
        #expect(missing.headers["access-control-allow-origin"] == origin)
        #expect(missing.headers["content-type"] == "application/problem+json")
        let other = try await server.request("GET", "/nothing/here", headers: ["Origin": "http://evil.example"])
        #expect(other.status == 404 && other.headers["access-control-allow-origin"] == nil)
    }

    @Test func aReadOnlyServerSaysTheSameMethodsEverywhere() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.readOnly = true }
        defer { Task { try await server.stop() } }
        let document = "/api/documents/\(ServerFixtures.card)"
        let deleted = try await server.request("DELETE", document)
        #expect(deleted.status == 405)
        #expect(deleted.headers["allow"] == "GET, HEAD, OPTIONS")
        let options = try await server.request("OPTIONS", document)
        #expect(options.status == 204)
        #expect(options.headers["allow"] == "GET, HEAD, OPTIONS")
        // Actions answer nothing but OPTIONS on a read-only server.
        let undo = try await server.request("POST", "\(document)/undo")
        #expect(undo.status == 405 && undo.text.contains("read-only"), "\(undo.text)")
        #expect(undo.headers["allow"] == "OPTIONS")
        #expect(try await server.request("OPTIONS", "\(document)/undo").headers["allow"] == "OPTIONS")
        // The stateless render writes nothing and stays.
        #expect(try await server.request("OPTIONS", "/api/render").headers["allow"] == "POST, OPTIONS")
    }
}
