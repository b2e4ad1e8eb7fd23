import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import EaselSupport

/// The browser editor at `/`: its HTML, CSS and ES modules, bundled as the package's
/// resources and served as they are (no build step), each with a strong ETag of its bytes.
/// They are read once at start. Should the resource bundle be missing (a binary copied
/// without the folder beside it), `/` says so instead of the server failing.
struct EditorRoutes<Context: RequestContext>: Sendable {
    let files: [String: (bytes: [UInt8], etag: String)]
    let missing: String?

    init() {
        guard let folder = Self.folder() else {
            files = [:]
            missing =
                "the editor's files (a folder named *_EaselServer.resources beside the easel-serve binary) were not found; the API works without them"
            return
        }
        var loaded: [String: (bytes: [UInt8], etag: String)] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            let bytes = [UInt8](data)
            loaded[name] = (bytes, "\"\(DocumentService.revision(of: bytes))\"")
        }
        files = loaded
        missing = nil
    }

    /// The `Editor` folder of this target's resource bundle: beside the executable (or the
    /// test bundle), under whatever package name SwiftPM gave it; `EASEL_EDITOR_DIR` overrides.
    static func folder() -> URL? {
        if let override = ProcessInfo.processInfo.environment["EASEL_EDITOR_DIR"] { return URL(fileURLWithPath: override) }
        var places = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        if Bundle.main.bundleURL.pathExtension == "xctest" { places.append(Bundle.main.bundleURL.deletingLastPathComponent()) }
        for place in places {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place.path)) ?? []
            for name in names.sorted() where name.hasSuffix("_EaselServer.resources") {
                let editor = place.appendingPathComponent(name).appendingPathComponent("Editor")
                if FileManager.default.fileExists(atPath: editor.appendingPathComponent("index.html").path) { return editor }
            }
        }
        return nil
    }

    func add(to router: Router<Context>) {
        router.get("/") { request, _ in try serve("index.html", request) }
        router.get("/editor/:name") { request, context in
            try serve(context.parameters.get("name") ?? "", request)
        }
    }

    private func serve(_ name: String, _ request: Request) throws -> Response {
        if let missing { throw Problem(.serviceUnavailable, missing) }
        guard let file = files[name] else { throw Problem(.notFound, "no editor file \(name.quotedForMessage)") }
        var headers: HTTPFields = [.eTag: file.etag, .cacheControl: "no-cache", .contentType: Self.contentType(of: name)]
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"
        if DocumentRoutes<Context>.ifNoneMatch(request, matches: file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        default: return "application/octet-stream"
        }
    }
}
