import EaselDocuments
import EaselEditing
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// Every read route of `easel serve`, over real HTTP: the list, a document's JSON, its
/// renders with options and ETags, the health and metrics routes, and stateless renders.
@Suite("easel serve: documents and renders")
struct ServerRouteTests {
    @Test func aDescriptionNamesMissingImagesWithoutServerPaths() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        // Card 4 uses an image that is not in the folder.
        let response = try await server.request("GET", "/api/documents/1A2B3C4D-0000-4000-8000-000000000004.rwcard")
        #expect(response.status == 200)
        #expect(response.text.contains("missing: "), "\(response.text)")
        #expect(!response.text.contains(server.folder.url.path), "no server path: \(response.text)")
        if let resolved = realpath(server.folder.url.path, nil) {
            defer { free(resolved) }
            #expect(!response.text.contains(String(cString: resolved)))
        }
    }

    @Test func listsTheFolderWithKindSizeRevisionAndWarnings() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let response = try await server.request("GET", "/api/documents")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        let documents = try #require(response.json["documents"] as? [[String: Any]])
        let card = try #require(documents.first { $0["path"] as? String == ServerFixtures.card })
        #expect(card["kind"] as? String == "card")
        let bytes = try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.card)))
        #expect(card["size"] as? Int == bytes.count)
        #expect(card["revision"] as? String == DocumentServiceRevision.of(bytes))
        let drawing = try #require(documents.first { $0["path"] as? String == ServerFixtures.drawing })
        #expect(drawing["kind"] as? String == "drawing")
        #expect(documents.contains { ($0["warnings"] as? [String])?.isEmpty == false }, "the sample with a missing image warns")
        #expect(!response.text.contains(server.folder.path), "no server path leaks into the listing")
    }

    @Test func aDocumentIsDescribedAsInfoJSONDescribesIt() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let response = try await server.request("GET", "/api/documents/\(ServerFixtures.drawing)")
        #expect(response.status == 200)
        let editor = try DocumentEditor(opening: server.folder.file(ServerFixtures.drawing), locking: false)
        var expected = editor.description
        expected.path = ServerFixtures.drawing
        expected.resourceFolder = ""  // the served folder itself, named relative to it
        expected.title = ServerFixtures.drawing  // a drawing is called by its file's name
        let decoded = try JSONDecoder().decode(DocumentDescription.self, from: Data(response.body))
        #expect(decoded == expected)
        // A card named only by its id is called what the list calls it (its first text):
        // the editor's Share names the picture so.
        let listed = try await server.request("GET", "/api/documents").json["documents"] as? [[String: Any]] ?? []
        let listedTitle = listed.first { $0["path"] as? String == ServerFixtures.card }?["title"] as? String
        let card = try await server.request("GET", "/api/documents/\(ServerFixtures.card)").json
        #expect(listedTitle != nil && card["title"] as? String == listedTitle, "\(String(describing: card["title"]))")
        #expect(listedTitle != ServerFixtures.card, "the card is titled by its text: \(String(describing: listedTitle))")
        let etag = try #require(response.headers["etag"])
        #expect(
            try await server.request("GET", "/api/documents/\(ServerFixtures.drawing)", headers: ["If-None-Match": etag]).status
                == 304)
    }

    @Test func rendersAreTheExportBytesWithStrongETags() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let path = "/api/documents/\(ServerFixtures.card)/render.png?preset=thumbnail"
        let first = try await server.request("GET", path)
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "image/png")
        let located = try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.card))
        let expected = try DocumentRenderer.export(located, options: RenderOptions(size: .thumbnail))
        #expect(first.body == expected.bytes, "the served PNG is byte for byte what easel export writes")
        let etag = try #require(first.headers["etag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        // A page past cairo's range is refused; the server is still there to say so.
        for format in ["svg", "pdf"] {
            let tiny = try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.\(format)?dpi=0.01")
            #expect(tiny.status == 400, "\(format): \(tiny.status) \(tiny.text)")
            #expect(tiny.text.contains("give a larger dpi"), "\(tiny.text)")
        }
        #expect(try await server.request("GET", "/healthz").status == 200)
        let bytes = try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.card)))
        #expect(first.headers["x-easel-revision"] == DocumentServiceRevision.of(bytes), "the revision of what was rendered")

        let again = try await server.request("GET", path, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(try await server.request("GET", path).headers["etag"] == etag, "the same inputs give the same tag")

        // Another size is another tag; a changed document is another tag and other bytes.
        #expect(
            try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.png?scale=0.1").headers["etag"] != etag)
        var editor = try DocumentEditor(opening: server.folder.file(ServerFixtures.card), stateFolder: server.stateFolder)
        try editor.perform { try $0.move(0, by: .init(x: 40, y: 0)) }
        try editor.save()
        let changed = try await server.request("GET", path, headers: ["If-None-Match": etag])
        #expect(changed.status == 200, "an edit made outside the server invalidates the cached render")
        #expect(changed.headers["etag"] != etag)
        #expect(changed.body != first.body)

        for format in ["svg", "pdf"] {
            let vector = try await server.request("GET", "/api/documents/\(ServerFixtures.drawing)/render.\(format)")
            #expect(vector.status == 200)
            #expect(vector.headers["content-type"] == (format == "svg" ? "image/svg+xml" : "application/pdf"))
            #expect(vector.text.hasPrefix(format == "svg" ? "<?xml" : "%PDF"))
        }
    }

    @Test func renderOptionsAreCheckedAndExplained() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let base = "/api/documents/\(ServerFixtures.card)/render.png"
        let sized = try await server.request("GET", base + "?width=130&height=100&fit=cover&background=none")
        #expect(sized.status == 200)
        #expect(Array(sized.body[16..<24]) == [0, 0, 0, 130, 0, 0, 0, 100], "IHDR says 130x100")
        for (query, words) in [
            ("scal=2", "unknown query parameter \"scal\""), ("scale=-1", "scale must be a positive number"),
            ("scale=1&preset=share", "give one of scale, preset"), ("background=mauvish", "background must be a colour"),
            ("fit=cover", "give both"), ("fit=bogus", "fit must be contain, cover or stretch, not \"bogus\""),
            ("scale=3.6", "over this server's limit"), ("scale=40", "52000x80000 rendering is over this server's limit"),
            ("scale=0x10", "scale must be a positive number, not \"0x10\""),
            ("width=%2B100", "width must be a positive whole number of pixels, not \"+100\""),
            ("area=0x10,0,10,10", "area must be x,y,w,h"), ("only=%2B1", "only takes element indices"),
            ("only=0x1", "only takes element indices"),
            // The limit holds for an area larger than the canvas as for the canvas.
            ("area=0,0,1300,26000", "1300x26000 rendering is over this server's limit"),
            // A long value is named by its start and length, not repeated whole.
            ("fit=" + String(repeating: "z", count: 5000), "not \"\(String(repeating: "z", count: 60))…\" (5000 characters)"),
        ] {
            let response = try await server.request("GET", base + "?" + query)
            #expect([400, 413].contains(response.status), "\(query)")
            #expect(response.headers["content-type"] == "application/problem+json", "\(query)")
            #expect((response.json["detail"] as? String)?.contains(words) == true, "\(query): \(response.text)")
            #expect((response.json["detail"] as? String)?.count ?? .max < 400, "\(query)")
        }
        // An area may start left of or above the canvas.
        #expect(try await server.request("GET", base + "?area=-10,-10.5,100,100").status == 200)
        let missing = try await server.request("GET", "/api/documents/nope.rwcard/render.png")
        #expect(missing.status == 404)
        #expect(missing.json["document"] as? String == "nope.rwcard")
        #expect(try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.gif").status == 404)
    }

    @Test func headAnswersAsGetDoesWithoutTheBody() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        for path in [
            "/api/documents", "/api/documents/\(ServerFixtures.card)", "/api/documents/\(ServerFixtures.card)/render.png", "/",
            "/api/events", "/api/events", "/api/events",
        ] {
            let head = try await server.request("HEAD", path)
            let get = path == "/api/events" ? nil : try await server.request("GET", path)
            #expect(head.status == 200, "\(path)")
            #expect(head.body.isEmpty, "\(path)")
            if let get { #expect(head.headers["content-type"] == get.headers["content-type"], "\(path)") }
        }
        #expect(try await server.request("HEAD", "/api/documents/nope.rwcard").status == 404)
        // A HEAD of the event stream subscribes to nothing.
        #expect(try await server.request("GET", "/metrics").text.contains("easel_event_subscribers 0"))
    }

    @Test func healthReadinessAndMetrics() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        #expect(try await server.request("GET", "/healthz").status == 200)
        #expect(try await server.request("GET", "/readyz").status == 200)
        _ = try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.png?preset=thumbnail")
        _ = try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.png?preset=thumbnail")
        _ = try await server.request("GET", "/api/documents/missing.rwcard")
        let metrics = try await server.request("GET", "/metrics")
        #expect(metrics.status == 200)
        let text = metrics.text
        #expect(
            text.contains(#"easel_http_requests_total{route="/api/documents/{path}/render.png",method="GET",status="200"} 2"#),
            "\(text)")
        #expect(text.contains(#"status="404""#))
        #expect(text.contains("easel_render_cache_hits_total 1"))
        #expect(text.contains("easel_render_cache_misses_total 1"))
        #expect(text.contains("easel_render_duration_seconds_bucket"))
        #expect(text.contains("easel_render_queue_depth 0"))
        #expect(text.contains("easel_request_body_bytes_reserved 0"), "no body is being read")
        #expect(!text.contains("missing.rwcard"), "routes, not raw paths, label the metrics")
    }

    @Test func statelessRendersWriteNothingAndMatchExport() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let before = try FileManager.default.subpathsOfDirectory(atPath: server.folder.path).sorted()
        // A drawing as JSON.
        let drawingBytes = Array(
            #"{"format":"org.easel.drawing","version":1,"canvas":{"size":[200,100],"background":[1,1,1,1]},"graphics":[{"kind":"ellipse","transform":{"center":[100,50],"size":[80,60],"rotation":30},"fill":[1,0,0,1]}]}"#
                .utf8)
        let drawing = try await server.request(
            "POST", "/api/render?scale=0.5", headers: ["Content-Type": "application/json"], body: drawingBytes)
        #expect(drawing.status == 200, "\(drawing.text)")
        let elsewhere = TemporaryFolder()
        let expected = try DocumentRenderer.export(
            try DocumentRegistry.standard.open(try elsewhere.write(drawingBytes, to: "d.drawing")),
            options: RenderOptions(size: .scale(0.5)))
        #expect(drawing.body == expected.bytes)

        // A card with its images as multipart parts named by the card's image names.
        let cardURL = server.folder.file(ServerFixtures.card)
        let located = try DocumentRegistry.standard.open(cardURL)
        let boundary = "easel-test-boundary"
        var body = part(boundary, name: "document", filename: nil, try [UInt8](Data(contentsOf: cardURL)))
        for file in located.referencedFiles {
            guard let path = file.path, FileManager.default.fileExists(atPath: path) else { continue }
            body += part(boundary, name: "image", filename: file.name, try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let card = try await server.request(
            "POST", "/api/render?kind=card&preset=thumbnail",
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
            body: body)
        #expect(card.status == 200, "\(card.text)")
        #expect(card.body == (try DocumentRenderer.export(located, options: RenderOptions(size: .thumbnail))).bytes)

        // The pixel limit holds for a sent document as for a stored one (413, the size named).
        let huge = try await server.request(
            "POST", "/api/render?kind=card&scale=3.6", headers: ["Content-Type": "application/json"],
            body: try [UInt8](Data(contentsOf: cardURL)))
        #expect(huge.status == 413, "\(huge.text)")
        #expect(
            (huge.json["detail"] as? String)?.contains("4680x7200 rendering is over this server's limit") == true, "\(huge.text)")
        // Past the library's own limits too (32,767 a side): the server's words, the size named.
        let wide = try await server.request("GET", "/api/documents/\(ServerFixtures.card)/render.png?width=32767")
        #expect(wide.status == 413, "\(wide.text)")
        #expect(
            wide.json["detail"] as? String
                == "a 32767x50411 rendering is over this server's limit of 25000000 pixels (and 32767 a side); ask for a smaller scale or size",
            "\(wide.text)")

        // Two document parts: neither is guessed.
        let twice =
            part(boundary, name: "document", filename: nil, try [UInt8](Data(contentsOf: cardURL)))
            + part(boundary, name: "document", filename: nil, drawingBytes) + Array("--\(boundary)--\r\n".utf8)
        let ambiguous = try await server.request(
            "POST", "/api/render?kind=card", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
            body: twice)
        #expect(ambiguous.status == 400)
        #expect((ambiguous.json["detail"] as? String)?.contains("2 parts named \"document\"") == true, "\(ambiguous.text)")

        // Bad input: a key path, a wrong type, a truncated multipart body.
        let bad = try await server.request(
            "POST", "/api/render", headers: ["Content-Type": "application/json"],
            body: Array(#"{"format":"org.easel.drawing","version":1,"canvas":{"size":[10,"x"]},"graphics":[]}"#.utf8))
        #expect(bad.status == 400)
        #expect(bad.json["keyPath"] as? String == "canvas.size[1]", "\(bad.text)")
        #expect(try await server.request("POST", "/api/render", headers: ["Content-Type": "text/plain"], body: [1]).status == 415)
        let truncated = try await server.request(
            "POST", "/api/render", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
            body: Array(body.prefix(300)))
        #expect(truncated.status == 400)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: server.folder.path).sorted() == before, "nothing written")
    }

    @Test func aWrongMethodIsAnswered405WithWhatTheRouteAllows() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let document = "/api/documents/\(ServerFixtures.drawing)"
        let routes: [(path: String, allowed: [String])] = [
            ("/", ["GET", "HEAD"]), ("/healthz", ["GET", "HEAD"]), ("/readyz", ["GET", "HEAD"]), ("/metrics", ["GET", "HEAD"]),
            ("/editor/main.js", ["GET", "HEAD"]), ("/api/documents", ["GET", "HEAD", "POST"]),
            (document, ["GET", "HEAD", "DELETE"]), (document + "/edits", ["POST"]), (document + "/undo", ["POST"]),
            (document + "/render.png", ["GET", "HEAD"]), ("/api/render", ["POST"]), ("/api/events", ["GET", "HEAD"]),
        ]
        for (path, allowed) in routes {
            for method in ["GET", "HEAD", "POST", "DELETE", "PUT", "PATCH"] {
                // Not DELETE of the document itself (it would go): the table is checked by the others.
                if method == "DELETE" && path == document { continue }
                if path == "/api/events" && method == "GET" { continue }  // a stream that does not end
                let response = try await server.request(method, path)
                if allowed.contains(method) {
                    // A route answers it (it may find nothing there: a POST to a document wants …/edits).
                    #expect(response.status != 405, "\(method) \(path): \(response.status) \(response.text)")
                } else {
                    #expect(response.status == 405, "\(method) \(path): \(response.status)")
                    // What OPTIONS says too: OPTIONS is a method every route answers.
                    #expect(response.headers["allow"] == (allowed + ["OPTIONS"]).joined(separator: ", "), "\(method) \(path)")
                    if method != "HEAD" {
                        #expect(
                            (response.json["detail"] as? String)?.contains("is not a method of \(path)") == true,
                            "\(response.text)")
                    }
                }
            }
            let options = try await server.request("OPTIONS", path)
            #expect(options.status == 204, "OPTIONS \(path)")
            #expect(options.headers["allow"] == (allowed + ["OPTIONS"]).joined(separator: ", "))
        }
        // The allowed ones reach their handlers.
        #expect(try await server.request("GET", "/editor/main.js").status == 200)
        // Never edited with this server's state folder: nothing to undo, and why, said so.
        #expect(try await server.request("POST", document + "/undo").status == 409)
        // A path no route serves is still 404, whatever the method.
        for method in ["GET", "PUT"] { #expect(try await server.request(method, "/nowhere").status == 404) }
    }

    @Test func aZipOfADocumentAndItsImagesRendersAsTheFolderWould() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let scratch = TemporaryFolder()
        let cardURL = server.folder.file(ServerFixtures.card)
        let located = try DocumentRegistry.standard.open(cardURL)
        let images = located.referencedFiles.compactMap(\.path).filter { FileManager.default.fileExists(atPath: $0) }
        // Zips made by Python's zipfile, an independent writer.
        func zip(_ name: String, _ entries: [(String, String)], bomb: String = "plain") throws -> [UInt8] {
            let script = [
                "import sys, zipfile",
                "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:",
                "    for i in range(3, len(sys.argv), 2): z.write(sys.argv[i], sys.argv[i + 1])",
                "    if sys.argv[2] == 'bomb': z.writestr('zeros', bytes(70 * 1024 * 1024))",
                // Many entries under the one-file limit, past the total (64 MiB by default).
                "    if sys.argv[2] == 'spread': [z.writestr('zeros%d' % i, bytes(4 << 20)) for i in range(20)]",
            ].joined(separator: "\n")
            let target = scratch.file(name)
            let result = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/python3"),
                ["-c", script, target.path, bomb] + entries.flatMap { [$0.0, $0.1] })
            guard result.status == 0 else { throw TestFailure("zip: \(result.stderr)") }
            return try [UInt8](Data(contentsOf: target))
        }
        let good = try zip(
            "card.zip",
            [(cardURL.path, "cards/birthday.rwcard")] + images.map { ($0, "cards/" + URL(fileURLWithPath: $0).lastPathComponent) }
        )
        let response = try await server.request(
            "POST", "/api/render?preset=thumbnail", headers: ["Content-Type": "application/zip"], body: good)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.body == (try DocumentRenderer.export(located, options: RenderOptions(size: .thumbnail))).bytes)

        let cases: [(String, [(String, String)], String, Int, String)] = [
            ("escape.zip", [(cardURL.path, "../card.rwcard")], "plain", 400, "not a plain relative path"),
            ("two.zip", [(cardURL.path, "a.rwcard"), (cardURL.path, "b.rwcard")], "plain", 400, "2 documents"),
            ("none.zip", [(images[0], "photo")], "plain", 400, "no document"),
            // Two entries of one name: which one a reader takes differs from tool to tool.
            (
                "twice.zip", [(cardURL.path, "card.rwcard"), (images[0], "photo"), (images[1], "photo")], "plain", 400,
                "two entries named \"photo\""
            ),
            ("bomb.zip", [(cardURL.path, "card.rwcard")], "bomb", 413, "inflates past"),
            ("spread.zip", [(cardURL.path, "card.rwcard")], "spread", 413, "inflates past"),
        ]
        for (name, entries, bomb, status, words) in cases {
            let refused = try await server.request(
                "POST", "/api/render", headers: ["Content-Type": "application/zip"], body: try zip(name, entries, bomb: bomb))
            #expect(refused.status == status, "\(name): \(refused.text)")
            #expect((refused.json["detail"] as? String)?.contains(words) == true, "\(name): \(refused.text)")
        }
        let notZip = try await server.request(
            "POST", "/api/render", headers: ["Content-Type": "application/zip"], body: [1, 2, 3])
        #expect(notZip.status == 400)
    }

    @Test func theDiskCacheOutlivesTheServerAndIsCheckedLikeMemory() async throws {
        let folder = try ServerFixtures.samples()
        let path = "/api/documents/\(ServerFixtures.card)/render.png?preset=thumbnail"
        let state = TemporaryFolder("easel-serve-state")
        let first = try await LiveServer.start(folder, state: state) { $0.limits.diskCacheBytes = 8 << 20 }
        let rendered = try await first.request("GET", path)
        #expect(rendered.status == 200)
        try await first.stop()
        let cacheFolder = first.stateFolder.appendingPathComponent("render-cache")
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).filter { $0.hasSuffix(".render") }
        #expect(files.count == 1)

        // A new server (a restart, or another replica) answers from disk: same bytes and tag, no render.
        let second = try await LiveServer.start(folder, state: state) { $0.limits.diskCacheBytes = 8 << 20 }
        defer { Task { try await second.stop() } }
        let fromDisk = try await second.request("GET", path)
        #expect(fromDisk.body == rendered.body)
        #expect(fromDisk.headers["etag"] == rendered.headers["etag"])
        var metrics = try await second.request("GET", "/metrics").text
        #expect(metrics.contains("easel_render_cache_hits_total 1"), "\(metrics)")
        #expect(!metrics.contains("easel_render_cache_misses_total 1"))

        // A changed document is rendered again; a damaged cache file is a miss, not an error.
        try Data("not a cache entry".utf8).write(to: cacheFolder.appendingPathComponent(files[0]))
        let third = try await LiveServer.start(folder, state: state) { $0.limits.diskCacheBytes = 8 << 20 }
        defer { Task { try await third.stop() } }
        let afterDamage = try await third.request("GET", path)
        #expect(afterDamage.status == 200)
        #expect(afterDamage.body == rendered.body)
        metrics = try await third.request("GET", "/metrics").text
        #expect(metrics.contains("easel_render_cache_misses_total 1"))

        // The folder stays within its limit: many sizes, a small limit.
        let small = try await LiveServer.start(folder, state: state) { $0.limits.diskCacheBytes = 100_000 }
        defer { Task { try await small.stop() } }
        for width in 100..<120 {
            _ = try await small.request("GET", "/api/documents/\(ServerFixtures.card)/render.png?width=\(width)")
        }
        let total = try FileManager.default.contentsOfDirectory(at: cacheFolder, includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        #expect(total <= 100_000)
    }

    private func part(_ boundary: String, name: String, filename: String?, _ bytes: [UInt8]) -> [UInt8] {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
        if let filename { head += "; filename=\"\(filename)\"" }
        head += "\r\nContent-Type: application/octet-stream\r\n\r\n"
        return Array(head.utf8) + bytes + Array("\r\n".utf8)
    }
}

/// The revision the server gives a document: FNV-1a (64 bits) of its saved bytes, as 16 hex digits.
enum DocumentServiceRevision {
    static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
