import EaselTestSupport
import Foundation
import Testing

@testable import EaselServer

/// Deleting moves a document into Easel's trash under a longer name (a time and a unique
/// part first): a document whose name already has the 255 bytes Linux allows must still
/// go, and a failure must not tell the client where the server keeps its files.
@Suite("Deleting into the trash")
struct ServerTrashTests {
    @Test func aDocumentWithTheLongestNameCanBeDeleted() async throws {
        let folder = try ServerFixtures.samples()
        let name = String(repeating: "d", count: 255 - ".drawing".utf8.count) + ".drawing"
        #expect(name.utf8.count == 255)
        try FileManager.default.copyItem(at: folder.file(ServerFixtures.drawing), to: folder.file(name))
        let server = try await LiveServer.start(folder)
        defer { Task { try await server.stop() } }
        let deleted = try await server.request("DELETE", "/api/documents/\(name)")
        #expect(deleted.status == 204, "\(deleted.status) \(deleted.text)")
        #expect(!FileManager.default.fileExists(atPath: folder.file(name).path))
        let trash = server.stateFolder.appendingPathComponent("trash")
        let kept = try FileManager.default.contentsOfDirectory(atPath: trash.path)
        #expect(kept.count == 1, "\(kept)")
        let entry = try #require(kept.first)
        #expect(entry.utf8.count <= 255 && entry.hasSuffix(".drawing") && entry.contains("dddddddd"), "\(entry)")
        #expect(
            try Data(contentsOf: trash.appendingPathComponent(entry))
                == Data(contentsOf: folder.file(ServerFixtures.drawing)),
            "the document itself is in the trash")
    }

    @Test func aTrashThatFailsNamesNoServerPath() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        // Where the trash goes, a file instead of a folder.
        try Data("not a folder".utf8).write(to: server.stateFolder.appendingPathComponent("trash"))
        let failed = try await server.request("DELETE", "/api/documents/\(ServerFixtures.drawing)")
        #expect(failed.status == 500, "\(failed.status) \(failed.text)")
        let detail = try #require(failed.json["detail"] as? String)
        #expect(!detail.contains(server.stateFolder.path) && !detail.contains("/tmp"), "\(detail)")
        #expect(!detail.contains(server.folder.path), "\(detail)")
        #expect(detail.contains(ServerFixtures.drawing), "names the document as the client does: \(detail)")
        #expect(FileManager.default.fileExists(atPath: server.folder.file(ServerFixtures.drawing).path), "it stays")
    }

    @Test(arguments: [
        String(repeating: "d", count: 247) + ".drawing",
        String(repeating: "é", count: 123) + ".rwcard",  // two bytes each: the cut is at a character
        String(repeating: "x", count: 255),  // no extension
        "a." + String(repeating: "e", count: 252),  // an "extension" too long to keep
        "short.drawing",
    ])
    func aTrashNameFitsTheFileSystem(name: String) {
        let prefix = "2024-01-02T03-04-05Z-ABCDEF12-"
        let trashed = DocumentService.trashName(for: name, prefix: prefix)
        #expect(trashed.utf8.count <= 255, "\(trashed.utf8.count) bytes")
        #expect(trashed.hasPrefix(prefix))
        if name.utf8.count + prefix.utf8.count <= 255 { #expect(trashed == prefix + name) }
        if let dot = name.lastIndex(of: "."), name[dot...].utf8.count <= 32 {
            #expect(trashed.hasSuffix(String(name[dot...])), "a package stays a package")
        }
        #expect(trashed.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
    }
}

/// A card deleted from the editor takes the photos only it uses to the trash, as the app
/// deletes a card's images; a photo another document uses stays.
@Suite("Deleting a card with its photos")
struct CardDeletionTests {
    @Test func aCardsOwnPhotosGoWithItAndSharedOnesStay() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let created = try await server.request(
            "POST", "/api/documents", headers: ["Content-Type": "application/json"], body: Array(#"{"kind":"card"}"#.utf8))
        let path = try #require(created.json["path"] as? String)
        let shared = "8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"  // card 1's sunset
        let photo = try Data(contentsOf: server.folder.file(shared))
        let uploaded = try await server.request(
            "POST", "/api/documents/\(path)/images", headers: ["Content-Type": "image/png"], body: Array(photo))
        #expect(uploaded.status == 200, "\(uploaded.text)")
        // Another program makes the card use card 1's photo too, as a folder edited by hand may.
        var card = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: server.folder.file(path))) as? [String: Any])
        var images = try #require(card["imageElements"] as? [[String: Any]])
        let own = images.compactMap { $0["imageFilename"] as? String }
        #expect(own.count == 1 && own[0] != shared)
        var borrowed = images[0]
        borrowed["imageFilename"] = shared
        images.append(borrowed)
        card["imageElements"] = images
        try JSONSerialization.data(withJSONObject: card).write(to: server.folder.file(path))
        let deleted = try await server.request("DELETE", "/api/documents/\(path)")
        #expect(deleted.status == 204, "\(deleted.text)")
        for name in own { #expect(!FileManager.default.fileExists(atPath: server.folder.file(name).path), "\(name) went") }
        #expect(FileManager.default.fileExists(atPath: server.folder.file(shared).path), "card 1's photo stays")
        let trash = try FileManager.default.contentsOfDirectory(atPath: server.stateFolder.appendingPathComponent("trash").path)
        #expect(trash.count == 2 && own.allSatisfy { name in trash.contains { $0.hasSuffix(name) } }, "\(trash)")
    }

    /// A delete that names the revision it saw (If-Match) deletes only that one: a stale
    /// client cannot trash a document someone changed since, as it cannot edit it.
    @Test func aDeleteNamingAnOldRevisionIsRefusedAndTheCurrentOneDeletes() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let path = "/api/documents/\(ServerFixtures.drawing)"
        let stale = try await server.request("DELETE", path, headers: ["If-Match": "\"0123456789abcdef\""])
        #expect(stale.status == 412, "\(stale.text)")
        #expect(FileManager.default.fileExists(atPath: server.folder.file(ServerFixtures.drawing).path), "it stays")
        let current = DocumentServiceRevision.of(try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.drawing))))
        #expect(stale.json["currentRevision"] as? String == current, "\(stale.text)")
        let deleted = try await server.request("DELETE", path, headers: ["If-Match": "\"\(current)\""])
        #expect(deleted.status == 204, "\(deleted.text)")
        #expect(!FileManager.default.fileExists(atPath: server.folder.file(ServerFixtures.drawing).path))
    }

    /// Only images go with a card, whatever it names: a card naming another document, a
    /// hidden file or a text file as its photos took them to the trash with it.
    @Test func aCardTakesOnlyImagesWithItNeverADocumentOrAnotherFile() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let own = "0000FEED-0000-4000-8000-000000000001"
        try FileManager.default.copyItem(
            at: server.folder.file("8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"), to: server.folder.file(own))
        _ = try server.folder.write("my notes", to: "notes.txt")
        _ = try server.folder.write("secret", to: ".hidden")
        let names = [own, ServerFixtures.drawing, ServerFixtures.card, "notes.txt", ".hidden"]
        let elements = names.map {
            #"{"imageFilename":"\#($0)","transform":{"offset":[0,0],"size":[100,100],"rotation":{"degrees":0}}}"#
        }
        let card =
            #"{"id":"0000BEEF-0000-4000-8000-000000000001","backgroundColor":[1,1,1,1],"imageElements":[\#(elements.joined(separator: ","))],"textElements":[]}"#
        _ = try server.folder.write(card, to: "Evil.rwcard")
        let deleted = try await server.request("DELETE", "/api/documents/Evil.rwcard")
        #expect(deleted.status == 204, "\(deleted.text)")
        for name in names.dropFirst() {
            #expect(FileManager.default.fileExists(atPath: server.folder.file(name).path), "\(name) stays")
        }
        #expect(!FileManager.default.fileExists(atPath: server.folder.file(own).path), "its own photo went")
        let trash = try FileManager.default.contentsOfDirectory(atPath: server.stateFolder.appendingPathComponent("trash").path)
        #expect(trash.count == 2 && trash.contains { $0.hasSuffix(own) }, "\(trash)")
    }
}
