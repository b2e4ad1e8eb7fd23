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
