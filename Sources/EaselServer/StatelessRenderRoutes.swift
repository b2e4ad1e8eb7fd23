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

    func add(to router: Router<Context>) {
        router.post("/api/render") { request, _ in try await render(request) }
    }

    private func render(_ request: Request) async throws -> Response {
        var format = OutputFormat.png, kind: String?
        var rest: [(key: String, value: String)] = []
        for (key, value) in request.uri.queryParameters {
            switch key {
            case "format":
                guard let value = OutputFormat(rawValue: String(value)) else {
                    throw Problem(.badRequest, "format must be png, svg or pdf, not \"\(value)\"")
                }
                format = value
            case "kind": kind = String(value)
            default: rest.append((String(key), String(value)))
            }
        }
        let query = try RenderQuery.parse(format: format, query: rest)
        let contentType = (request.headers[.contentType] ?? "").lowercased()
        let body = try await DocumentRoutes<Context>.collect(request, limit: limits.maxBodyBytes, timeout: limits.idleTimeout)
        var document: FileWrapper
        var images: [String: [UInt8]] = [:]
        var documentName: String?
        if contentType.hasPrefix("application/json") {
            document = .regularFile(body)
        } else if contentType.hasPrefix("application/zip") {
            let contents = try ZipBody.read(
                body, registry: service.registry,
                limits: ZipBody.Limits(
                    maxEntries: limits.maxParts, maxFileBytes: 64 << 20, maxTotalBytes: limits.maxBodyBytes * 8))
            (document, images, documentName) = (contents.document, contents.images, contents.documentPath)
        } else if contentType.hasPrefix("multipart/form-data") {
            guard let boundary = MultipartBody.boundary(in: request.headers[.contentType] ?? "") else {
                throw Problem(.badRequest, "a multipart body needs its boundary in Content-Type")
            }
            let parts = try MultipartBody.parse(body, boundary: boundary, maxParts: limits.maxParts)
            guard let json = parts.first(where: { $0.name == "document" }) else {
                throw Problem(.badRequest, "the multipart body has no part named \"document\" (the card or drawing JSON)")
            }
            document = .regularFile(json.bytes)
            for part in parts where part.name != "document" {
                let name = part.filename ?? part.name
                guard !name.isEmpty, images[name] == nil else {
                    throw Problem(.badRequest, "every image part needs its own filename (\"\(name)\" is empty or repeated)")
                }
                images[name] = part.bytes
            }
        } else {
            throw Problem(
                .unsupportedMediaType, "send the document as application/json, or as multipart/form-data with its images")
        }
        let registry = service.registry, maxPixels = limits.maxRenderPixels
        let (documentFile, imageFiles, requestedKind, zipName) = (document, images, kind, documentName)
        let file = try await pool.run { () throws -> (bytes: [UInt8], warnings: Int) in
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
                let located = LocatedDocument(value, at: url, contentType: entry.contentType, warnings: warnings)
                let scene = try DocumentRenderer.scene(
                    for: located, background: query.options.background, images: ImageLoader(files: imageFiles))
                let pixels = try query.options.size.pixelSize(for: scene.canvasSize)
                guard pixels.width * pixels.height <= maxPixels else {
                    throw Problem(
                        .contentTooLarge,
                        "a \(pixels.width)x\(pixels.height) rendering is over this server's limit of \(maxPixels) pixels")
                }
                let file = try DocumentRenderer.export(scene, options: query.options)
                return (file.bytes, file.warnings.count)
            } catch let error as DocumentError {
                throw Problem(
                    error.kind.isLimit ? .contentTooLarge : .badRequest,
                    error.description.replacingOccurrences(of: url.path, with: "request body"), document: "request body",
                    keyPath: error.keyPath.isEmpty ? nil : error.keyPath)
            } catch {
                throw DocumentRoutes<Context>.problem(
                    for: error, document: "request body", folder: url.deletingLastPathComponent())
            }
        }
        var headers: HTTPFields = [
            .contentType: DocumentRoutes<Context>.contentType(format), .cacheControl: "no-store",
            .contentLength: String(file.bytes.count),
        ]
        if file.warnings > 0 { headers[HTTPField.Name("X-Easel-Warnings")!] = String(file.warnings) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
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
        case let other?: throw Problem(.badRequest, "kind must be card or drawing, not \"\(other)\"")
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
