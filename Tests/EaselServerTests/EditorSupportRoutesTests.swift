import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
@testable import EaselServer
import EaselTestSupport
import Foundation
import Testing

/// What the browser editor's hands ask of `easel serve`, over real HTTP: the layers of a
/// live preview (the elements alone, the rest without them), a part of the canvas, an
/// unsaved preview of an edit, a photo placed where it was dropped, several elements edited
/// as one step, the elements an edit added, new cards from the app's palette and the
/// document browser's titles.
@Suite("easel serve: what the editor's hands need")
struct EditorSupportRoutesTests {
    static let card = ServerFixtures.card
    /// Card 1's background, in 8-bit sRGB.
    static let background = RGBA8(r: 208, g: 184, b: 241, a: 255)

    func image(_ response: RawHTTP.Response) throws -> RasterImage {
        #expect(response.status == 200, "\(response.text)")
        return try PNGDecoder.decode(response.body)
    }

    func render(_ server: LiveServer, _ query: String) async throws -> RawHTTP.Response {
        try await server.request("GET", "/api/documents/\(Self.card)/render.png?\(query)")
    }

    func post(_ server: LiveServer, _ action: String, _ body: String, type: String = "application/json") async throws
        -> RawHTTP.Response
    {
        try await server.request(
            "POST", "/api/documents/\(Self.card)/\(action)", headers: ["Content-Type": type], body: Array(body.utf8))
    }

    func card(_ server: LiveServer) throws -> Card {
        try #require(try DocumentRegistry.standard.open(server.folder.file(Self.card)).document as? Card)
    }

    @Test func theLayersAreTheElementsAloneAndTheRestWithoutThem() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        // Image 0 (the sunset) is centred at (650, 550): (65, 55) at a tenth of the size.
        let whole = try image(try await render(server, "scale=0.1"))
        let alone = try image(try await render(server, "scale=0.1&only=0"))
        let rest = try image(try await render(server, "scale=0.1&without=0"))
        #expect(whole.pixel(x: 65, y: 55) != Self.background, "the whole card shows the photo there")
        #expect(alone.pixel(x: 65, y: 55) == whole.pixel(x: 65, y: 55), "the layer is the photo, drawn as in the whole")
        #expect(alone.pixel(x: 2, y: 2).a == 0 && alone.pixel(x: 65, y: 190).a == 0, "and nothing else: the rest is clear")
        #expect(rest.pixel(x: 65, y: 55) == Self.background, "the backdrop has the card's colour where the photo was")
        #expect(rest.pixel(x: 65, y: 180) == whole.pixel(x: 65, y: 180), "and everything else as it was")
        let two = try await render(server, "scale=0.1&only=0,4")
        #expect(two.status == 200 && two.headers["etag"] != nil)
    }

    @Test func aPartOfTheCanvasIsRenderedAtTheWidthAsked() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let part = try image(try await render(server, "area=0,0,650,1000&width=130"))
        #expect(part.width == 130 && part.height == 200)
        #expect(part.pixel(x: 2, y: 2) == Self.background)
    }

    @Test func badLayerAndAreaQueriesSayWhatIsWrong() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let cases: [(String, String)] = [
            ("only=x", "only takes element indices (0 or more) separated by commas"),
            ("only=-1", "only takes element indices"), ("only=0&without=1", "give only or without, not both"),
            ("only=99", "element 99 does not exist"), ("area=1,2,3", "area must be x,y,w,h"),
            ("area=0,0,0,10", "area must be x,y,w,h"),
            ("only=" + (0...1000).map(String.init).joined(separator: ","), "at most 1000"),
        ]
        for (query, message) in cases {
            let response = try await render(server, query)
            #expect(response.status == 400 && response.text.contains(message), "\(query): \(response.text)")
        }
    }

    @Test func aPreviewShowsAnEditWithoutSavingIt() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let before = try Data(contentsOf: server.folder.file(Self.card))
        let preview = try image(
            try await post(server, "preview.png?scale=0.1", #"{"operations":[{"verb":"background","color":"black"}]}"#))
        #expect(preview.pixel(x: 2, y: 2) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        let alone = try image(try await post(server, "preview.png?scale=0.1&only=0", #"{"verb":"move","index":0,"by":[0,500]}"#))
        #expect(alone.pixel(x: 65, y: 55).a == 0 && alone.pixel(x: 65, y: 105).a == 255, "the moved photo alone")
        #expect(try Data(contentsOf: server.folder.file(Self.card)) == before, "nothing saved")
        let photo = try await post(
            server, "preview.png", #"{"verb":"add","kind":"image","value":"8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"}"#)
        #expect(photo.status == 400 && photo.text.contains("a preview cannot add an image"), "\(photo.text)")
        let bad = try await post(server, "preview.png", #"{"verb":"set","index":0,"size":[-5,1]}"#)
        #expect(bad.status == 400 && bad.text.contains("width must be from 0"), "\(bad.text)")
    }

    @Test func aDroppedPhotoLandsWhereItWasDroppedInAFrameOfItsProportions() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let photo = try Data(contentsOf: server.folder.file("8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"))  // 600x400
        let response = try await server.request(
            "POST", "/api/documents/\(Self.card)/images?at=300,400", headers: ["Content-Type": "image/png"],
            body: Array(photo))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["added"] as? [Int] == [4], "the new image's index")
        let added = try card(server).imageElements[4].transform
        #expect(added.center == Point(x: 300, y: 400) && added.size.width == 800)
        #expect(abs(added.size.height - 800 * 400 / 600.0) < 1e-9, "the photo's proportions: \(added.size)")
        let bad = try await server.request(
            "POST", "/api/documents/\(Self.card)/images?at=here", headers: ["Content-Type": "image/png"], body: Array(photo))
        #expect(bad.status == 400 && bad.text.contains("at: expected X,Y"), "\(bad.text)")
    }

    @Test func severalElementsAreAlignedOrderedAndRemovedInOneStep() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let original = try card(server)
        let aligned = try await post(server, "edits", #"{"verb":"align","indices":[2,3],"edge":"top"}"#)
        #expect(aligned.status == 200, "\(aligned.text)")
        let after = try card(server)
        #expect(try after.bounds(of: 2).minY == after.bounds(of: 3).minY)
        #expect((aligned.json["results"] as? [String]) == ["aligned elements 2, 3 on the top"])
        let ordered = try await post(server, "edits", #"{"verb":"order","indices":[0,1],"direction":"front"}"#)
        #expect((ordered.json["results"] as? [String]) == ["elements 0, 1 are now elements 2, 3"], "\(ordered.text)")
        #expect(ordered.json["reordered"] as? [Int] == [2, 3], "where the editor selects them: \(ordered.text)")
        let removed = try await post(server, "edits", #"{"verb":"remove","indices":[3,0]}"#)
        let remaining = try card(server).imageElements.count
        #expect(removed.status == 200 && remaining == original.imageElements.count - 2)
        for _ in 0..<3 { _ = try await post(server, "undo", "") }
        #expect(try card(server) == original, "each was one undo step")
        let cases: [(String, String)] = [
            (#"{"verb":"align","indices":[0,1],"edge":"diagonal"}"#, "the edge is left, center, right, top, middle or bottom"),
            (#"{"verb":"distribute","indices":[0,1],"axis":"horizontal"}"#, "three or more"),
            (#"{"verb":"remove","index":0,"indices":[1]}"#, "give index or indices, not both"),
            (#"{"verb":"align","indices":[],"edge":"left"}"#, "give one element index or more"),
            (#"{"verb":"align","edge":"left"}"#, "indices"),
        ]
        for (body, message) in cases {
            let response = try await post(server, "edits", body)
            #expect(response.status == 400 && response.text.contains(message), "\(body): \(response.text)")
        }
    }

    @Test func anEditSaysWhichElementsItAddedAsTheyAreAfterIt() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        // The card has 4 images and 1 text: a text goes on top (5), then an image goes under
        // the texts (4), which moves the new text up to 6.
        let response = try await post(
            server, "edits",
            #"{"operations":[{"verb":"add","kind":"text","value":"Hi"},{"verb":"add","kind":"image","value":"8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"}]}"#
        )
        #expect(response.json["added"] as? [Int] == [6, 4], "\(response.text)")
        let after = try card(server)
        #expect(after.textElements.last?.text == "Hi" && after.imageElements.count == 5)

        // Each image added to a card is decoded and stored as a file of its own: one request
        // adds at most 32, and one past that changes nothing and stores nothing.
        let files = try FileManager.default.contentsOfDirectory(atPath: server.folder.path).count
        let add = #"{"verb":"add","kind":"image","value":"8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"}"#
        let many = try await post(
            server, "edits", #"{"operations":["# + Array(repeating: add, count: 33).joined(separator: ",") + "]}")
        #expect(many.status == 400, "\(many.text)")
        #expect(
            (many.json["detail"] as? String)?.contains("one request adds at most 32 images or stickers") == true, "\(many.text)")
        #expect(try card(server).imageElements.count == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.folder.path).count == files)
    }

    @Test func oneEditCarriesAtMostWhatEaselDrawsOfADocumentsText() async throws {
        // A thousand texts of 9,990 characters (10 MB) kept the file workers for a minute:
        // each text is laid out to size its frame. Past the text budget, nothing is done.
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let long = String(repeating: "x", count: 9_990)
        let add = #"{"verb":"add","kind":"text","value":""# + long + #""}"#
        let many = try await post(
            server, "edits", #"{"operations":["# + Array(repeating: add, count: 21).joined(separator: ",") + "]}")
        #expect(many.status == 400, "\(many.text)")
        #expect(
            (many.json["detail"] as? String)?.contains("one request carries at most 200000 characters of text") == true,
            "\(String(many.text.prefix(300)))")
        #expect(try card(server).textElements.count == 1)
        let set = try await post(
            server, "edits", #"{"verb":"set","index":4,"text":""# + String(repeating: "y", count: 200_001) + #""}"#)
        let kept = try card(server).textElements[0].text.count
        #expect(set.status == 400 && kept < 200_000, "\(String(set.text.prefix(300)))")
        let fitting = try await post(
            server, "edits", #"{"operations":["# + Array(repeating: add, count: 20).joined(separator: ",") + "]}")
        #expect(fitting.status == 200, "\(String(fitting.text.prefix(300)))")
    }

    @Test func theListForgetsTheSummariesOfDocumentsThatWent() throws {
        let folder = try ServerFixtures.samples()
        let state = TemporaryFolder("easel-serve-state")
        let service = DocumentService(
            folder: try ServedFolder(folder.url), registry: .standard, limits: ServerLimits(), stateFolder: state.url)
        let listed = service.list().count
        #expect(service.rememberedSummaries == listed)
        // Documents made and deleted, many times over, leave nothing behind.
        for round in 0..<20 {
            let made = folder.file("made-\(round).drawing")
            try DocumentRegistry.standard.save(
                Drawing(canvasSize: Size(width: 10, height: 10), background: .white, graphics: []), to: made)
            #expect(service.list().count == listed + 1)
            try FileManager.default.removeItem(at: made)
        }
        #expect(service.list().count == listed)
        #expect(service.rememberedSummaries == listed, "the summaries of the documents deleted are forgotten")
    }

    @Test func aNewCardTakesAColourOfTheAppsPaletteAndTheBrowserNamesCardsByTheirText() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        var colours = Set<String>()
        for _ in 0..<12 {
            let created = try await server.request(
                "POST", "/api/documents", headers: ["Content-Type": "application/json"], body: Array(#"{"kind":"card"}"#.utf8))
            let path = try #require(created.json["path"] as? String)
            let card = try #require(try DocumentRegistry.standard.open(server.folder.file(path)).document as? Card)
            #expect(Card.newCardBackgrounds.contains(card.backgroundColor), "\(card.backgroundColor)")
            colours.insert(card.backgroundColor.hex)
        }
        #expect(colours.count > 1, "chosen at random, as the app chooses")
        let listing = try await server.request("GET", "/api/documents")
        let documents = try #require(listing.json["documents"] as? [[String: Any]])
        let titles = Dictionary(uniqueKeysWithValues: documents.map { ($0["path"] as? String ?? "", $0["title"] as? String) })
        #expect(titles[Self.card] == "Greetings from Easel")
        #expect(titles[ServerFixtures.drawing] == ServerFixtures.drawing)
        let described = try await server.request("GET", "/api/documents/\(Self.card)")
        #expect(described.json["resourceFolder"] as? String == "", "images resolve in the served folder itself")
    }
}
