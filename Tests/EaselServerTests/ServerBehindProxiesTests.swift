import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

@testable import EaselServer

/// `easel serve` as replicas behind proxies and caches, over real HTTP: the public names a
/// proxy passes on, the trusted proxies' word on the client's host (and nobody else's),
/// renders the world's caches may keep, change events a client reconnecting to another
/// replica does not miss, a folder looked at for writers inotify cannot see, and renders
/// served first come, first served.
@Suite("easel serve behind proxies, caches and other replicas")
struct ServerBehindProxiesTests {
    static let card = ServerFixtures.card

    @Test func aPublicNameIsAnsweredOnlyWhenGivenAndAProxysWordOnlyWhenTrusted() async throws {
        let plain = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await plain.stop() } }
        let refused = try await plain.request("GET", "/api/documents", headers: ["Host": "easel.example.com"])
        #expect(refused.status == 403 && refused.text.contains("--public-host"), "\(refused.text)")
        // A proxy that is not trusted cannot vouch for a host.
        let forged = try await plain.request(
            "GET", "/api/documents", headers: ["Host": "easel.example.com", "X-Forwarded-Host": "127.0.0.1"])
        #expect(forged.status == 403)

        let named = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.publicHosts = ["easel.example.com"]
            $0.trustedProxies = ["127.0.0.0/8"]
        }
        defer { Task { try await named.stop() } }
        let served = try await named.request("GET", "/api/documents", headers: ["Host": "easel.example.com:443"])
        #expect(served.status == 200, "a public name, with or without a port")
        // Through the trusted proxy (this test, on 127.0.0.1): the forwarded host is checked.
        let viaProxy = try await named.request(
            "GET", "/api/documents", headers: ["Host": "easel_replicas", "X-Forwarded-Host": "easel.example.com"])
        #expect(viaProxy.status == 200, "\(viaProxy.text)")
        let elsewhere = try await named.request(
            "GET", "/api/documents", headers: ["Host": "easel_replicas", "X-Forwarded-Host": "evil.example"])
        #expect(elsewhere.status == 403)
        // A page whose name was rebound to the proxy's address (a browser on its machine) sends
        // its own Host: it cannot vouch for itself with a forwarded one.
        for host in ["evil.example:18081", "203.0.113.7", "[2001:db8::1]:80"] {
            let rebound = try await named.request(
                "GET", "/api/documents", headers: ["Host": host, "X-Forwarded-Host": "localhost"])
            #expect(rebound.status == 403, "\(host): \(rebound.text)")
        }
        for host in ["127.0.0.1:18081", "easel.example.com", "easel_replicas:8080"] {
            let proxied = try await named.request(
                "GET", "/api/documents", headers: ["Host": host, "X-Forwarded-Host": "easel.example.com"])
            #expect(proxied.status == 200, "\(host): \(proxied.text)")
        }
        // The editor's page on the public name edits: its Origin is the forwarded host's.
        let edit = try await named.request(
            "POST", "/api/documents/\(Self.card)/edits",
            headers: [
                "Host": "easel_replicas", "X-Forwarded-Host": "easel.example.com", "Origin": "https://easel.example.com",
                "Content-Type": "application/json",
            ], body: Array(#"{"verb":"move","index":0,"by":[1,0]}"#.utf8))
        #expect(edit.status == 200, "\(edit.text)")
        let foreign = try await named.request(
            "POST", "/api/documents/\(Self.card)/edits",
            headers: [
                "Host": "easel_replicas", "X-Forwarded-Host": "easel.example.com", "Origin": "https://evil.example",
                "Content-Type": "application/json",
            ], body: Array(#"{"verb":"move","index":0,"by":[1,0]}"#.utf8))
        #expect(foreign.status == 403)
    }

    @Test func theTrustedProxyBlocksAreAddressesAndCIDRs() {
        let configuration = {
            var c = ServerConfiguration(folder: URL(fileURLWithPath: "/"))
            c.trustedProxies = ["10.0.0.0/8", "192.168.1.7", "fd00::/8"]
            return c
        }()
        #expect(configuration.isTrustedProxy("10.42.3.9") && configuration.isTrustedProxy("192.168.1.7"))
        #expect(configuration.isTrustedProxy("fd12::1") && !configuration.isTrustedProxy("fe80::1"))
        #expect(!configuration.isTrustedProxy("11.0.0.1") && !configuration.isTrustedProxy("192.168.1.8"))
        #expect(!configuration.isTrustedProxy("not an address"))
        #expect(AddressBlock(parsing: "10.0.0.0/33") == nil && AddressBlock(parsing: "nope") == nil)
    }

    @Test func aRenderNamingItsRevisionIsImmutableAndAnyOtherRevalidated() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.token = "a-token-of-sixteen-or-more" }
        defer { Task { try await server.stop() } }
        let revision = DocumentService.revision(of: Array(try Data(contentsOf: server.folder.file(Self.card))))
        let pinned = try await server.request("GET", "/api/documents/\(Self.card)/render.png?preset=thumbnail&rev=\(revision)")
        #expect(pinned.headers["cache-control"] == "public, max-age=31536000, immutable")
        let plain = try await server.request("GET", "/api/documents/\(Self.card)/render.png?preset=thumbnail")
        #expect(plain.headers["cache-control"] == "no-cache" && plain.headers["etag"] == pinned.headers["etag"])
        // A revision this server does not hold (an edit another replica has made and this
        // one has not seen): never kept for good under that name.
        let other = try await server.request(
            "GET", "/api/documents/\(Self.card)/render.png?preset=thumbnail&rev=0123456789abcdef")
        #expect(other.headers["cache-control"] == "no-cache")
        // Asked for with the token: the token holder's browser may keep it, a shared cache may not.
        let ownersOnly = try await server.request(
            "GET", "/api/documents/\(Self.card)/render.png?preset=thumbnail&rev=\(revision)",
            headers: ["Authorization": "Bearer a-token-of-sixteen-or-more"])
        #expect(ownersOnly.status == 200 && ownersOnly.headers["cache-control"] == "private, max-age=31536000, immutable")
    }

    /// Opens the event stream on `port`, naming `lastEventID` when given.
    static func events(_ port: Int, lastEventID: String? = nil) throws -> EventReader {
        let socket = try RawHTTP.connect(port: port, timeout: 30)
        let last = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        try RawHTTP.send(socket, Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(last)\r\n".utf8))
        return EventReader(socket: socket)
    }

    static func ids(_ stream: String) -> [String] {
        stream.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func aClientReconnectingToAnotherReplicaIsSentWhatItMissed() async throws {
        let folder = try ServerFixtures.samples()
        let a = try await LiveServer.start(folder)
        defer { Task { try await a.stop() } }
        let b = try await LiveServer.start(folder, state: TemporaryFolder("easel-serve-state-b"))
        defer { Task { try await b.stop() } }
        let first = try Self.events(a.port)
        _ = try await first.read(until: "retry:")
        // Two edits seen on A; then the client is away while two more are made through B.
        let url = folder.file(Self.card)
        func edit(_ server: LiveServer, by dx: Int) async throws -> String {
            let response = try await server.request(
                "POST", "/api/documents/\(Self.card)/edits", headers: ["Content-Type": "application/json"],
                body: Array(#"{"verb":"move","index":0,"by":[\#(dx),0]}"#.utf8))
            return try #require(response.json["revision"] as? String)
        }
        let r1 = try await edit(a, by: 1), r2 = try await edit(a, by: 2)
        let seen = try await first.read(until: r2)
        close(first.socket)
        let lastID = try #require(Self.ids(seen).last, "\(seen)")
        // B tells a client of its own of the next two edits: its history then holds them.
        let witness = try Self.events(b.port)
        _ = try await witness.read(until: "retry:")
        let r3 = try await edit(b, by: 3), r4 = try await edit(b, by: 4)
        _ = try await witness.read(until: r4)
        close(witness.socket)
        #expect(DocumentService.revision(of: Array(try Data(contentsOf: url))) == r4)
        let again = try Self.events(b.port, lastEventID: lastID)
        let replayed = try await again.read(until: r4)
        #expect(replayed.contains(r3) && !replayed.contains(r1), "what was missed, not what was seen: \(replayed)")
        close(again.socket)
        // An id older than anything the server holds: look again.
        let stale = try Self.events(b.port, lastEventID: "1-abc")
        #expect(try await stale.read(until: "event: resync").contains("event: resync"))
        close(stale.socket)
        _ = r2
    }

    @Test func aPollerFindsFilesAddedChangedAndRemoved() throws {
        let folder = TemporaryFolder()
        try folder.write("one", to: "a.rwcard")
        try folder.write("x", to: ".easel.lock")
        let poller = FolderPoller(root: folder.path)
        #expect(poller.changes().isEmpty)
        try folder.write("two!", to: "a.rwcard")
        try folder.write("new", to: "sub/b.drawing")
        try folder.write("y", to: ".easel.lock")
        #expect(poller.changes() == [folder.file("a.rwcard").path, folder.file("sub/b.drawing").path])
        try FileManager.default.removeItem(at: folder.file("a.rwcard"))
        #expect(poller.changes() == [folder.file("a.rwcard").path])
    }

    @Test func rendersAreServedInTheOrderTheyCame() async throws {
        let pool = RenderPool(workers: 1, queueLimit: 64, timeout: .seconds(30), maxWait: 1000)
        let order = Locked<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        // The worker is held while 40 requests queue; let go, it must take them oldest first.
        let blocker = Task { try await pool.run { gate.wait() } }
        // Generous: a new task waits for one of Swift concurrency's two threads here, which
        // tests blocking on processes elsewhere in the suite can hold for most of a minute.
        #expect(await eventually(within: 180) { pool.depth == 1 && pool.waiting == 0 })
        var tickets: [Task<Void, Error>] = []
        for index in 0..<40 {
            let ticket = try pool.admit()
            tickets.append(Task { try await pool.run(with: ticket) { order.withLock { $0.append(index) } } })
            // Each request in line before the next comes (as requests arriving one after another).
            #expect(await eventually(within: 180) { pool.waiting == index + 1 })
        }
        gate.signal()
        try await blocker.value
        for ticket in tickets { try await ticket.value }
        #expect(order.withLock { $0 } == Array(0..<40))
    }
}
