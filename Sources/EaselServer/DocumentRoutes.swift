import Dispatch
import EaselCairo
import EaselDocuments
import EaselEditing
import EaselRender
import EaselSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

/// The routes under `/api/documents`: the list, one document as JSON, its renderings, and
/// its edits, undo and redo.
struct DocumentRoutes<Context: RequestContext>: Sendable {
    let service: DocumentService
    let pool: RenderPool
    let metrics: ServerMetrics
    let limits: ServerLimits
    /// File work (listing, opening, saving) runs here, off the event loops.
    let files: FileWork
    /// The request bodies held at once, server-wide.
    let bodies: BodyBudget
    /// New documents, copies, deleting and uploads.
    var fileRoutes: DocumentFileRoutes<Context> {
        DocumentFileRoutes(service: service, limits: limits, files: files, pool: pool, bodies: bodies)
    }

    func add(to router: Router<Context>) {
        fileRoutes.add(to: router)
        router.get("/api/documents") { _, _ in try await list() }
        router.get("/api/schema") { _, _ in Self.schema }
        router.get("/api/documents/**") { request, context in
            try await get(request, path: context.parameters.getCatchAll().joined(separator: "/"))
        }
        router.post("/api/documents/**") { request, context in
            try await post(request, path: context.parameters.getCatchAll().joined(separator: "/"))
        }
    }

    /// `GET /api/schema`: the element property table (`EditSchema`), which the editor's
    /// inspector builds its controls from. The same for every request: encoded once.
    static var schema: Response { json(schemaJSON, headers: [.cacheControl: "public, max-age=3600"]) }

    private func list() async throws -> Response {
        let summaries = try await files.run { service.list() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Self.json(Array(try encoder.encode(DocumentListing(documents: summaries))), headers: [.cacheControl: "no-cache"])
    }

    private func get(_ request: Request, path: String) async throws -> Response {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if let last = components.last, last.hasPrefix("render."), components.count > 1 {
            guard let format = OutputFormat(rawValue: String(last.dropFirst("render.".count))) else {
                throw Problem(.notFound, "renders are render.png, render.svg or render.pdf")
            }
            return try await render(request, path: components.dropLast().joined(separator: "/"), format: format)
        }
        let url = try service.document(at: path)
        let path = service.folder.relativePath(of: url)  // as it is named, not as encoded in the URL
        // In the render pool: describing lays out every text (a card within the limits can
        // take seconds), so it is bounded as renders are: as many at once as there are
        // workers, and a 503 to retry when the queue is full, never memory and CPU without end.
        let (json, revision, canUndo, canRedo) = try await pool.run(doing: "working out the document's description") {
            () throws -> ([UInt8], String, Bool, Bool) in
            do {
                return try service.describe(url, relativePath: path)
            } catch {
                throw Self.problem(for: error, document: path, folder: service.folder.url, stateFolder: service.state.url)
            }
        }
        // The revision, then a tag of the answer itself: the body also says which images are
        // there and what was drawn around (an image can appear or go while the document's
        // bytes stay), and the headers say what can be undone, so a 304 must mean all of it
        // is unchanged. `If-Match` takes the whole tag or the revision alone.
        let answerTag = FNV1a.hash(json + Array("\(canUndo) \(canRedo)".utf8))
        let etag = "\"\(revision)-\(String(answerTag, radix: 16))\""
        if Self.ifNoneMatch(request, matches: etag) { return Response(status: .notModified, headers: [.eTag: etag]) }
        // Whether the shared history has steps to undo or redo, for the editor's buttons.
        return Self.json(
            json,
            headers: [
                .eTag: etag, .cacheControl: "no-cache", HTTPField.Name("X-Easel-Can-Undo")!: String(canUndo),
                HTTPField.Name("X-Easel-Can-Redo")!: String(canRedo),
            ])
    }

    private func render(_ request: Request, path: String, format: OutputFormat) async throws -> Response {
        let url = try service.document(at: path)
        let path = service.folder.relativePath(of: url)  // one name however the URL encodes it
        let query = try RenderQuery.parse(
            format: format, query: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        // A hit in memory is checked without the pool: stat calls only, no waiting behind
        // renders. The disk tier is read in the pool, with the render it may spare.
        let cached = service.cache.entry(for: service.renderKey(relativePath: path, query: query), includingDisk: false)
        let entry: RenderCache.Entry
        if let cached {
            entry = cached
        } else {
            let started = DispatchTime.now().uptimeNanoseconds
            let result = try await pool.run { () throws -> (RenderCache.Entry, Bool) in
                do {
                    return try service.render(url, relativePath: path, query: query)
                } catch {
                    throw Self.problem(for: error, document: path, folder: service.folder.url, stateFolder: service.state.url)
                }
            }
            entry = result.0
            metrics.cache(hit: result.1)
            if !result.1 { metrics.render(format: format.rawValue, nanoseconds: DispatchTime.now().uptimeNanoseconds - started) }
        }
        if cached != nil { metrics.cache(hit: true) }
        // A URL that names the revision it shows (`?rev=`, the editor's and the browser's) never
        // shows anything else: the world's caches may keep it for good. Any other (a plain URL,
        // or a revision this server does not hold, such as a replica that has not seen an edit
        // yet) is revalidated by its ETag every time. A render asked for with the token is the
        // token holder's: only their own browser may keep it, never a shared cache that would
        // hand it to anyone who knows the URL.
        let pinned = request.uri.queryParameters["rev"].map { String($0) == entry.revision } ?? false
        let audience = request.headers[.authorization] == nil ? "public" : "private"
        var headers: HTTPFields = [
            .eTag: entry.etag, .cacheControl: pinned ? "\(audience), max-age=31536000, immutable" : "no-cache",
            .contentType: Self.contentType(format), HTTPField.Name("X-Easel-Revision")!: entry.revision,
        ]
        Self.addRenderedFileSecurity(to: &headers)
        if Self.ifNoneMatch(request, matches: entry.etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(entry.byteCount)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: entry.output))
    }

    private func post(_ request: Request, path: String) async throws -> Response {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 1, let action = components.last.map(String.init),
            ["edits", "undo", "redo", "preview.png"].contains(action) || fileRoutes.handles(action)
        else {
            throw Problem(
                .notFound, "a document takes POST …/edits, …/undo, …/redo, …/preview.png, …/duplicate or …/images")
        }
        let requestedPath = components.dropLast().joined(separator: "/")
        if fileRoutes.handles(action) { return try await fileRoutes.post(request, path: requestedPath, action: action) }
        if action == "preview.png" { return try await preview(request, path: requestedPath) }
        let url = try service.document(at: requestedPath)
        let documentPath = service.folder.relativePath(of: url)  // as it is named, not as encoded in the URL
        let ifMatch = request.headers[.ifMatch]
        var body: AdmittedBody?
        if action == "edits" {
            guard request.headers[.contentType].map({ $0.lowercased().hasPrefix("application/json") }) ?? false else {
                throw Problem(.unsupportedMediaType, "edits are JSON: send Content-Type: application/json")
            }
            body = try await AdmittedBody.read(request, limit: limits.maxBodyBytes, timeout: limits.idleTimeout, budget: bodies)
        }
        defer { body?.release() }
        let folder = service.folder, requestBody = body?.bytes ?? []
        let outcome = try await files.run { () throws -> DocumentService.EditOutcome in
            do {
                switch action {
                case "undo":
                    return try service.edit(url, relativePath: documentPath, ifMatch: ifMatch) { editor in
                        try DocumentService.checkHistoryIsHere(editor, for: "undo", document: documentPath)
                        return .init(results: [try editor.undo() ? "undid the last edit" : "nothing to undo"])
                    }
                case "redo":
                    return try service.edit(url, relativePath: documentPath, ifMatch: ifMatch) { editor in
                        try DocumentService.checkHistoryIsHere(editor, for: "redo", document: documentPath)
                        return .init(results: [try editor.redo() ? "redid an edit" : "nothing to redo"])
                    }
                default:
                    let edits = try EditRequest.parse(requestBody) { name in Self.file(at: name, in: folder) }
                    return try service.edit(url, relativePath: documentPath, ifMatch: ifMatch) { editor in
                        try service.apply(edits, to: &editor)
                    }
                }
            } catch {
                throw Self.problem(for: error, document: documentPath, folder: folder.url, stateFolder: service.state.url)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Self.json(
            Array(try encoder.encode(outcome)), headers: [.eTag: "\"\(outcome.revision)\"", .cacheControl: "no-store"])
    }

    /// `POST …/preview.png`: the document as an edits body would make it, rendered with the
    /// query's options (`only` for the changed elements alone) and not saved. In the render
    /// pool, bounded as renders are; never cached.
    private func preview(_ request: Request, path: String) async throws -> Response {
        let url = try service.document(at: path)
        let path = service.folder.relativePath(of: url)
        let query = try RenderQuery.parse(
            format: .png, query: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        guard request.headers[.contentType].map({ $0.lowercased().hasPrefix("application/json") }) ?? false else {
            throw Problem(.unsupportedMediaType, "a preview's edits are JSON: send Content-Type: application/json")
        }
        // As an upload's (DocumentFileRoutes): room, the body, then a place.
        _ = try AdmittedBody.declaredLength(of: request, limit: limits.maxBodyBytes)
        try pool.checkRoom()
        let body = try await AdmittedBody.read(request, limit: limits.maxBodyBytes, timeout: limits.idleTimeout, budget: bodies)
        defer { body.release() }
        let ticket = try pool.admit()
        defer { ticket.release() }
        let bytes = body.bytes, service = self.service, folder = service.folder
        let png = try await pool.run(with: ticket) { () throws -> [UInt8] in
            do {
                let edits = try EditRequest.parse(bytes) { name in Self.file(at: name, in: folder) }
                return try service.preview(url, relativePath: path, edits: edits, query: query)
            } catch {
                throw Self.problem(for: error, document: path, folder: folder.url, stateFolder: service.state.url)
            }
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/png", .cacheControl: "no-store", .contentLength: String(png.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }

    /// A regular file inside the served folder (an image an edit adds), by the same rules as documents.
    static func file(at relativePath: String, in folder: ServedFolder) -> URL? {
        guard let found = folder.plainPath(relativePath), found.type == S_IFREG else { return nil }
        return URL(fileURLWithPath: found.path)
    }

    // MARK: Helpers

    static func json(_ bytes: [UInt8], headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func contentType(_ format: OutputFormat) -> String {
        switch format {
        case .png: return "image/png"
        case .svg: return "image/svg+xml"
        case .pdf: return "application/pdf"
        }
    }

    /// What every rendered file's answer carries: an SVG opened on its own, at this server's
    /// address, runs nothing and loads nothing but the images it embeds (Easel's SVG holds
    /// paths and `data:` images only; the policy keeps it so whatever a document holds), and
    /// no file is taken for another type than it is sent as.
    static func addRenderedFileSecurity(to headers: inout HTTPFields) {
        headers[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
    }

    /// Whether the request's `If-None-Match` names `etag` (a list, `*` and weak forms included).
    static func ifNoneMatch(_ request: Request, matches etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return header.split(separator: ",").contains { candidate in
            let value = candidate.trimmingCharacters(in: .whitespaces)
            return value == "*" || value == etag || value == "W/" + etag
        }
    }

    /// Easel's errors as problems, their messages kept with the server's paths (the served
    /// folder's, its `stateFolder`'s) hidden: invalid documents and requests 400 (with the
    /// key path), budgets 413, a document its owner made read-only 403, a document another
    /// editor holds or changed 409, the state folder failing 500.
    static func problem(for error: Error, document: String, folder: URL, stateFolder: URL) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case let error as DocumentError:
            let message = ServedFolder.hidingAllPaths(in: ServedFolder.hidingServerPaths(in: error.description, folder: folder))
            // A document its owner made read-only: asking again cannot help.
            if case .readOnly = error.kind { return Problem(.forbidden, message, document: document) }
            if case .io(let reason) = error.kind {
                // Deleted while the request waited for it (DELETE holds the document's lock).
                if error.file.hasSuffix(document), !FileIO.entryExists(atPath: error.file) {
                    return Problem(.notFound, "\(document) no longer exists: it was deleted or moved", document: document)
                }
                // The server's own files (a lock or a history in its state folder) failing is
                // the server's fault, not a conflict the client could resolve. Told by the
                // reason naming a file inside the state folder (not by the error's file: that
                // is the document, and a served folder may share the state folder's prefix).
                if reason.contains(stateFolder.standardizedFileURL.path + "/") {
                    var problem = Problem(.internalServerError, message, document: document)
                    problem.logDetail = error.description  // the operator needs the path
                    return problem
                }
                // Paths of the served folder are named as the client names them; any other
                // is nobody else's business.
                return Problem(.conflict, message, document: document)
            }
            return Problem.invalidDocument(error, document: document, folder: folder)
        case let error as EditError:
            return Problem(.badRequest, ServedFolder.hidingServerPaths(in: error.message, folder: folder), document: document)
        case let error as CairoError:
            let status: HTTPResponse.Status = if case .tooLarge = error { .contentTooLarge } else { .internalServerError }
            return Problem(status, ServedFolder.hidingServerPaths(in: error.description, folder: folder), document: document)
        case let error as RenderError:
            let status: HTTPResponse.Status
            switch error {
            case .tooLarge: status = .contentTooLarge
            case .cairo(.tooLarge): status = .contentTooLarge
            case .invalidSize: status = .badRequest
            case .timedOut: status = .serviceUnavailable
            default: status = .internalServerError
            }
            return Problem(status, ServedFolder.hidingServerPaths(in: error.description, folder: folder), document: document)
        default:
            // Any other failure (Foundation's, naming the trash or another server file) tells
            // the client paths of the served folder only; the log gets the rest.
            // Foundation's errors name paths after `=` too (`NSFilePath=/…`), where
            // `hidingAllPaths` does not look: the state folder is taken out by name first.
            let text = "\(error)".replacingOccurrences(of: stateFolder.standardizedFileURL.path, with: "Easel's state folder")
            var problem = Problem(
                .internalServerError,
                ServedFolder.hidingAllPaths(in: ServedFolder.hidingServerPaths(in: text, folder: folder)),
                document: document)
            problem.logDetail = "\(error)"
            return problem
        }
    }
}

/// The body of `GET /api/documents`.
struct DocumentListing: Encodable {
    var documents: [DocumentSummary]
}

/// The body of `GET /api/schema`, encoded on first use.
private let schemaJSON: [UInt8] = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(EditSchema())).map(Array.init) ?? Array("{}".utf8)
}()
