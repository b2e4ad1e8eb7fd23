import Foundation
import Testing
@testable import EaselServer
import EaselSupport
import Hummingbird
import EaselDocuments
import EaselTestSupport

/// What a refusal tells the client: an allowed origin's page can read every refusal (a 404
/// for a path no route serves too), and a read-only server says the same methods in a
/// 405's `Allow` as in its answer to OPTIONS.
@Suite("Server access headers")
struct ServerAccessHeadersTests {
    @Test func aNotFoundIsReadableByAnAllowedOrigin() async throws {
        let origin = "http://good.example"
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.allowedOrigins = [origin] }
        defer { Task { try await server.stop() } }
        let missing = try await server.request("GET", "/nothing/here", headers: ["Origin": origin])
        #expect(missing.status == 404)
        #expect(missing.headers["access-control-allow-origin"] == origin)
        #expect(missing.headers["content-type"] == "application/problem+json")
        let other = try await server.request("GET", "/nothing/here", headers: ["Origin": "http://evil.example"])
        #expect(other.status == 404 && other.headers["access-control-allow-origin"] == nil)
    }

    @Test func aReadOnlyServerSaysTheSameMethodsEverywhere() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples()) { $0.readOnly = true }
        defer { Task { try await server.stop() } }
        let document = "/api/documents/\(ServerFixtures.card)"
        let deleted = try await server.request("DELETE", document)
        #expect(deleted.status == 405)
        #expect(deleted.headers["allow"] == "GET, HEAD, OPTIONS")
        let options = try await server.request("OPTIONS", document)
        #expect(options.status == 204)
        #expect(options.headers["allow"] == "GET, HEAD, OPTIONS")
        // Actions answer nothing but OPTIONS on a read-only server.
        let undo = try await server.request("POST", "\(document)/undo")
        #expect(undo.status == 405 && undo.text.contains("read-only"), "\(undo.text)")
        #expect(undo.headers["allow"] == "OPTIONS")
        #expect(try await server.request("OPTIONS", "\(document)/undo").headers["allow"] == "OPTIONS")
        // A method no route takes names the same methods, without the writes.
        let put = try await server.request("PUT", document)
        #expect(put.status == 405 && put.headers["allow"] == "GET, HEAD, OPTIONS", "\(put.text)")
        #expect(!put.text.contains("DELETE"), "\(put.text)")
        // The stateless render writes nothing and stays.
        #expect(try await server.request("OPTIONS", "/api/render").headers["allow"] == "POST, OPTIONS")
    }

    @Test func everyReadOnlyRouteAnswersAWriteWith405NotA404() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        for path in ["/api/schema", "/api/stickers", "/api/events", "/healthz", "/readyz", "/metrics", "/editor/main.js"] {
            let post = try await server.request("POST", path)
            #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD, OPTIONS", "\(path): \(post.status) \(post.text)")
        }
    }
}

/// A document's answer holds more than its bytes: which images are there, what can be
/// undone. Its tag must change when they do, or a 304 hides them.
@Suite("Document answers and their tags")
struct DocumentAnswerTagTests {
    @Test func anImageThatGoesChangesTheTagNotTheRevision() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let path = "/api/documents/\(ServerFixtures.card)"
        let first = try await server.request("GET", path)
        let tag = try #require(first.headers["etag"])
        #expect(try await server.request("GET", path, headers: ["If-None-Match": tag]).status == 304)
        let card = try #require(try DocumentRegistry.standard.open(server.folder.file(ServerFixtures.card)).document as? Card)
        let photo = try #require(card.imageElements.compactMap(\.imageFilename).first)
        try FileManager.default.removeItem(
            at: server.folder.file(ServerFixtures.card).deletingLastPathComponent().appendingPathComponent(photo))
        let after = try await server.request("GET", path, headers: ["If-None-Match": tag])
        #expect(after.status == 200, "the answer changed: the photo is gone")
        #expect(after.text.contains(photo))
        let newTag = try #require(after.headers["etag"])
        #expect(newTag != tag)
        // The revision, the tag's first part, is the document's: an edit may name either.
        let revision = String(tag.dropFirst().prefix { $0 != "-" })
        #expect(newTag.hasPrefix("\"\(revision)-"))
        let edit = try await server.request(
            "POST", "\(path)/edits", headers: ["Content-Type": "application/json", "If-Match": newTag],
            body: Array(#"{"operations":[{"verb":"move","index":0,"by":[5,5]}]}"#.utf8))
        #expect(edit.status == 200, "\(edit.text)")
        let stale = try await server.request(
            "POST", "\(path)/edits", headers: ["Content-Type": "application/json", "If-Match": "\"\(revision)\""],
            body: Array(#"{"operations":[{"verb":"move","index":0,"by":[5,5]}]}"#.utf8))
        #expect(stale.status == 412)
    }
}

/// A state folder that cannot be made is the server's fault, said with the system's reason
/// (not Foundation's "NSCocoaErrorDomain error 512").
@Suite("Server state folder faults")
struct ServerStateFaultTests {
    @Test func aStateFolderThatCannotBeMadeSaysWhy() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        // Where the histories and locks go, a file instead of a folder.
        let documents = server.stateFolder.appendingPathComponent("documents")
        try? FileManager.default.removeItem(at: documents)
        try Data("not a folder".utf8).write(to: documents)
        let edit = try await server.request(
            "POST", "/api/documents/\(ServerFixtures.card)/edits", headers: ["Content-Type": "application/json"],
            body: Array(#"{"operations":[{"verb":"move","index":0,"by":[5,5]}]}"#.utf8))
        #expect(edit.status == 500, "\(edit.status) \(edit.text)")
        #expect(!edit.text.contains(server.stateFolder.path), "\(edit.text)")
        #expect(edit.text.contains("Not a directory"), "the system's reason: \(edit.text)")
    }
}

/// How an Easel error becomes a status: a read-only document is 403 (asking again cannot
/// help), the server's own state folder failing is 500, anything else about the files a
/// conflict (409), even when the served folder's path starts like the state folder's.
@Suite("Problems for document errors")
struct DocumentProblemTests {
    typealias Routes = DocumentRoutes<BasicRequestContext>
    let base = TemporaryFolder()
    var folder: URL { base.url.appendingPathComponent("easel-cards") }
    var state: URL { base.url.appendingPathComponent("easel") }

    func problem(_ kind: DocumentError.Kind) throws -> Problem {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("a.rwcard"))
        let error = DocumentError(file: folder.appendingPathComponent("a.rwcard").path, kind: kind)
        return Routes.problem(for: error, document: "a.rwcard", folder: folder, stateFolder: state)
    }

    @Test func statusesByCause() throws {
        #expect(
            try problem(.readOnly("is read-only (its permissions do not let you write it); nothing was saved")).status
                == .forbidden)
        #expect(try problem(.io("another easel is editing this document; try again when it has finished")).status == .conflict)
        #expect(try problem(.io("the file changed on disk since it was opened")).status == .conflict)
        let lock = try problem(.io("cannot create the lock file \(state.path)/documents/1f/lock: Permission denied"))
        #expect(lock.status == .internalServerError)
        #expect(!lock.detail.contains(base.path), "\(lock.detail)")
    }
}
