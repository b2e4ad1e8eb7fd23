import EaselTestSupport
import Foundation
import Testing

/// What a hostile review of the render routes found: renders of one document served for
/// another (another folder's through the shared disk cache, a name's other Unicode form),
/// damaged cache files served, CORS preflights refused for want of a token browsers never send.
@Suite("easel serve: a render is of the document asked for, as it is now")
struct ServerRenderIdentityTests {
    static let thumbnail = "render.png?preset=thumbnail"

    @Test func twoFoldersSharingTheStateFolderNeverGetEachOthersRenders() async throws {
        let state = TemporaryFolder("easel-serve-state")
        let first = try ServerFixtures.samples(), second = try ServerFixtures.samples()
        // The copy's card says something else (as a folder and its edited backup would).
        let card = second.file(ServerFixtures.card)
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: card)) as! [String: Any]
        json["backgroundColor"] = [0, 0, 0, 1]
        try JSONSerialization.data(withJSONObject: json).write(to: card)

        let a = try await LiveServer.start(first, state: state) { $0.limits.diskCacheBytes = 8 << 20 }
        let fromA = try await a.request("GET", "/api/documents/\(ServerFixtures.card)/\(Self.thumbnail)")
        try await a.stop()
        let b = try await LiveServer.start(second, state: state) { $0.limits.diskCacheBytes = 8 << 20 }
        defer { Task { try await b.stop() } }
        let fromB = try await b.request("GET", "/api/documents/\(ServerFixtures.card)/\(Self.thumbnail)")
        #expect(fromA.status == 200 && fromB.status == 200)
        #expect(fromA.body != fromB.body, "B's own card, not A's render from the shared disk cache")
        #expect(fromA.headers["etag"] != fromB.headers["etag"])
    }

    @Test func namesThatDifferOnlyInUnicodeFormAreTwoDocuments() async throws {
        let folder = try ServerFixtures.samples()
        let composed = "caf\u{E9}.rwcard", decomposed = "cafe\u{301}.rwcard"
        // Swift calls the two names equal; the file system keeps two files.
        #expect(composed == decomposed)
        let source = try Data(contentsOf: folder.file(ServerFixtures.card))
        try source.write(to: URL(fileURLWithPath: folder.path + "/" + composed))
        var json = try JSONSerialization.jsonObject(with: source) as! [String: Any]
        json["backgroundColor"] = [0, 0, 0, 1]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: folder.path + "/" + decomposed))
        let server = try await LiveServer.start(folder)
        defer { Task { try await server.stop() } }
        let nfd = try await server.request("GET", "/api/documents/cafe%CC%81.rwcard/\(Self.thumbnail)")
        let nfc = try await server.request("GET", "/api/documents/caf%C3%A9.rwcard/\(Self.thumbnail)")
        #expect(nfd.status == 200 && nfc.status == 200, "\(nfd.text) \(nfc.text)")
        #expect(nfd.body != nfc.body, "two cards, two renders")
    }

    @Test func aDamagedDiskCacheFileIsAMiss() async throws {
        let folder = try ServerFixtures.samples()
        let state = TemporaryFolder("easel-serve-state")
        let path = "/api/documents/\(ServerFixtures.card)/\(Self.thumbnail)"
        let first = try await LiveServer.start(folder, state: state) { $0.limits.diskCacheBytes = 8 << 20 }
        let rendered = try await first.request("GET", path)
        try await first.stop()
        let cacheFolder = first.stateFolder.appendingPathComponent("render-cache")
        let file = cacheFolder.appendingPathComponent(
            try #require(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).first { $0.hasSuffix(".render") }))
        for damage in ["a flipped byte", "cut short"] {
            var bytes = try [UInt8](Data(contentsOf: file))
            if damage == "a flipped byte" { bytes[bytes.count - 500] ^= 0xFF } else { bytes.removeLast(1000) }
            try Data(bytes).write(to: file)
            // Memory off: the answer comes from disk or from a new render.
            let server = try await LiveServer.start(folder, state: state) {
                $0.limits.diskCacheBytes = 8 << 20
                $0.limits.cacheBytes = 0
            }
            let answer = try await server.request("GET", path)
            try await server.stop()
            #expect(answer.status == 200)
            #expect(answer.body == rendered.body, "\(damage): rendered again, not the damaged bytes")
        }
    }

    @Test func aPreflightFromAnAllowedOriginNeedsNoToken() async throws {
        let token = "a-long-random-test-token-0123456789"
        let origin = "http://good.example"
        let server = try await LiveServer.start(try ServerFixtures.samples()) {
            $0.host = "0.0.0.0"
            $0.token = token
            $0.allowedOrigins = [origin]
        }
        defer { Task { try await server.stop() } }
        let preflight = try await server.request(
            "OPTIONS", "/api/documents",
            headers: [
                "Origin": origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization",
            ])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == origin)
        #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
        // The refusal of a request without the token is readable by the allowed page.
        let refused = try await server.request("GET", "/api/documents", headers: ["Origin": origin])
        #expect(refused.status == 401)
        #expect(refused.headers["access-control-allow-origin"] == origin)
        // Another origin's preflight still needs the token.
        let other = try await server.request(
            "OPTIONS", "/api/documents", headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "GET"])
        #expect(other.status == 401)
        #expect(other.headers["access-control-allow-origin"] == nil)
    }

    @Test func aStatelessRenderTakesFormatAndKindOnce() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let card = try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.card)))
        for query in ["format=png&format=svg", "kind=drawing&kind=card"] {
            let twice = try await server.request(
                "POST", "/api/render?\(query)", headers: ["Content-Type": "application/json"], body: card)
            #expect(twice.status == 400, "\(query): \(twice.text)")
            #expect(twice.text.contains("is given twice"), "\(query): \(twice.text)")
        }
        for (dpi, words) in [("0", "dpi must be a positive number"), ("20000", "dpi must be more than 0 and at most 10000")] {
            let refused = try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.svg?dpi=\(dpi)")
            #expect(refused.status == 400 && refused.text.contains(words), "\(dpi): \(refused.text)")
        }
        let unknown = try await server.request(
            "POST", "/api/render?formt=png", headers: ["Content-Type": "application/json"], body: card)
        #expect(unknown.status == 400)
        #expect(unknown.text.contains("format") && unknown.text.contains("kind"), "the list names them: \(unknown.text)")
    }

    @Test func theListingsWarningsFollowTheImagesADocumentDraws() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        func warnings() async throws -> [String] {
            let listing = try await server.request("GET", "/api/documents").json
            let documents = try #require(listing["documents"] as? [[String: Any]])
            let card = try #require(documents.first { $0["path"] as? String == ServerFixtures.card })
            return card["warnings"] as? [String] ?? []
        }
        let image = server.folder.file("8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11")
        let before = try await warnings()
        #expect(!before.contains { $0.contains("8A1C53E2") }, "\(before)")
        let bytes = try Data(contentsOf: image)
        try FileManager.default.removeItem(at: image)
        let missing = try await warnings()
        #expect(missing.contains { $0.contains("8A1C53E2") }, "the card's image is gone: \(missing)")
        try bytes.write(to: image)
        #expect(try await warnings() == before, "and back")
    }

    @Test func aServedFolderReplacedUnderTheServerIsNotReady() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        #expect(try await server.request("GET", "/readyz").status == 200)
        let folder = server.folder.url, aside = folder.appendingPathExtension("old")
        try FileManager.default.moveItem(at: folder, to: aside)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        // Change events watch the folder moved aside: readiness says so, within seconds.
        var status = 200
        let deadline = Date().addingTimeInterval(5)
        while status == 200, Date() < deadline {
            status = try await server.request("GET", "/readyz").status
            if status == 200 { try await Task.sleep(for: .milliseconds(20)) }  // the polling interval
        }
        let replaced = try await server.request("GET", "/readyz")
        #expect(replaced.status == 503)
        #expect(replaced.text.contains("replaced or moved"), "\(replaced.text)")
        // Put back, it is ready again.
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.moveItem(at: aside, to: folder)
        let back = Date().addingTimeInterval(5)
        while status != 200, Date() < back {
            status = try await server.request("GET", "/readyz").status
            if status != 200 { try await Task.sleep(for: .milliseconds(20)) }  // the polling interval
        }
        #expect(status == 200)
    }

    /// A server that cannot make Easel's state folder (a container's user with no home)
    /// would answer every edit with a failure: it is not ready, and says what to set.
    @Test func aServerThatCannotKeepHistoriesIsNotReady() async throws {
        let state = TemporaryFolder("easel-serve-state")
        let blocker = try state.write("a file where the state folder goes", to: "blocker")
        let server = try await LiveServer.start(try ServerFixtures.samples(), state: state) {
            $0.stateFolder = blocker.appendingPathComponent("easel")
        }
        defer { Task { try await server.stop() } }
        let ready = try await server.request("GET", "/readyz")
        #expect(ready.status == 503)
        #expect(ready.text.contains("state folder") && ready.text.contains("XDG_STATE_HOME"), "\(ready.text)")
        #expect(try await server.request("GET", "/healthz").status == 200, "alive all the same")
    }

    @Test func anImageRewrittenWithItsOldModificationTimeGetsANewRenderAndTag() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let path = "/api/documents/\(ServerFixtures.card)/\(Self.thumbnail)"
        let first = try await server.request("GET", path)
        // One of the card's photos rewritten in place, the same size, its times set back.
        let image = server.folder.file("5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22").path
        var status = stat()
        #expect(stat(image, &status) == 0)
        let other = try Data(contentsOf: server.folder.file("8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: image)))
        let replacement = [UInt8](other.prefix(bytes.count))
        try #require(
            replacement.count == bytes.count, "the other photo is at least as large (its start, a damaged PNG, draws otherwise)")
        bytes = replacement
        let handle = try #require(FileHandle(forWritingAtPath: image))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, image, &times, 0) == 0)
        let second = try await server.request("GET", path, headers: ["If-None-Match": first.headers["etag"] ?? ""])
        #expect(second.status == 200, "not a 304 for the old image")
        #expect(second.headers["etag"] != first.headers["etag"])
    }
}
