import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

/// What the document browser and the editor need beyond editing: new documents, copies,
/// deleting (into Easel's trash in its state folder, never gone at once), and adding an
/// uploaded photo. Each answers the new document's path and revision.
///
/// - `POST /api/documents` `{"kind": "card" | "drawing", "folder": "sub/folder"}`: a new empty
///   card (named `<UUID>.rwcard`, as the app names them, on a colour of the app's palette
///   chosen at random, as the app chooses) or drawing ("Untitled.drawing", numbered).
/// - `POST /api/documents/{path}/duplicate`: a copy beside it (a card gets a new id).
/// - `DELETE /api/documents/{path}`: moved to `$XDG_STATE_HOME/easel/trash/`.
/// - `POST /api/documents/{path}/images?at=X,Y` (body: a PNG or JPEG): a new image element
///   centred at `at` (where it was dropped; by default the canvas's centre) in a frame of the
///   image's proportions, the file stored as the document's type does (a card: an
///   extension-less PNG named by a new UUID, as the app saves photos). One undo step;
///   `If-Match` as for edits. Decoded in the
///   render pool, under its timeout, like a render: a photo can take seconds to decode, and
///   the file pool stays free for listing and saving.
struct DocumentFileRoutes<Context: RequestContext>: Sendable {
    let service: DocumentService
    let limits: ServerLimits
    let files: FileWork
    /// Uploads are decoded here, with renders.
    let pool: RenderPool
    /// The request bodies held at once, server-wide.
    let bodies: BodyBudget

    struct Created: Encodable {
        var path: String
        var revision: String
    }

    func add(to router: Router<Context>) {
        router.post("/api/documents") { request, _ in try await create(request) }
        router.delete("/api/documents/**") { request, context in
            try await delete(path: context.parameters.getCatchAll().joined(separator: "/"), ifMatch: request.headers[.ifMatch])
        }
    }

    /// `POST …/duplicate` and `POST …/images`, reached through the document routes' POST.
    func handles(_ action: String) -> Bool { action == "duplicate" || action == "images" }

    func post(_ request: Request, path documentPath: String, action: String) async throws -> Response {
        let url = try service.document(at: documentPath)
        let documentPath = service.folder.relativePath(of: url)  // as it is named, not as encoded in the URL
        let service = self.service
        if action == "duplicate" {
            let created = try await files.run { () throws -> Created in
                do {
                    return try Self.duplicate(url, service: service)
                } catch {
                    throw DocumentRoutes<Context>.problem(
                        for: error, document: documentPath, folder: service.folder.url, stateFolder: service.state.url)
                }
            }
            return try Self.created(created)
        }
        var placement = ElementChanges()
        for (key, value) in request.uri.queryParameters {
            guard key == "at" else {
                throw Problem(.badRequest, "unknown query parameter \(key.quotedForMessage); images takes at")
            }
            do {
                placement[.at] = try ElementProperty.at.value(fromText: String(value))
            } catch {
                throw Problem(.badRequest, "at: \(error.message)", keyPath: "at")
            }
        }
        // The type is told by the bytes (a browser sends no type for a file without an
        // extension, such as a card's photo); a declared type other than an image is refused.
        let type = (request.headers[.contentType] ?? "application/octet-stream").lowercased()
        guard type.hasPrefix("image/") || type.hasPrefix("application/octet-stream") else {
            throw Problem(.unsupportedMediaType, "upload a PNG or JPEG image (Content-Type image/png or image/jpeg)")
        }
        // Room among the renders first, then the body, then a place: an upload the pool or
        // the body budget refuses is refused before any of it is read, and one sent slowly
        // holds no render's place while it comes.
        _ = try AdmittedBody.declaredLength(of: request, limit: limits.maxBodyBytes)
        try pool.checkRoom()
        let body = try await AdmittedBody.read(request, limit: limits.maxBodyBytes, timeout: limits.idleTimeout, budget: bodies)
        defer { body.release() }
        let ticket = try pool.admit()
        defer { ticket.release() }
        let bytes = body.bytes
        guard let format = ImageFormat.sniff(bytes) else {
            throw Problem(.unsupportedMediaType, "the upload is not a PNG, JPEG or WebP image", document: documentPath)
        }
        // Named by what the bytes are, not by the declared type: a drawing keeps the name.
        let ext = format == .png ? "png" : format == .jpeg ? "jpg" : "webp"
        let ifMatch = request.headers[.ifMatch], placed = placement
        let outcome = try await pool.run(with: ticket, doing: "adding the image") { () throws -> DocumentService.EditOutcome in
            do {
                return try service.addUploadedImage(
                    bytes, extension: ext, placed: placed, to: url, relativePath: documentPath, ifMatch: ifMatch)
            } catch {
                throw DocumentRoutes<Context>.problem(
                    for: error, document: documentPath, folder: service.folder.url, stateFolder: service.state.url)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return DocumentRoutes<Context>.json(Array(try encoder.encode(outcome)), headers: [.eTag: "\"\(outcome.revision)\""])
    }

    private func create(_ request: Request) async throws -> Response {
        guard (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") else {
            throw Problem(.unsupportedMediaType, "send {\"kind\": \"card\"} or {\"kind\": \"drawing\"} as application/json")
        }
        let admitted = try await AdmittedBody.read(request, limit: 64 << 10, timeout: limits.idleTimeout, budget: bodies)
        defer { admitted.release() }
        let body = admitted.bytes
        let service = self.service
        let created = try await files.run { () throws -> Created in
            do {
                return try Self.create(body, service: service)
            } catch {
                throw DocumentRoutes<Context>.problem(
                    for: error, document: "request body", folder: service.folder.url, stateFolder: service.state.url)
            }
        }
        return try Self.created(created)
    }

    static func create(_ body: [UInt8], service: DocumentService) throws -> Created {
        let root = try JSONNode.parse(body, file: "request body")
        for (key, node) in try root.members() where !["kind", "folder"].contains(key) {
            throw node.invalid("a new document takes kind and folder, not \(key.quotedForMessage)")
        }
        let kindNode = try root.required("kind")
        let kind = try kindNode.string()
        guard kind == "card" || kind == "drawing" else { throw kindNode.invalid("the kind is card or drawing") }
        var folder = service.folder.realPath
        if let sub = try root.optionalNonNull("folder")?.string(), !sub.isEmpty {
            guard ServedFolder.components(of: sub) != nil else {
                throw Problem(
                    .badRequest, "the folder \(sub.quotedForMessage) is not a plain path inside the served folder",
                    keyPath: "folder")
            }
            guard let found = service.folder.plainPath(sub), found.type == S_IFDIR else {
                throw Problem(.notFound, "no folder \(sub.quotedForMessage) in the served folder", keyPath: "folder")
            }
            guard !service.registry.isDocument(URL(fileURLWithPath: found.path)) else {
                throw Problem(
                    .badRequest, "\(sub.quotedForMessage) is a document (a drawing package), not a folder for documents",
                    keyPath: "folder")
            }
            folder = found.path
        }
        // A name is taken only when the file is made: another request (or `easel new`) that
        // takes it first sends this one on to the next name.
        let url = try Self.createUnderFreeName(service: service) { () -> (URL, any EditableDocument) in
            if kind == "card" {
                let card = Card(backgroundColor: Card.newCardBackgrounds.randomElement() ?? Card.defaultBackground)
                return (URL(fileURLWithPath: folder).appendingPathComponent(card.appFileName), card)
            }
            var name = "Untitled.drawing", number = 2
            while FileIO.entryExists(atPath: folder + "/" + name) {
                name = "Untitled \(number).drawing"
                number += 1
            }
            return (
                URL(fileURLWithPath: folder).appendingPathComponent(name),
                Drawing(canvasSize: Size(width: 800, height: 600), background: .white)
            )
        }
        return Created(path: service.folder.relativePath(of: url), revision: try service.revision(of: url))
    }

    /// Makes the document `next` names (asked again whenever its name was taken meanwhile)
    /// and returns where it went; gives up after 100 names taken under it.
    static func createUnderFreeName(
        service: DocumentService, _ next: () throws -> (URL, any EditableDocument),
        make: ((URL, any EditableDocument) throws -> Void)? = nil
    ) throws -> URL {
        for _ in 0..<100 {
            let (url, document) = try next()
            do {
                if let make {
                    try make(url, document)
                } else {
                    _ = try DocumentEditor.create(document, at: url, registry: service.registry, stateFolder: service.stateFolder)
                }
                return url
            } catch  where DocumentEditor.isAlreadyExists(error) {
                continue
            }
        }
        throw Problem(.conflict, "every name tried was taken by documents made at the same moment; try again")
    }

    private func delete(path: String, ifMatch: String?) async throws -> Response {
        let url = try service.document(at: path)
        let path = service.folder.relativePath(of: url)  // as it is named, not as encoded in the URL
        let service = self.service
        try await files.run {
            do {
                try service.moveToTrash(url, relativePath: path, ifMatch: ifMatch)
            } catch let problem as Problem {
                throw problem
            } catch {
                throw DocumentRoutes<Context>.problem(
                    for: error, document: path, folder: service.folder.url, stateFolder: service.state.url)
            }
        }
        return Response(status: .noContent)
    }

    static func duplicate(_ url: URL, service: DocumentService) throws -> Created {
        let located = try service.registry.open(url)
        guard let document = located.document as? any EditableDocument else {
            throw Problem(.badRequest, "this kind of document cannot be copied here")
        }
        let folder = url.deletingLastPathComponent()
        let isPackage = service.registry.isPackage(url)
        let target = try createUnderFreeName(service: service) {
            let copy = document.duplicated(named: url.lastPathComponent) {
                FileIO.entryExists(atPath: folder.appendingPathComponent($0).path)
            }
            return (folder.appendingPathComponent(copy.fileName), copy.document)
        } make: { target, copy in
            if isPackage {
                // A package: its images and other files come along, and the copy's content is
                // the copied document (written last, as a save would).
                try service.copyPackage(url, to: target, content: copy)
            } else {
                _ = try DocumentEditor.create(copy, at: target, registry: service.registry, stateFolder: service.stateFolder)
            }
        }
        return Created(path: service.folder.relativePath(of: target), revision: try service.revision(of: target))
    }

    static func created(_ created: Created) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var response = DocumentRoutes<Context>.json(
            Array(try encoder.encode(created)), headers: [.eTag: "\"\(created.revision)\""])
        response.status = .created
        return response
    }
}
