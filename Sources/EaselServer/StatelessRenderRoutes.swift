import EaselDocuments
import EaselRender
import EaselSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /api/render`: a card or drawing sent in the request (JSON, or multipart with its
/// images), rendered and returned; nothing is written to disk and no file is read but the
/// fonts. Query: `format` (png, svg, pdf), `kind` (card or drawing; by default a drawing
/// when the JSON says `"format": "org.easel.drawing"`, else a card) and the render options.
///
/// Multipart (`multipart/form-data`): the part named `document` is the JSON; every other
/// part is an image, named by its filename (the name the document uses, such as a card's
/// extension-less UUID).
struct StatelessRenderRoutes<Context: RequestContext>: Sendable {
    let service: DocumentService
    let pool: RenderPool
    let limits: ServerLimits
    /// The request bodies held at once, server-wide.
    let bodies: BodyBudget

    func add(to router: Router<Context>) {
        router.post("/api/render") { request, _ in try await render(request) }
    }

    private func render(_ request: Request) async throws -> Response {
        var format = OutputFormat.png, kind: String?
        var rest: [(key: String, value: String)] = []
        var seen: Set<String> = []
        for (key, value) in request.uri.queryParameters {
            // As every other parameter: a second value is refused, never silently the one used.
            if key == "format" || key == "kind" {
                guard seen.insert(String(key)).inserted else {
                    throw Problem(.badRequest, "the query parameter \"\(key)\" is given twice")
                }
            }
            switch key {
            case "format":
                guard let value = OutputFormat(rawValue: String(value)) else {
                    throw Problem(.badRequest, "format must be png, svg or pdf, not \(value.quotedForMessage)")
                }
                format = value
            case "kind": kind = String(value)
            default: rest.append((String(key), String(value)))
            }
        }
        let query = try RenderQuery.parse(format: format, query: rest, also: ["format", "kind"])
        let contentType = (request.headers[.contentType] ?? "").lowercased()
        guard Self.bodyTypes.contains(where: contentType.hasPrefix) else { throw Self.unsupportedBody }
        // Checked before a byte of the body is read: a body over the limit, a full render
        // queue and a spent body budget are each refused at once, so a flood of large POSTs
        // is answered without being buffered. The render's place is taken once the body has
        // arrived: a body sent slowly holds none while it comes.
        _ = try AdmittedBody.declaredLength(of: request, limit: limits.maxBodyBytes)
        try pool.checkRoom()
        let admitted = try await AdmittedBody.read(
            request, limit: limits.maxBodyBytes, timeout: limits.idleTimeout, budget: bodies)
        defer { admitted.release() }
        let ticket = try pool.admit()
        defer { ticket.release() }
        let body = admitted.bytes
        let boundary = MultipartBody.boundary(in: request.headers[.contentType] ?? "")
        let registry = service.registry, unpackLimits = limits
        let requestedKind = kind
        // Unpacked in the pool: a zip is inflated by a render worker (at most one per core,
        // the rest wait or are refused), never on the server's own threads, so a flood of
        // zips can neither stall the server nor hold more than a few inflated bodies at once.
        let file = try await pool.run(with: ticket) { () throws -> (bytes: [UInt8], warnings: Int) in
            let (documentFile, imageFiles, zipName) = try Self.unpack(
                body, contentType: contentType, boundary: boundary, registry: registry, limits: unpackLimits)
            let entry = try Self.entry(for: requestedKind, zipName: zipName, document: documentFile, registry: registry)
            let ext = entry.contentType.preferredFilenameExtension
            // A place that exists nowhere: its images come from the request only.
            let url = URL(fileURLWithPath: "/easel-stateless-render/request.\(ext)")
            do {
                var warnings: [DocumentWarning] = []
                let value = try entry.documentType.init(
                    configuration: ReadConfiguration(
                        contentType: entry.contentType, file: documentFile, fileURL: url),
                    warnings: &warnings)
                var located = LocatedDocument(value, at: url, contentType: entry.contentType, warnings: warnings)
                try DocumentService.select(query.elements, of: &located)
                var scene = try DocumentRenderer.scene(
                    for: located, background: query.options.background, images: ImageLoader(files: imageFiles),
                    deadline: unpackLimits.renderDeadline, drawnFor: query.options)
                try unpackLimits.prepare(&scene, options: query.options, document: "request body")
                let file = try DocumentRenderer.export(scene, options: query.options)
                return (file.bytes, file.warnings.count)
            } catch let error as DocumentError {
                throw Problem(
                    error.kind.isLimit ? .contentTooLarge : .badRequest,
                    error.description.replacingOccurrences(of: url.path, with: "request body"), document: "request body",
                    keyPath: error.keyPath.isEmpty ? nil : error.keyPath)
            } catch {
                throw DocumentRoutes<Context>.problem(
                    for: error, document: "request body", folder: url.deletingLastPathComponent(),
                    stateFolder: service.state.url)
            }
        }
        var headers: HTTPFields = [
            .contentType: DocumentRoutes<Context>.contentType(format), .cacheControl: "no-store",
            .contentLength: String(file.bytes.count),
        ]
        if file.warnings > 0 { headers[HTTPField.Name("X-Easel-Warnings")!] = String(file.warnings) }
        DocumentRoutes<Context>.addRenderedFileSecurity(to: &headers)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    /// The bodies `/api/render` reads, by the start of their Content-Type.
    static var bodyTypes: [String] { ["application/json", "application/zip", "multipart/form-data"] }
    static var unsupportedBody: Problem {
        Problem(
            .unsupportedMediaType,
            "send the document as application/json, as multipart/form-data with its images, or as a zip (application/zip)")
    }

    /// The document, its images and (from a zip) the document's name in it, from a body
    /// of `contentType`. A zip inflates to at most twice the body limit in all: photos do
    /// not shrink in a zip, so more than that is a bomb, not a card.
    static func unpack(
        _ body: [UInt8], contentType: String, boundary: String?, registry: DocumentRegistry, limits: ServerLimits
    ) throws -> (document: FileWrapper, images: [String: [UInt8]], documentName: String?) {
        if contentType.hasPrefix("application/json") { return (.regularFile(body), [:], nil) }
        if contentType.hasPrefix("application/zip") {
            let total = limits.maxBodyBytes * 2
            let contents = try ZipBody.read(
                body, registry: registry,
                limits: ZipBody.Limits(maxEntries: limits.maxParts, maxFileBytes: min(64 << 20, total), maxTotalBytes: total))
            return (contents.document, contents.images, contents.documentPath)
        }
        guard contentType.hasPrefix("multipart/form-data") else { throw unsupportedBody }
        guard let boundary else { throw Problem(.badRequest, "a multipart body needs its boundary in Content-Type") }
        let parts = try MultipartBody.parse(body, boundary: boundary, maxParts: limits.maxParts)
        let documents = parts.filter { $0.name == "document" }
        guard let json = documents.first else {
            throw Problem(.badRequest, "the multipart body has no part named \"document\" (the card or drawing JSON)")
        }
        guard documents.count == 1 else {
            throw Problem(.badRequest, "the multipart body has \(documents.count) parts named \"document\"; send one")
        }
        var images: [String: [UInt8]] = [:]
        for part in parts where part.name != "document" {
            let name = part.filename ?? part.name
            guard !name.isEmpty, images[name] == nil else {
                throw Problem(
                    .badRequest, "every image part needs its own filename (\(name.quotedForMessage) is empty or repeated)")
            }
            images[name] = part.bytes
        }
        return (.regularFile(json.bytes), images, nil)
    }

    /// The registered type for `kind`, or guessed from the JSON.
    static func entry(for kind: String?, zipName: String?, document: FileWrapper, registry: DocumentRegistry) throws
        -> DocumentRegistry.Entry
    {
        if kind == nil, let zipName, let entry = registry.entry(for: URL(fileURLWithPath: "/" + zipName)) { return entry }
        let wanted: String
        switch kind {
        case "card"?: wanted = "rwcard"
        case "drawing"?: wanted = "drawing"
        case let other?: throw Problem(.badRequest, "kind must be card or drawing, not \(other.quotedForMessage)")
        case nil:
            let isDrawing =
                document.regularFileContents.flatMap { try? JSONNode.parse($0, file: "request body") }
                .flatMap { try? $0.optional("format")?.string() } == "org.easel.drawing"
            wanted = isDrawing ? "drawing" : "rwcard"
        }
        guard let entry = registry.entries.first(where: { $0.contentType.preferredFilenameExtension == wanted }) else {
            throw Problem(.badRequest, "this server does not read \(wanted) documents")
        }
        return entry
    }
}

extension DocumentError.Kind {
    var isLimit: Bool {
        if case .limitExceeded = self { return true }
        return false
    }
}
