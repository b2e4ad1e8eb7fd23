import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// What the browser editor needs beyond edits: new documents, copies, the trash, uploads,
/// and its own files at `/`.
@Suite("easel serve: documents made, copied, deleted; uploads; the editor's files")
struct ServerDocumentFileTests {
    let json = ["Content-Type": "application/json"]

    @Test func newCardsAndDrawingsAreMadeAsTheAppAndTheCLIMakeThem() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let card = try await server.request("POST", "/api/documents", headers: json, body: Array(#"{"kind":"card"}"#.utf8))
        #expect(card.status == 201)
        let cardPath = try #require(card.json["path"] as? String)
        #expect(
            cardPath.range(of: #"^[0-9A-F-]{36}\.rwcard$"#, options: .regularExpression) != nil,
            "named by its id, as the app names cards")
        let opened = try #require(try DocumentRegistry.standard.open(server.folder.file(cardPath)).document as? Card)
        #expect(cardPath == opened.appFileName)
        let drawing = try await server.request("POST", "/api/documents", headers: json, body: Array(#"{"kind":"drawing"}"#.utf8))
        #expect(drawing.json["path"] as? String == "Untitled.drawing")
        let second = try await server.request("POST", "/api/documents", headers: json, body: Array(#"{"kind":"drawing"}"#.utf8))
        #expect(second.json["path"] as? String == "Untitled 2.drawing")
        for (body, status) in [
            (#"{"kind":"poster"}"#, 400), (#"{"kind":"card","folder":"../outside"}"#, 400),
            (#"{"kind":"card","folder":"nowhere"}"#, 404),
            (#"{"kind":"card","name":"x"}"#, 400),
        ] {
            #expect(
                try await server.request("POST", "/api/documents", headers: json, body: Array(body.utf8)).status == status,
                "\(body)")
        }
    }

    @Test func documentsMadeAtTheSameMomentEachGetTheirOwnFile() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        func together(_ count: Int, _ method: String, _ path: String, body: String = "") async throws -> [String] {
            try await withThrowingTaskGroup(of: RawHTTP.Response.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        try await server.request(method, path, headers: body.isEmpty ? [:] : json, body: Array(body.utf8))
                    }
                }
                var paths: [String] = []
                for try await response in group {
                    #expect(response.status == 201, "\(response.text)")
                    paths.append(response.json["path"] as? String ?? "")
                }
                return paths
            }
        }
        // Each answer names a file of its own, and every one exists: none was made over another.
        let made = try await together(8, "POST", "/api/documents", body: #"{"kind":"drawing"}"#)
        #expect(Set(made).count == 8, "\(made.sorted())")
        let copies = try await together(6, "POST", "/api/documents/\(ServerFixtures.drawing)/duplicate")
        #expect(Set(copies).count == 6, "\(copies.sorted())")
        for path in made + copies {
            #expect(FileManager.default.fileExists(atPath: server.folder.file(path).path), "\(path)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: server.folder.url.path)
        #expect(!names.contains { $0.hasPrefix(".easel-") }, "no temporary file is left: \(names)")
    }

    @Test func aCopyIsANewDocumentAndACardGetsANewId() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let card = try await server.request("POST", "/api/documents/\(ServerFixtures.card)/duplicate")
        #expect(card.status == 201)
        let copyPath = try #require(card.json["path"] as? String)
        let original = try #require(try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.card)).document as? Card)
        let copy = try #require(try DocumentRegistry.standard.open(server.folder.file(copyPath)).document as? Card)
        #expect(copy.id != original.id && copyPath == copy.appFileName)
        #expect(copy.imageElements == original.imageElements && copy.textElements == original.textElements)
        let drawing = try await server.request("POST", "/api/documents/\(ServerFixtures.drawing)/duplicate")
        #expect(drawing.json["path"] as? String == "Showcase copy.drawing")
        let again = try await server.request("POST", "/api/documents/\(ServerFixtures.drawing)/duplicate")
        #expect(again.json["path"] as? String == "Showcase copy 2.drawing")
        #expect(
            try [UInt8](Data(contentsOf: server.folder.file("Showcase copy.drawing")))
                == (try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.drawing)))))
    }

    @Test func deletingMovesTheDocumentToTheTrashInTheStateFolder() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let bytes = try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.drawing)))
        let response = try await server.request("DELETE", "/api/documents/\(ServerFixtures.drawing)")
        #expect(response.status == 204)
        #expect(!FileManager.default.fileExists(atPath: server.folder.file(ServerFixtures.drawing).path))
        let trash = server.stateFolder.appendingPathComponent("trash")
        let kept = try FileManager.default.contentsOfDirectory(atPath: trash.path)
        #expect(kept.count == 1 && kept[0].hasSuffix("-Showcase.drawing"))
        #expect(try [UInt8](Data(contentsOf: trash.appendingPathComponent(kept[0]))) == bytes, "nothing is lost")
        #expect(try await server.request("DELETE", "/api/documents/\(ServerFixtures.drawing)").status == 404)
        let crossSite = try await server.request(
            "DELETE", "/api/documents/\(ServerFixtures.card)", headers: ["Origin": "https://evil.example"])
        #expect(crossSite.status == 403)
        #expect(FileManager.default.fileExists(atPath: server.folder.file(ServerFixtures.card).path))
    }

    /// How many descriptors this process holds open on `file`.
    static func descriptors(on file: URL) -> Int {
        let target = file.resolvingSymlinksInPath().path
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return open.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target }.count
    }

    @Test func aDeleteWaitsForAnEditInFlightAndNoEditBringsTheDocumentBack() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let url = server.folder.file(ServerFixtures.card)
        // An editor holds the document (the CLI's `easel edit`, or an HTTP edit mid-way).
        var editor = try DocumentEditor(opening: url, stateFolder: server.stateFolder)
        let deletion = Task { try await server.request("DELETE", "/api/documents/\(ServerFixtures.card)") }
        // The delete is waiting once it holds the lock file open too (the server runs in this
        // process), beside the editor's descriptor: a state, not a time.
        let lockFile = url.deletingLastPathComponent().appendingPathComponent(".easel.lock")
        #expect(await eventually { Self.descriptors(on: lockFile) >= 2 }, "the delete waits for the lock")
        try editor.perform { try $0.move(0, by: Point(x: 7, y: 0)) }
        try editor.save()
        let saved = try [UInt8](Data(contentsOf: url))
        editor = try DocumentEditor(opening: server.folder.file(ServerFixtures.drawing), stateFolder: server.stateFolder)
        #expect(try await deletion.value.status == 204)
        #expect(!FileManager.default.fileExists(atPath: url.path), "deleted after the edit was saved, not before it")
        let trash = server.stateFolder.appendingPathComponent("trash")
        // The card, and the photos no other sample uses (they go with it, as the app deletes them).
        let kept = try FileManager.default.contentsOfDirectory(atPath: trash.path)
        let card = try #require(kept.first { $0.hasSuffix(".rwcard") })
        #expect(kept.filter { $0.hasSuffix(".rwcard") }.count == 1, "\(kept)")
        #expect(try [UInt8](Data(contentsOf: trash.appendingPathComponent(card))) == saved, "the trash holds the edit")

        // An edit that comes after is told the document is gone, and writes nothing.
        let late = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/edits", headers: ["Content-Type": "application/json"],
            body: Array(#"{"verb":"move","index":0,"by":[1,0]}"#.utf8))
        #expect(late.status == 404)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func packagesFoldersAndLinksNamedLikeDocumentsAreHandledAsWhatTheyAre() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let folder = server.folder.url
        // A drawing package with its photo: a copy is a package with the photo too.
        let package = folder.appendingPathComponent("pkg.drawing")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22"),
            to: package.appendingPathComponent("photo.png"))
        var drawing = Drawing(canvasSize: Size(width: 80, height: 60), background: .white)
        drawing.graphics.append(
            Graphic(
                kind: .image(file: "photo.png"),
                transform: GraphicTransform(center: Point(x: 40, y: 30), size: Size(width: 40, height: 30))))
        try DocumentRegistry.standard.save(drawing, to: package)
        let copy = try await server.request("POST", "/api/documents/pkg.drawing/duplicate")
        #expect(copy.status == 201, "\(copy.text)")
        let copyPath = try #require(copy.json["path"] as? String)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(copyPath).path, isDirectory: &isFolder))
        #expect(isFolder.boolValue, "the copy of a package is a package")
        let located = try DocumentRegistry.standard.open(folder.appendingPathComponent(copyPath))
        #expect(located.document as? Drawing == drawing)
        #expect(
            located.referencedFiles.allSatisfy { $0.path.map(FileManager.default.fileExists) == true }, "its photo came along")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.path)).contains { $0.hasPrefix(".easel-copy") })

        // No new document inside a package.
        let inside = try await server.request(
            "POST", "/api/documents", headers: json, body: Array(#"{"kind":"drawing","folder":"pkg.drawing"}"#.utf8))
        #expect(inside.status == 400, "\(inside.text)")

        // A plain folder or a pipe named like a card is not deleted (nor moved to the trash).
        let plain = folder.appendingPathComponent("notes.rwcard")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: plain.appendingPathComponent("todo.txt"))
        #expect(mkfifo(folder.appendingPathComponent("pipe.rwcard").path, 0o644) == 0)
        // A plain folder named like a drawing package (no drawing inside) is no package either.
        let holiday = folder.appendingPathComponent("Holiday.drawing")
        try FileManager.default.createDirectory(at: holiday, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: holiday.appendingPathComponent("notes.txt"))
        for name in ["notes.rwcard", "pipe.rwcard", "Holiday.drawing"] {
            let deleted = try await server.request("DELETE", "/api/documents/\(name)")
            #expect(deleted.status != 204, "\(name): \(deleted.status)")
            #expect(FileIOProbe.exists(folder.appendingPathComponent(name).path), "\(name) stays")
        }
        #expect(try Data(contentsOf: plain.appendingPathComponent("todo.txt")) == Data("mine".utf8))

        // In a subfolder, the refusal names the folder as the client does (not "suba server file").
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub/plain.drawing"), withIntermediateDirectories: true)
        let nested = try await server.request("DELETE", "/api/documents/sub/plain.drawing")
        #expect(nested.status == 409, "\(nested.text)")
        #expect((nested.json["detail"] as? String)?.hasPrefix("sub/plain.drawing: is not a document") == true, "\(nested.text)")
        // A document may be named like a render: DELETE reaches it.
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(ServerFixtures.drawing), to: folder.appendingPathComponent("render.drawing"))
        #expect(try await server.request("DELETE", "/api/documents/render.drawing").status == 204)

        // A link named as the next new drawing (even one leading nowhere) is never replaced.
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Untitled.drawing").path, withDestinationPath: "/nonexistent/elsewhere.drawing")
        let created = try await server.request("POST", "/api/documents", headers: json, body: Array(#"{"kind":"drawing"}"#.utf8))
        #expect(created.status == 201)
        #expect(created.json["path"] as? String != "Untitled.drawing", "\(created.text)")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("Untitled.drawing").path)
                == "/nonexistent/elsewhere.drawing")
    }

    @Test func anUploadedPhotoIsStoredAsTheAppStoresIt() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let photo = try [UInt8](Data(contentsOf: server.folder.file("5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22")))
        let before = try #require(try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.card)).document as? Card)
        let response = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/images", headers: ["Content-Type": "image/png"], body: photo)
        #expect(response.status == 200, "\(response.text)")
        let after = try #require(try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.card)).document as? Card)
        #expect(after.imageElements.count == before.imageElements.count + 1)
        let name = try #require(after.imageElements.last?.imageFilename)
        #expect(UUID(uuidString: name) != nil && name == name.uppercased(), "an upper-case UUID with no extension: \(name)")
        #expect(
            try [UInt8](Data(contentsOf: server.folder.file(name))) == photo,
            "a PNG that needs no shrinking is kept byte for byte")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: server.stateFolder.appendingPathComponent("uploads").path).isEmpty
        )
        // One undo step takes it out again.
        #expect(try await server.request("POST", "/api/documents/\(ServerFixtures.card)/undo").status == 200)
        #expect(try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.card)).document as? Card == before)
        let text = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/images", headers: ["Content-Type": "text/plain"], body: [1])
        #expect(text.status == 415)
        let broken = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/images", headers: ["Content-Type": "image/png"],
            body: [0x89, 0x50, 1, 2])
        #expect(broken.status == 415, "not an image by its bytes")
        let truncated = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/images", headers: ["Content-Type": "image/png"],
            body: Array(photo.prefix(200)))
        #expect(truncated.status == 400, "a PNG that does not decode")
        #expect(truncated.text.contains("the uploaded image"), "\(truncated.text)")
        #expect(!truncated.text.contains(server.stateFolder.path), "no server path: \(truncated.text)")
        let untyped = try await server.request("POST", "/api/documents/\(ServerFixtures.card)/images", body: photo)
        #expect(untyped.status == 200, "no declared type: the bytes tell")
    }

    @Test func anUploadToADrawingIsNamedByWhatItsBytesAre() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let photo = try [UInt8](Data(contentsOf: server.folder.file("5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22")))
        // A browser sends no type for a file without an extension, and a user can mislabel one.
        for headers in [[:], ["Content-Type": "image/jpeg"], ["Content-Type": "image/webp"]] {
            let response = try await server.request(
                "POST", "/api/documents/\(ServerFixtures.drawing)/images", headers: headers, body: photo)
            #expect(response.status == 200, "\(headers): \(response.text)")
            let drawing = try #require(
                try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.drawing)).document as? Drawing)
            guard case .image(let file) = drawing.graphics.last?.kind else {
                Issue.record("\(headers): the upload is not the drawing's last graphic")
                continue
            }
            #expect(file.hasSuffix(".png"), "\(headers): a PNG is kept as .png, not \(file)")
        }
    }

    @Test func theEditorsFilesAreServedWithTypesAndTags() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let page = try await server.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains(#"<script type="module" src="/editor/main.js">"#))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        for module in [
            "main.js", "api.js", "browser.js", "canvas.js", "selection.js", "inspector.js", "history.js", "sync.js",
            "settings.js",
        ] {
            let file = try await server.request("GET", "/editor/\(module)")
            #expect(file.status == 200 && file.headers["content-type"] == "text/javascript; charset=utf-8", "\(module)")
            let tag = try #require(file.headers["etag"])
            #expect(try await server.request("GET", "/editor/\(module)", headers: ["If-None-Match": tag]).status == 304)
        }
        #expect(try await server.request("GET", "/editor/../Package.swift").status == 404)
        #expect(try await server.request("GET", "/editor/missing.js").status == 404)
    }

    @Test func readOnlyRefusesEveryChange() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.readOnly = true }
        defer { Task { try await server.stop() } }
        #expect(
            try await server.request("POST", "/api/documents", headers: json, body: Array(#"{"kind":"card"}"#.utf8)).status == 405
        )
        #expect(try await server.request("POST", "/api/documents/\(ServerFixtures.card)/duplicate").status == 405)
        #expect(try await server.request("DELETE", "/api/documents/\(ServerFixtures.card)").status == 405)
        #expect(
            try await server.request(
                "POST", "/api/documents/\(ServerFixtures.card)/images", headers: ["Content-Type": "image/png"], body: [1]
            ).status == 405)
        // However the path is spelled: the router drops empty segments and decodes each one.
        let card = try Data(contentsOf: server.folder.file(ServerFixtures.card))
        let edit = Array(#"{"operations":[{"verb":"move","index":0,"by":[1,1]}]}"#.utf8)
        for path in [
            "//api/documents/\(ServerFixtures.card)/edits", "/api//documents/\(ServerFixtures.card)/edits",
            "/api/%64ocuments/\(ServerFixtures.card)/edits", "//api/documents/\(ServerFixtures.card)/undo",
        ] {
            let response = try await server.request("POST", path, headers: json, body: edit)
            #expect(response.status == 405 || response.status == 404, "\(path): \(response.status)")
        }
        #expect(try await server.request("DELETE", "//api/documents/\(ServerFixtures.card)").status == 405)
        let create = Array(#"{"kind":"card"}"#.utf8)
        #expect(try await server.request("POST", "//api/documents", headers: json, body: create).status == 405)
        #expect(try Data(contentsOf: server.folder.file(ServerFixtures.card)) == card, "the card is unchanged")
    }
}

/// Whether anything is at a path, a link leading nowhere included.
enum FileIOProbe {
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
