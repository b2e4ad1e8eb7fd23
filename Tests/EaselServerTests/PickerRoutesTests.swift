import EaselCairo
import EaselTestSupport
import Foundation
import Testing

/// The pictures the editor's pickers show, over HTTP: the sticker list and each sticker, the
/// picker's fonts in their own faces, the clip shapes; cacheable, bounded, refused by name.
@Suite("easel serve: the pickers' pictures")
struct PickerRoutesTests {
    @Test func stickersFontsAndFramesAreServedAsPictures() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let list = try await server.request("GET", "/api/stickers")
        let themes = try #require(list.json["themes"] as? [[String: Any]])
        let first = try #require((themes.first?["stickers"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(themes.count >= 6 && list.headers["cache-control"]?.contains("max-age") == true)
        let sticker = try await server.request("GET", "/api/stickers/\(first).png?size=96")
        #expect(sticker.status == 200 && sticker.headers["content-type"] == "image/png", "\(sticker.text)")
        let image = try PNGDecoder.decode(sticker.body)
        #expect(image.width == 96 && image.height == 96)
        let again = try await server.request(
            "GET", "/api/stickers/\(first).png?size=96", headers: ["If-None-Match": sticker.headers["etag"] ?? ""])
        #expect(again.status == 304)
        let font = try await server.request("GET", "/api/font-samples/Gill%20Sans.png?height=40")
        #expect(font.status == 200, "\(font.text)")
        #expect(try PNGDecoder.decode(font.body).height == 40)
        let frame = try await server.request("GET", "/api/clip-samples/heart.png")
        #expect(frame.status == 200)
        #expect(try PNGDecoder.decode(frame.body).width == 96)
        let refusals: [(String, Int, String)] = [
            ("/api/stickers/party/unicorn.png", 404, "no sticker"),
            ("/api/stickers/\(first).png?size=9999", 400, "pixels square"),
            ("/api/stickers/\(first).png?size=big", 400, "whole number"),
            ("/api/font-samples/Wingdings.png", 400, "picker's fonts"),
            ("/api/font-samples/Papyrus.png?text=" + String(repeating: "x", count: 101), 400, "1 to 100 characters"),
            ("/api/clip-samples/blob.png", 400, "not a clip shape"), ("/api/clip-samples/heart.gif", 404, "NAME.png"),
        ]
        for (path, status, message) in refusals {
            let response = try await server.request("GET", path)
            #expect(response.status == status && response.text.contains(message), "\(path): \(response.status) \(response.text)")
        }
        let post = try await server.request("POST", "/api/stickers")
        #expect(post.status == 405)
    }

    @Test func theListingSaysWhenEachDocumentWasSaved() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let listing = try await server.request("GET", "/api/documents")
        let documents = try #require(listing.json["documents"] as? [[String: Any]])
        let stamps = documents.compactMap { $0["modified"] as? String }
        #expect(stamps.count == documents.filter { $0["problem"] == nil }.count)
        #expect(stamps.allSatisfy { ISO8601DateFormatter().date(from: $0) != nil }, "\(stamps)")
    }
}
