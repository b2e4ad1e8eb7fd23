import EaselTestSupport
import Foundation
import Glibc
import Hummingbird
import Testing

@testable import EaselServer

/// What a red team found at the door: other sites embedding renders, Host headers that only
/// start like this machine's, a lower-case `bearer`, and a token anyone could guess.
@Suite("easel serve: who may call it (origin, Host, bearer scheme, token strength)")
struct ServerCallerChecksTests {
    static let token = "a-long-random-test-token-0123456789"

    /// The status of `GET path` sent with exactly this `Host` header.
    func status(port: Int, host: String, path: String = "/api/documents") async throws -> Int {
        try await offThread {
            let socket = try RawHTTP.connect(port: port)
            defer { close(socket) }
            try RawHTTP.send(socket, Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8))
            return try RawHTTP.parse(RawHTTP.readAll(socket)).status
        }
    }

    @Test func everyAnswerIsForThisOriginOnly() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let document = "/api/documents/\(ServerFixtures.drawing)"
        for (path, expected) in [
            ("\(document)/render.png?scale=0.1", 200), (document, 200), ("/api/documents", 200), ("/", 200),
            ("/editor/browser.js", 200), ("/healthz", 200), ("/api/documents/none.drawing", 404),
            ("\(document)/render.png?scale=-1", 400),
        ] {
            let response = try await server.request("GET", path)
            #expect(response.status == expected, "\(path): \(response.status) \(response.text.prefix(200))")
            #expect(response.headers["cross-origin-resource-policy"] == "same-origin", "\(path): \(response.headers)")
        }
    }

    /// A rendered SVG opened at the server's address runs nothing and loads nothing but what
    /// it embeds, whatever a document put in it; no render is taken for another type.
    @Test func aRenderedFileRunsNothingWhereverItIsOpened() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let stored = try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.svg?scale=0.2")
        let sent = try await server.request(
            "POST", "/api/render?kind=card&format=svg&scale=0.2", headers: ["Content-Type": "application/json"],
            body: try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.card))))
        for response in [stored, sent] {
            #expect(response.status == 200 && response.headers["content-type"] == "image/svg+xml", "\(response.text.prefix(200))")
            let policy = response.headers["content-security-policy"] ?? ""
            #expect(policy.contains("default-src 'none'") && policy.contains("sandbox"), "\(policy)")
            #expect(response.headers["x-content-type-options"] == "nosniff")
        }
    }

    @Test func theHostHeaderIsReadStrictly() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let port = server.port
        for host in [
            "[::1].evil.example", "[::1].evil.example:\(port)", "localhost.evil.example", "127.0.0.1.evil.example:\(port)",
            "[::1]:\(port)x", "[::1]evil",
            "127.0.0.1:+80", "127.0.0.1:", "127.0.0.01x", "[::2]",
        ] {
            #expect(try await status(port: port, host: host) == 403, "not this machine: \(host)")
        }
        // A user before the host is not HTTP's: refused before the machine is asked about (`RequestHeadRules`).
        for host in ["127.0.0.1:1@evil.example", "127.0.0.1:\(port)@evil.example"] {
            #expect(try await status(port: port, host: host) == 400, "not a host: \(host)")
        }
        for host in ["[::1]", "[::1]:\(port)", "127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "LOCALHOST"] {
            #expect(try await status(port: port, host: host) == 200, "this machine: \(host)")
        }
    }

    @Test(arguments: [
        ("[::1]", true), ("[::1]:8080", true), ("127.0.0.1", true), ("127.10.0.255:65535", true), ("localhost:1", true),
        ("[::1].evil.com", false), ("127.0.0.1:1@evil.com", false), ("[::1]:80@evil.com", false), ("127.0.0.1:65536", false),
        ("127.0.0.1:-1", false), ("127.0.0.1:1:2", false), ("127.0.0.256", false), ("127.+0.0.1", false),
        ("localhost.", false), ("[0:0:0:0:0:0:0:1]", false), ("", false), ("[::1", false),
    ])
    func aHostIsThisMachineOnlyWhenItSaysSoExactly(host: String, loopback: Bool) {
        #expect(AccessMiddleware<BasicRequestContext>.isLoopbackHost(host) == loopback, "\(host)")
    }

    @Test func theBearerSchemeIsMatchedWhateverItsCase() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.host = "0.0.0.0"
            $0.token = Self.token
        }
        defer { Task { try await server.stop() } }
        for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
            let answer = try await server.request("GET", "/api/documents", headers: ["Authorization": "\(scheme) \(Self.token)"])
            #expect(answer.status == 200, "\(scheme): \(answer.status)")
        }
        for header in ["Basic \(Self.token)", "Bearer\(Self.token)", "Bearerx \(Self.token)", "bearer \(Self.token)x"] {
            #expect(
                try await server.request("GET", "/api/documents", headers: ["Authorization": header]).status == 401, "\(header)")
        }
    }

    @Test(arguments: [
        String(repeating: "a", count: 16), String(repeating: "a", count: 64), "abababababababab", "abcdefgabcdefgab",
        "0123456789abcde",
    ])
    func aWeakTokenIsRefusedAtStart(token: String) throws {
        let folder = TemporaryFolder()
        do {
            _ = try EaselServer(configuration: ServerConfiguration(folder: folder.url, host: "0.0.0.0", token: token))
            Issue.record("a server started with the token \"\(token)\"")
        } catch let error as ServerSetupError {
            #expect(error.description.contains("too weak"), "\(error)")
            #expect(error.description.contains("at least 16 bytes with at least 8 distinct characters"), "\(error)")
        }
    }

    @Test func aStrongTokenIsAccepted() throws {
        #expect(TokenStrength.weakness(of: Self.token) == nil)
        #expect(TokenStrength.weakness(of: "0123456789abcdef") == nil)
    }
}
