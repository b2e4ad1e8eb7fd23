import EaselTestSupport
import Foundation
import Glibc
import Testing

/// `easel serve` as users run it: a process whose histories are `easel undo`'s, that says
/// where it listens, logs as asked on standard error and ends with exit 0 on SIGTERM.
/// (What the server answers, and its graceful shutdown under load, are tested in process in
/// EaselServerTests.)
@Suite("easel serve (the command)")
struct ServeCommandTests {
    static let card = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"

    /// `easel serve docs --port 0 EXTRA`, running, and the port it said it listens on.
    struct Served {
        let process: RunningEasel
        let port: Int
    }

    /// Starts `easel serve docs --port 0 EXTRA` (over a copy of the samples unless `empty`)
    /// and waits for its start line: "easel: serving docs on http://127.0.0.1:PORT/ …".
    static func serve(_ s: CLIScratch, _ extra: [String] = [], samples: Bool = true) async throws -> Served {
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        if samples {
            let folder = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
                try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: s.folder.file("docs/\(name)"))
            }
        }
        let process = try RunningEasel(s, ["serve", "docs", "--port", "0"] + extra)
        let said = await eventually {
            process.log.contains("serving") && process.log.hasSuffix("\n") || !process.process.isRunning
        }
        guard said, let match = process.log.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(process.log[match].split(separator: ":").last ?? "")
        else {
            process.send(SIGKILL)
            throw TestFailure("easel serve did not say where it listens: \(process.log)")
        }
        return Served(process: process, port: port)
    }

    @Test func anEditOverHTTPIsUndoneByEaselUndoAndTheOtherWayRound() async throws {
        let s = CLIScratch()
        let served = try await Self.serve(s)
        let port = served.port
        let original = try s.bytes("docs/\(Self.card)")
        let edit = try await offThread {
            try RawHTTP.request(
                port: port, method: "POST", path: "/api/documents/\(Self.card)/edits",
                headers: ["Content-Type": "application/json"], body: Array(#"{"verb":"move","index":0,"by":[30,0]}"#.utf8))
        }
        #expect(edit.status == 200, "\(edit.text)")
        #expect(try s.bytes("docs/\(Self.card)") != original)
        try s.ok(["undo", "docs/\(Self.card)"])
        #expect(try s.bytes("docs/\(Self.card)") == original, "easel undo undid the edit made over HTTP")
        try s.ok(["move", "docs/\(Self.card)", "1", "--by", "5,5"])
        let moved = try s.bytes("docs/\(Self.card)")
        let undo = try await offThread {
            try RawHTTP.request(port: port, method: "POST", path: "/api/documents/\(Self.card)/undo")
        }
        #expect(undo.status == 200)
        #expect(try s.bytes("docs/\(Self.card)") == original, "undo over HTTP undid easel move")
        try s.ok(["redo", "docs/\(Self.card)"])
        #expect(try s.bytes("docs/\(Self.card)") == moved)
        served.process.send(SIGTERM)
        #expect(await served.process.process.exited() == 0, "a graceful shutdown exits 0: \(served.process.log)")
    }

    @Test func listeningBeyondThisMachineNeedsAToken() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let refused = try s.run(["serve", "docs", "--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refusing to listen on 0.0.0.0 without a token"), "\(refused.stderr)")
        try s.folder.write("short", to: "token")
        let short = try s.run(["serve", "docs", "--host", "0.0.0.0", "--port", "0", "--token-file", "token"])
        #expect(short.status == 1, "a refused configuration, as a missing token is")
        #expect(short.stderr.contains("shorter than 16"))
    }

    @Test func jsonLogsAreOneObjectPerLine() async throws {
        let s = CLIScratch()
        let served = try await Self.serve(s, ["--log-format", "json", "--access-log"])
        let port = served.port
        _ = try await offThread { try RawHTTP.request(port: port, method: "GET", path: "/api/documents/missing.rwcard") }
        served.process.send(SIGTERM)
        await served.process.process.exited()
        #expect(await eventually(within: 2) { served.process.log.contains("\"route\"") }, "\(served.process.log)")
        let lines = served.process.log.split(separator: "\n").filter { $0.hasPrefix("{") }
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count && !objects.isEmpty, "every log line is a JSON object")
        let access = try #require(objects.first { $0["route"] as? String == "/api/documents/{path}" })
        #expect(access["status"] as? String == "404")
        #expect(access["level"] as? String == "info")
        #expect(access["ms"] != nil && access["time"] != nil)
    }

    /// A fault in the server's own state folder: the client gets a 500 naming no server
    /// path, and the server's log has the whole error, path included, for the operator.
    @Test func aStateFolderFaultIsLoggedWithItsPath() async throws {
        let s = CLIScratch()
        // Where the histories and locks go ($XDG_STATE_HOME/easel/documents), a file.
        let easelState = s.state.url.appendingPathComponent("easel")
        try FileManager.default.createDirectory(at: easelState, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: easelState.appendingPathComponent("documents"))
        let served = try await Self.serve(s)
        let port = served.port
        let edit = try await offThread {
            try RawHTTP.request(
                port: port, method: "POST", path: "/api/documents/\(Self.card)/edits",
                headers: ["Content-Type": "application/json"], body: Array(#"{"verb":"move","index":0,"by":[30,0]}"#.utf8))
        }
        #expect(edit.status == 500, "\(edit.text)")
        #expect(!edit.text.contains(easelState.path), "\(edit.text)")
        let logged = easelState.appendingPathComponent("documents").path
        #expect(await eventually { served.process.log.contains("request failed") && served.process.log.contains(logged) })
        served.process.send(SIGTERM)
        await served.process.process.exited()
    }
}
