@testable import EaselServer
import EaselSupport
import EaselTestSupport
import Foundation
import Glibc
import Testing

/// Admission before work: a body is refused before it is read (over its limit, a full
/// render queue, a spent body budget), one sent slowly holds no render's place, and a flood of idle connections cannot keep a new
/// client out, while a connection in the middle of a request is never closed for it.
@Suite("easel serve: admission before work")
struct AdmissionTests {
    /// A small drawing, valid for `POST /api/render`.
    static let drawing = Array(
        #"{"format":"org.easel.drawing","version":1,"canvas":{"size":[200,100],"background":[1,1,1,1]},"graphics":[{"kind":"ellipse","transform":{"center":[100,50],"size":[80,60],"rotation":30},"fill":[1,0,0,1]}]}"#
            .utf8)

    /// A request may expect to wait two renders, or 50 ms for cheap ones, never past the
    /// ceiling: under a flood, those served are served about as fast as without one.
    @Test func theWaitARequestMayExpectIsAFewRendersWithinTheCeiling() {
        #expect(RenderPool.waitBound(averageRender: 0.011, maxWait: 0.5) == 0.05)
        #expect(RenderPool.waitBound(averageRender: 0.1, maxWait: 0.5) == 0.2)
        #expect(RenderPool.waitBound(averageRender: 1.2, maxWait: 0.5) == 0.5)
        #expect(RenderPool.waitBound(averageRender: 0, maxWait: 0.5) == 0.05)
    }

    @Test func aBodyDeclaredOverItsLimitIsRefusedBeforeItIsSent() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.limits.maxBodyBytes = 64 << 10 }
        defer { Task { try await server.stop() } }
        let card = "/api/documents/\(ServerFixtures.card)"
        for (path, type) in [
            ("/api/render", "application/json"), ("\(card)/edits", "application/json"), ("\(card)/images", "image/png"),
            ("/api/documents", "application/json"),
        ] {
            // The head alone: a server that waited for the body would answer nothing.
            let response = try await Self.exchange(
                port: server.port, head: Self.head("POST", path, port: server.port, type: type, length: 1 << 20))
            #expect(response.status == 413, "\(path): \(response.status) \(response.text)")
            #expect(response.text.contains("over the limit"), "\(path): \(response.text)")
        }
    }

    @Test func aRenderTheQueueRefusesNeverReadsItsBody() async throws {
        let folder = try ServerFixtures.samples()
        try folder.write(SlowDrawing.json, to: "slow.drawing")
        let server = try await LiveServer.start(folder) {
            $0.limits.renderWorkers = 1
            $0.limits.renderQueue = 0
            $0.limits.renderTimeout = 3
        }
        defer { Task { try await server.stop() } }
        let port = server.port
        // A render slow to draw holds the only place (answered at the timeout, then stopped).
        let busy = try RawHTTP.connect(port: port, timeout: 10)
        defer { close(busy) }
        try RawHTTP.send(busy, Array("GET /api/documents/slow.drawing/render.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        try await Self.waitForQueueDepth(1, server: server)
        // A render, an upload and a preview, heads only: refused at once, bodies unread.
        for (path, type) in [
            ("/api/render", "application/json"), ("/api/documents/\(ServerFixtures.card)/images", "image/png"),
            ("/api/documents/\(ServerFixtures.card)/preview.png", "application/json"),
        ] {
            let refused = try await Self.exchange(
                port: port, head: Self.head("POST", path, port: port, type: type, length: 1 << 20))
            #expect(refused.status == 503, "\(path): \(refused.status) \(refused.text)")
            #expect(refused.headers["retry-after"] != nil)
            // Nothing of it was done: a client may send it again as it is (a POST too).
            #expect(refused.text.contains(#""nothingDone" : "true""#), "\(path): \(refused.text)")
        }
    }

    @Test func bodiesSentSlowlyHoldNoPlaceThatRendersNeed() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.limits.renderWorkers = 1
            $0.limits.renderQueue = 0
            $0.limits.maxBufferedBodyBytes = 3 * (100 << 10)
        }
        defer { Task { try await server.stop() } }
        let port = server.port
        // Three renders declaring 100 KiB each and sending 10 bytes of it (as a client on a
        // slow line, or one that means harm, would, until the idle timeout).
        let slow = try Self.renderBodies(3, port: port, declaring: 100 << 10, sending: Array(Self.drawing.prefix(10)))
        defer { slow.forEach { close($0) } }
        // Their heads are read, and the ten bytes each sent are held.
        try await Self.waitForBodyBytes(3 * 10, server: server)
        // Renders are served meanwhile: the one worker is free, and no place is held.
        let render = try await server.request("GET", "/api/documents/\(ServerFixtures.drawing)/render.png?width=120")
        #expect(render.status == 200, "\(render.status) \(render.text)")
        #expect(render.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        // And a body that arrives whole is rendered after them.
        let rest = Array(Self.drawing.dropFirst(10)) + [UInt8](repeating: 0x20, count: (100 << 10) - Self.drawing.count)
        let first = slow[0]
        let served = try await offThread { try RawHTTP.parse(RawHTTP.sendWhileReading(first, rest)) }
        #expect(served.status == 200, "\(served.text)")
    }

    @Test func aSpentBodyBudgetRefusesTheNextBodyUntilTheFirstEnds() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.limits.maxBufferedBodyBytes = 256 << 10 }
        defer { Task { try await server.stop() } }
        let port = server.port
        // A render declaring 250 KiB, 200 KiB of it sent: those bytes are held.
        let sent = Self.drawing + [UInt8](repeating: 0x20, count: (200 << 10) - Self.drawing.count)
        let first = try Self.renderBodies(1, port: port, declaring: 250 << 10, sending: sent)[0]
        try await Self.waitForBodyBytes(200 << 10, server: server)
        // An edit of 100 KiB more than is free: refused as its bytes arrive, nothing done.
        let edits = "/api/documents/\(ServerFixtures.card)/edits"
        let edit = Array(#"{"operations":[{"verb":"move","index":0,"by":[5,5]}]}"#.utf8)
        let padded = edit + [UInt8](repeating: 0x20, count: (100 << 10) - edit.count)
        let refused = try await server.request("POST", edits, headers: ["Content-Type": "application/json"], body: padded)
        #expect(refused.status == 503, "\(refused.status) \(refused.text)")
        #expect(refused.headers["retry-after"] != nil)
        #expect(refused.text.contains("request bodies"), "\(refused.text)")
        #expect(refused.text.contains(#""nothingDone" : "true""#), "\(refused.text)")
        // The first client goes away mid-body: its bytes are given back, and the edit is read.
        close(first)
        var status = 0
        let deadline = Date().addingTimeInterval(10)
        while status != 200, Date() < deadline {
            status = try await server.request("POST", edits, headers: ["Content-Type": "application/json"], body: padded).status
            #expect([200, 503].contains(status))
            if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(status == 200, "the budget was given back when the first request failed")
    }

    @Test func editsWaitingForALockedDocumentQueueOnlySoFar() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.limits.maxFileJobs = 4
            $0.limits.lockTimeout = 20
        }
        defer { Task { try await server.stop() } }
        // Another editor (a CLI command) holds the card: the server's edits of it wait.
        var held: DocumentLock? = try DocumentLock(beside: server.folder.file(ServerFixtures.card))
        let edits = "/api/documents/\(ServerFixtures.card)/edits"
        let move = Array(#"{"verb":"move","index":0,"by":[1,1]}"#.utf8)
        let answers = Locked<[Int: RawHTTP.Response]>([:])
        let senders = (0..<10).map { index in
            Task {
                let answer = try await server.request("POST", edits, headers: ["Content-Type": "application/json"], body: move)
                answers.withLock { $0[index] = answer }
            }
        }
        // Four wait for the lock; the six past the limit are refused at once, nothing done.
        let deadline = Date().addingTimeInterval(10)
        while answers.withLock({ $0.count }) < 6, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let refused = answers.withLock { Array($0.values) }
        #expect(refused.count == 6 && refused.allSatisfy { $0.status == 503 }, "\(refused.map(\.status))")
        #expect(refused.allSatisfy { $0.headers["retry-after"] != nil && $0.text.contains("already waiting") })
        #expect(refused.allSatisfy { $0.text.contains(#""nothingDone" : "true""#) })
        // The rest of the server answers meanwhile, and the document's reads too.
        #expect(try await server.request("GET", "/healthz").status == 200)
        #expect(try await server.request("GET", "/api/documents/\(ServerFixtures.card)").status == 200)
        // The editor finishes: the four waiting edits are made.
        held = nil
        for sender in senders { try await sender.value }
        let statuses = answers.withLock { $0.values.map(\.status) }
        #expect(statuses.filter { $0 == 200 }.count == 4 && statuses.filter { $0 == 503 }.count == 6, "\(statuses)")
        _ = held
    }

    @Test func bodiesDeclaredLargeAndNotSentHoldNothing() async throws {
        // Four heads declaring 200 KiB each, then silence: they held the whole budget until
        // their timeout when a body's declared length was reserved up front.
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.limits.maxBufferedBodyBytes = 256 << 10 }
        defer { Task { try await server.stop() } }
        let port = server.port
        let silent = try Self.renderBodies(4, port: port, declaring: 200 << 10, sending: [])
        defer { silent.forEach { close($0) } }
        try await Task.sleep(for: .milliseconds(300))
        // An edit of 100 KiB: more than a single such head would have left free.
        let edit = Array(#"{"operations":[{"verb":"move","index":0,"by":[5,5]}]}"#.utf8)
        let padded = edit + [UInt8](repeating: 0x20, count: (100 << 10) - edit.count)
        let answer = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/edits", headers: ["Content-Type": "application/json"], body: padded)
        #expect(answer.status == 200, "\(answer.status) \(answer.text)")
    }

    @Test func atTheConnectionCapTheIdlestConnectionMakesRoomForANewClient() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.limits.maxConnections = 8 }
        defer { Task { try await server.stop() } }
        // Four connections idle for longer (the server has taken them when it has answered
        // a request that came after them), then four new ones fill the cap.
        var idle = try (0..<4).map { _ in try RawHTTP.connect(port: server.port, timeout: 10) }
        defer { idle.forEach { close($0) } }
        #expect(try await server.request("GET", "/healthz").status == 200)
        idle += try (0..<4).map { _ in try RawHTTP.connect(port: server.port, timeout: 10) }
        // Filling the cap closes one of those idle the longest.
        let closed = try await Self.waitUntilClosed(idle, atLeast: 1)
        #expect(closed.allSatisfy(idle.prefix(4).contains), "the idlest go first: \(closed) of \(idle)")
        // A health probe on a new connection gets in and is answered.
        let started = Date()
        let health = try await server.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(Date().timeIntervalSince(started) < 5, "answered without waiting for an idle timeout")
    }

    @Test func aConnectionInTheMiddleOfARequestIsNotClosedAtTheCap() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.limits.maxConnections = 4
        }
        defer { Task { try await server.stop() } }
        let port = server.port
        // The oldest connection: a render whose body is still coming.
        let busy = try Self.renderBodies(1, port: port, declaring: Self.drawing.count, sending: Array(Self.drawing.prefix(10)))[0]
        defer { close(busy) }
        try await Self.waitForBodyBytes(10, server: server)
        // More idle connections than the cap leaves room for: the idle ones are closed, the busy one stays.
        let idle = try (0..<6).map { _ in try RawHTTP.connect(port: port, timeout: 10) }
        defer { idle.forEach { close($0) } }
        let closed = try await Self.waitUntilClosed(idle, atLeast: 3)
        #expect(!closed.isEmpty)
        #expect(try await server.request("GET", "/healthz").status == 200)
        #expect(!(try Self.closedByServer([busy]).contains(busy)), "the busy connection is open")
        let rest = Array(Self.drawing.dropFirst(10))
        let served = try await offThread { try RawHTTP.parse(RawHTTP.sendWhileReading(busy, rest)) }
        #expect(served.status == 200, "the request in progress was answered whole: \(served.text)")
        #expect(served.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
    }

    // MARK: Helpers

    /// `count` connections, each sending the head of a render declaring a body of `length`
    /// bytes and then `sent` of it (a client on a slow line, or one that means harm); the
    /// caller closes them.
    static func renderBodies(_ count: Int, port: Int, declaring length: Int, sending sent: [UInt8]) throws -> [Int32] {
        var sockets: [Int32] = []
        do {
            for _ in 0..<count {
                sockets.append(try RawHTTP.connect(port: port, timeout: 10))
                try RawHTTP.send(
                    sockets[sockets.count - 1],
                    Array(head("POST", "/api/render", port: port, type: "application/json", length: length).utf8) + sent)
            }
        } catch {
            sockets.forEach { close($0) }
            throw error
        }
        return sockets
    }

    /// A request head declaring a body of `length` bytes; the connection closes after it.
    static func head(_ method: String, _ path: String, port: Int, type: String, length: Int) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
    }

    /// Sends `head` (no body) on a new connection and reads the answer (bounded by the socket's timeout).
    static func exchange(port: Int, head: String) async throws -> RawHTTP.Response {
        try await offThread {
            let socket = try RawHTTP.connect(port: port, timeout: 10)
            defer { close(socket) }
            try RawHTTP.send(socket, Array(head.utf8))
            return try RawHTTP.parse(RawHTTP.readAll(socket))
        }
    }

    /// Waits (10 s at most) until the bodies on their way hold `bytes` of the body budget:
    /// the sign that their heads were read (a render's place is taken only once its body has
    /// arrived, so the queue's depth says nothing of a body still coming).
    static func waitForBodyBytes(_ bytes: Int, server: LiveServer) async throws {
        try await waitForGauge("easel_request_body_bytes_reserved", bytes, server: server)
    }

    /// Waits (10 s at most) until the render queue holds `depth` requests.
    static func waitForQueueDepth(_ depth: Int, server: LiveServer) async throws {
        try await waitForGauge("easel_render_queue_depth", depth, server: server)
    }

    /// Waits (10 s at most) until `/metrics` shows the gauge `name` at `value`.
    static func waitForGauge(_ name: String, _ value: Int, server: LiveServer) async throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            // Prometheus writes a gauge as a decimal ("1.0").
            let metrics = try await server.request("GET", "/metrics").text
            if metrics.contains("\(name) \(value).0\n") { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("/metrics never showed \(name) at \(value)")
    }

    /// Waits (10 s at most) until the server has closed `atLeast` of `sockets`; returns those
    /// it closed, in the order they were opened.
    static func waitUntilClosed(_ sockets: [Int32], atLeast count: Int) async throws -> [Int32] {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let closed = try closedByServer(sockets)
            if closed.count >= count { return closed }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure(
            "the server closed \(try closedByServer(sockets).count) of \(sockets.count) idle connections, not \(count)")
    }

    /// Those of `sockets` the server has closed: an end of stream or a reset waits on them
    /// (peeked without blocking; nothing else is sent on an idle connection).
    static func closedByServer(_ sockets: [Int32]) throws -> [Int32] {
        try sockets.filter { socket in
            var byte: UInt8 = 0
            let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count == 0 { return true }
            if count > 0 { throw TestFailure("the server sent \(byte) on a connection that sent nothing") }
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            return errno == ECONNRESET
        }
    }
}
