import EaselTestSupport
import Foundation
import Glibc
import Testing

/// `easel serve` as users run it: a process, its history shared with `easel undo` in a
/// terminal, and a graceful exit on SIGTERM while requests are in flight.
@Suite("easel serve (the command)")
struct ServeCommandTests {
    static let card = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"

    /// Starts `easel serve` on a free port over a copy of the samples; returns the process
    /// and its port.
    static func serve(_ s: CLIScratch, _ extra: [String] = []) throws -> (Process, Int) {
        let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where !name.hasPrefix(".") {
            try? FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: s.folder.file("docs/\(name)"))
        }
        let started = try start(s, extra)
        return (started.process, started.port)
    }

    /// Starts `easel serve docs --port 0 EXTRA` and waits for its start line; returns the
    /// process, its port, its standard error and what it said so far.
    static func start(_ s: CLIScratch, _ extra: [String] = []) throws -> (
        process: Process, port: Int, errors: Pipe, said: String
    ) {
        let errors = Pipe()
        let process = try s.launch(["serve", "docs", "--port", "0"] + extra, standardError: errors)
        // "easel: serving docs on http://127.0.0.1:PORT/ (open it in a browser)"
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !text.contains("serving") || !text.hasSuffix("\n") {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let match = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(text[match].split(separator: ":").last ?? "")
        else {
            process.terminate()
            throw TestFailure("easel serve did not say where it listens: \(text)")
        }
        return (process, port, errors, text)
    }

    @Test func anEditOverHTTPIsUndoneByEaselUndoAndTheOtherWayRound() async throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let (server, port) = try Self.serve(s)
        defer { server.terminate() }
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
    }

    @Test func sigtermUnderLoadFinishesInFlightRequestsAndExitsZero() async throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let (server, port) = try Self.serve(s, ["--cache-mb", "0", "--render-queue", "64"])
        let responses = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await offThread {
                        // Distinct sizes: every request renders (2600x4000 and thereabouts).
                        let socket = try RawHTTP.connect(port: port)
                        defer { close(socket) }
                        try RawHTTP.send(
                            socket,
                            Array(
                                "GET /api/documents/\(Self.card)/render.png?width=\(2000 + index) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                                    .utf8))
                        let bytes = RawHTTP.readAll(socket)
                        guard !bytes.isEmpty else { return (0, true) }  // not accepted any more: refused, not corrupted
                        let response = try RawHTTP.parse(bytes)
                        let complete = response.headers["content-length"].flatMap(Int.init) == response.body.count
                        return (response.status, complete)
                    }
                }
            }
            // SIGTERM once renders are really in flight (the metrics say so), however slow the machine.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let metrics = try? await offThread { try RawHTTP.request(port: port, method: "GET", path: "/metrics").text }
                if let line = metrics?.split(separator: "\n").first(where: { $0.hasPrefix("easel_render_queue_depth ") }),
                    let depth = Double(line.split(separator: " ").last ?? ""), depth >= 1
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            kill(server.processIdentifier, SIGTERM)
            var all: [(Int, Bool)] = []
            for try await response in group { all.append(response) }
            return all
        }
        server.waitUntilExit()
        #expect(server.terminationStatus == 0, "a graceful shutdown exits 0")
        #expect(responses.contains { $0.0 == 200 }, "requests in flight were finished")
        #expect(responses.allSatisfy { $0.1 }, "no response was cut short")
        #expect(responses.allSatisfy { [0, 200, 503].contains($0.0) }, "\(responses.map(\.0))")
    }

    @Test func listeningBeyondThisMachineNeedsAToken() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let refused = try s.run(["serve", "docs", "--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refusing to listen on 0.0.0.0 without a token"), "\(refused.stderr)")
        try s.folder.write("short", to: "token")
        let short = try s.run(["serve", "docs", "--host", "0.0.0.0", "--port", "0", "--token-file", "token"])
        #expect(short.status != 0)
        #expect(short.stderr.contains("shorter than 16"))
    }
}

extension ServeCommandTests {
    @Test func theEventStreamSeesAnEaselMoveInATerminal() async throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let (server, port) = try Self.serve(s, ["--log-format", "json", "--access-log"])
        defer { server.terminate() }
        let socket = try RawHTTP.connect(port: port, timeout: 30)
        defer { close(socket) }
        try RawHTTP.send(socket, Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
        let reader = EventReader(socket: socket)
        _ = try await reader.read(until: "retry:")
        let started = Date()
        try s.ok(["move", "docs/\(Self.card)", "0", "--by", "10,10"])
        let revision = try await offThread { () -> String in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in try Data(contentsOf: s.folder.file("docs/\(Self.card)")) {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        let text = try await reader.read(until: revision)
        print(
            "change event \(Int(Date().timeIntervalSince(started) * 1000)) ms after easel move started (measured, not asserted)")
        #expect(text.contains(#""path":"\#(Self.card)""#))
    }
}

extension ServeCommandTests {
    @Test func jsonLogsAreOneObjectPerLine() async throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
        try FileManager.default.copyItem(at: samples.appendingPathComponent(Self.card), to: s.folder.file("docs/\(Self.card)"))
        let log = s.folder.file("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = s.easel
        process.arguments = ["serve", "docs", "--port", "0", "--log-format", "json", "--access-log"]
        process.currentDirectoryURL = s.folder.url
        process.environment = s.environment
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var port: Int?
        for _ in 0..<200 where port == nil {
            try await Task.sleep(for: .milliseconds(50))
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            // "easel: serving docs on http://127.0.0.1:PORT/ (open it in a browser)"
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast())
            }
        }
        let found = try #require(port)
        _ = try await offThread { try RawHTTP.request(port: found, method: "GET", path: "/api/documents/missing.rwcard") }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("{") }
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
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        // Where the histories and locks go ($XDG_STATE_HOME/easel/documents), a file.
        let easelState = s.state.url.appendingPathComponent("easel")
        try FileManager.default.createDirectory(at: easelState, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: easelState.appendingPathComponent("documents"))
        let (server, port) = try Self.serve(s)
        defer { if server.isRunning { server.terminate() } }
        let edit = try await offThread {
            try RawHTTP.request(
                port: port, method: "POST", path: "/api/documents/\(Self.card)/edits",
                headers: ["Content-Type": "application/json"], body: Array(#"{"verb":"move","index":0,"by":[30,0]}"#.utf8))
        }
        #expect(edit.status == 500, "\(edit.text)")
        #expect(!edit.text.contains(easelState.path), "\(edit.text)")
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        let errors = try #require(server.standardError as? Pipe)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("request failed") && log.contains(easelState.appendingPathComponent("documents").path), "\(log)")
    }
}
