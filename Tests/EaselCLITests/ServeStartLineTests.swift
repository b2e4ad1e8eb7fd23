import EaselTestSupport
import Foundation
import Glibc
import Testing

/// `easel serve` says once where it serves, with the URL to open, and how to pass the token
/// when one is needed: no second start line from the server's own logger.
@Suite("serve prints one start line")
struct ServeStartLineTests {
    /// Runs `easel serve docs --port 0 EXTRA`, asks for /healthz once it listens, stops it
    /// with SIGTERM and returns everything it wrote on stderr.
    static func startAndStop(_ s: CLIScratch, _ extra: [String] = []) async throws -> String {
        let served = try await ServeCommandTests.serve(s, extra, samples: false)
        let port = served.port
        #expect(try await offThread { try RawHTTP.request(port: port, method: "GET", path: "/healthz") }.status == 200)
        served.process.send(SIGTERM)
        #expect(await served.process.process.exited() == 0, "SIGTERM ends it gracefully")
        return served.process.log
    }

    @Test func oneLineWithTheURLToOpen() async throws {
        let s = CLIScratch()
        let said = try await Self.startAndStop(s)
        let lines = said.split(separator: "\n").map(String.init)
        let start = lines.filter { $0.contains("serving") || $0.contains("listening") || $0.contains("started") }
        #expect(start.count == 1, "one start line: \(said)")
        let line = try #require(start.first)
        #expect(
            line.range(
                of: #"^easel: serving docs on http://127\.0\.0\.1:\d+/ \(open it in a browser\)$"#, options: .regularExpression)
                != nil, "\(line)")
        #expect(!said.contains("Authorization"), "no token, no hint: \(said)")
    }

    @Test func aTokenComesWithTheHintHowToPassIt() async throws {
        let s = CLIScratch()
        try s.folder.write("0123456789abcdef0123456789abcdef\n", to: "token.txt")
        let said = try await Self.startAndStop(s, ["--token-file", "token.txt"])
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("serving") }.count == 1, "\(said)")
        #expect(
            lines.contains { $0.hasPrefix("easel: note: ") && $0.contains("Authorization: Bearer") && $0.contains("token.txt") },
            "\(said)")
        #expect(!said.contains("0123456789abcdef"), "the token itself is never printed: \(said)")
    }
}
