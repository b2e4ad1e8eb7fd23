import EaselEditing
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import EaselSupport

/// What the editor's pickers show, drawn by Easel's renderer: the stickers (`GET
/// /api/stickers`, their themes; `GET /api/stickers/{theme}/{name}.png?size=N`, one drawn N
/// pixels square, 16 to 1024, by default 128) and the picker's fonts each in its own face
/// (`GET /api/font-samples/{font}.png?height=N&text=…`, 12 to 256 pixels high, at most 100
/// characters, the font's name by default) and the clip shapes (`GET
/// /api/clip-samples/{name}.png?size=N`, 16 to 512). Each is the same for every request with the
/// same URL: cacheable for a day, with an ETag of its bytes; drawn in the render pool.
struct PickerRoutes<Context: RequestContext>: Sendable {
    let pool: RenderPool

    func add(to router: Router<Context>) {
        router.get("/api/stickers") { _, _ in Self.catalog }
        router.get("/api/stickers/:theme/:file") { request, context in
            let theme = context.parameters.get("theme") ?? "", file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".png"), let sticker = StickerCatalog.sticker(named: "\(theme)/\(file.dropLast(4))") else {
                throw Problem(.notFound, "no sticker \("\(theme)/\(file)".quotedForMessage); GET /api/stickers lists them")
            }
            let size = try Self.number("size", in: request, default: 128)
            return try await picture(request) { try StickerCatalog.png(sticker, size: size) }
        }
        router.get("/api/font-samples/:file") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".png") else { throw Problem(.notFound, "a font sample is FONT.png") }
            let font = String(file.dropLast(4)).removingPercentEncoding ?? String(file.dropLast(4))
            let height = try Self.number("height", in: request, default: 48)
            let text = request.uri.queryParameters["text"[...]].map(String.init)
            return try await picture(request) { try FontSample.png(font: font, text: text, height: height) }
        }
        router.get("/api/clip-samples/:file") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".png") else { throw Problem(.notFound, "a clip sample is NAME.png") }
            let name = String(file.dropLast(4))
            let size = try Self.number("size", in: request, default: 96)
            return try await picture(request) { try ClipSample.png(named: name, size: size) }
        }
    }

    /// `GET /api/stickers`, encoded once.
    static var catalog: Response {
        DocumentRoutes<Context>.json(catalogJSON, headers: [.cacheControl: "public, max-age=86400"])
    }

    /// A whole number from the query, `default` when absent; anything else is a 400.
    static func number(_ key: String, in request: Request, default fallback: Int) throws -> Int {
        guard let text = request.uri.queryParameters[key[...]].map(String.init) else { return fallback }
        guard let value = Int(text) else {
            throw Problem(.badRequest, "\(key) must be a whole number, not \(text.quotedForMessage)")
        }
        return value
    }

    /// A PNG drawn in the render pool; the library's refusals (a size out of bounds, a font
    /// not in the picker) are 400s.
    func picture(_ request: Request, draw: @escaping @Sendable () throws -> [UInt8]) async throws -> Response {
        let png = try await pool.run { () throws -> [UInt8] in
            do { return try draw() } catch let error as EditError { throw Problem(.badRequest, error.message) }
        }
        let etag = "\"\(DocumentService.revision(of: png))\""
        var headers: HTTPFields = [.contentType: "image/png", .eTag: etag, .cacheControl: "public, max-age=86400"]
        if DocumentRoutes<Context>.ifNoneMatch(request, matches: etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(png.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }
}

/// The body of `GET /api/stickers`: `{"themes": [{"name", "stickers": [{"id", "name", "emoji"}]}]}`.
private let catalogJSON: [UInt8] = {
    struct Catalog: Encodable { var themes: [StickerTheme] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(Catalog(themes: StickerCatalog.themes))).map(Array.init) ?? Array("{}".utf8)
}()
