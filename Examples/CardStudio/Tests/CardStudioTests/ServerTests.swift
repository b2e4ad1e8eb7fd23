import CardStudio
import EaselGoldenTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server from a downstream package: the browser editor's files must be found although
/// this package has another name (SwiftPM names the resource bundle after the package).
@Suite("Server")
struct ServerTests {
    @Test func servesTheEditorAndRendersTheCard() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardstudio-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Fixtures.documents, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CardStudio.server(for: folder)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let running = Task { try await server.run { port in continuation.yield(port) } }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let base = URL(string: "http://127.0.0.1:\(port)")!

        let (page, pageResponse) = try await URLSession.shared.data(from: base.appendingPathComponent("/"))
        #expect((pageResponse as? HTTPURLResponse)?.statusCode == 200, "the editor's page (its bundle was not found?)")
        #expect(String(decoding: page, as: UTF8.self).contains("<script type=\"module\""))

        let card = Fixtures.card.lastPathComponent
        let (png, renderResponse) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(port)/api/documents/\(card)/render.png?preset=thumbnail")!)
        #expect((renderResponse as? HTTPURLResponse)?.statusCode == 200)
        let image = try PNGDecoder.decode(Array(png))
        #expect(image.width == 260 && image.height == 400)
        assertGolden(image, named: "postcard", suite: "Cards")
    }
}
