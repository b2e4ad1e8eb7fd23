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
    static func startAndStop(_ s: CLIScratch, _ extra: [String] = []) throws -> String {
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = s.easel
        process.arguments = ["serve", "docs", "--port", "0"] + extra
        process.currentDirectoryURL = s.folder.url
        process.environment = s.environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !(text.contains("serving") && text.hasSuffix("\n")) {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let match = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(text[match].split(separator: ":").last ?? "")
        else { throw TestFailure("easel serve did not say where it listens: \(text)") }
        #expect(try RawHTTP.request(port: port, method: "GET", path: "/healthz").status == 200)
        kill(process.processIdentifier, SIGTERM)
        text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    @Test func oneLineWithTheURLToOpen() throws {
        let s = CLIScratch()
        let said = try Self.startAndStop(s)
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

    @Test func aTokenComesWithTheHintHowToPassIt() throws {
        let s = CLIScratch()
        try s.folder.write("0123456789abcdef0123456789abcdef\n", to: "token.txt")
        let said = try Self.startAndStop(s, ["--token-file", "token.txt"])
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("serving") }.count == 1, "\(said)")
        #expect(
            lines.contains { $0.hasPrefix("easel: note: ") && $0.contains("Authorization: Bearer") && $0.contains("token.txt") },
            "\(said)")
        #expect(!said.contains("0123456789abcdef"), "the token itself is never printed: \(said)")
    }
}
