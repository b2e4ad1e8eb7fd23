import Testing
import Foundation
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo
import EaselTestSupport
import EaselGoldenTesting

/// Scripted sessions through the built binary, one of every kind, checked against goldens.
@Suite("Editing sessions")
struct EditingSessionTests {
    /// A 300x200 PNG with quadrants, made by Easel's own encoder.
    static func writeQuadrantsPNG(to url: URL, width: Int = 300, height: Int = 200) throws {
        let image = try RasterImage(width: width, height: height)
        image.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let quadrant = (x < width / 2 ? 0 : 1) + (y < height / 2 ? 0 : 2)
                    let argb: UInt32 = [0xFFE6_3946, 0xFF2A_9D8F, 0xFFE9_C46A, 0xFF26_4653][quadrant]
                    pixels.storeBytes(of: argb, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
                }
            }
        }
        try image.writePNG(to: url.path)
    }

    @Test func aDrawingWithOneOfEveryKindEditedUndoneAndRedone() throws {
        let s = CLIScratch()
        try Self.writeQuadrantsPNG(to: s.folder.file("photo.png"))
        try s.ok(["new", "drawing", "kinds.drawing", "--size", "600x420", "--background", "#F1FAEE"])
        let adds: [[String]] =
            [
                ["rect", "--at", "60,50", "--size", "90x60"],
                ["rounded-rect", "--corner-radius", "14", "--at", "170,50", "--size", "90x60", "--fill", "steelblue"],
                ["ellipse", "--at", "280,50", "--size", "90x60", "--fill", "tomato", "--stroke", "black", "--stroke-width", "2"],
                ["polygon", "--sides", "5", "--at", "390,50", "--size", "70x70", "--fill", "gold"],
                ["star", "--points", "7", "--inner-ratio", "0.6", "--at", "500,50", "--size", "80x80", "--fill", "orchid"],
                [
                    "line", "--from", "20,110", "--to", "580,130", "--stroke", "navy", "--stroke-width", "5", "--dash", "12,6",
                    "--cap", "round",
                ],
                [
                    "path", "M 0 1 Q 0.25 0 0.5 0.5 C 0.7 1 0.9 0 1 1 Z", "--at", "300,190", "--size", "560x80", "--fill",
                    "0.42,0.3,0.58",
                ],
                ["text", "Every kind", "--font", "Avenir-Heavy", "--font-size", "30", "--at", "300,260", "--align", "center"],
                ["image", "photo.png", "--at", "80,340", "--size", "120x120", "--clip", "heart"],
            ]
            + ["circle", "heart", "lens", "chevron", "cone", "cloud", "diamond", "hexagon", "octagon"].enumerated().map {
                i, shape in
                [
                    shape, "--at", "\(200 + (i % 5) * 80),\(320 + (i / 5) * 60)", "--size", "60x46", "--fill", "#2A9D8F",
                    "--stroke", "#1B1B1E",
                ]
            }
        for arguments in adds { try s.ok(["add", "kinds.drawing"] + arguments) }
        try s.ok(["set", "kinds.drawing", "3", "--rotation", "20", "--opacity", "0.6"])
        try s.ok(["move", "kinds.drawing", "0", "--by", "0,10"])
        try s.ok(["order", "kinds.drawing", "8", "back"])
        try s.ok(["remove", "kinds.drawing", "17"])
        try s.ok(["background", "kinds.drawing", "ivory"])
        try s.ok(["undo", "kinds.drawing"])  // background back to #F1FAEE
        try s.ok(["undo", "kinds.drawing"])  // the octagon is back
        try s.ok(["redo", "kinds.drawing"])  // and removed again
        let info = try s.ok(["info", "kinds.drawing", "--json"])
        let description = try JSONDecoder().decode(DocumentDescription.self, from: Data(info.stdout.utf8))
        #expect(description.elements.count == 17)
        #expect(description.background == "#F1FAEE")
        #expect(description.elements[0].kind == "image" && description.elements[0].imageStatus == "ok", "ordered to the back")
        try s.ok(["export", "kinds.drawing", "--out", "kinds.png"])
        assertGolden(try s.image("kinds.png"), named: "drawing-session", suite: "CLI")
    }

    @Test func aCardFromAnImageAndAText() throws {
        let s = CLIScratch()
        try Self.writeQuadrantsPNG(to: s.folder.file("photo.png"))
        try Self.writeQuadrantsPNG(to: s.folder.file("big.png"), width: 1600, height: 1200)
        try FileManager.default.createDirectory(at: s.folder.file("Documents"), withIntermediateDirectories: true)
        let created = try s.ok(["new", "card", "Documents", "--background", "random6"])
        let cardPath = try #require(created.stdout.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(cardPath.hasSuffix(".rwcard"))
        try s.ok([
            "add", cardPath, "image", "photo.png", "--at", "650,700", "--size", "900x700", "--rotation", "-6", "--clip",
            "roundedRectangle",
        ])
        try s.ok(["add", cardPath, "image", "big.png", "--at", "650,1350", "--size", "500x500", "--clip", "circle"])
        try s.ok([
            "add", cardPath, "text", "Wish you were here", "--font", "ChalkboardSE-Regular", "--color", "appColor1",
            "--at", "650,1800", "--size", "1100x200",
        ])
        try s.ok(["set", cardPath, "2", "--text", "Wish you were here!"])
        // The images were copied in as the app stores them: upper-case UUIDs, no extension,
        // and the large one shrunk to 1000 pixels on its longer side.
        let folder = s.folder.file("Documents")
        let images = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { UUID(uuidString: $0) != nil }
        #expect(images.count == 2)
        let sizes = try images.map { try PNGDecoder.decode(Array(Data(contentsOf: folder.appendingPathComponent($0)))) }.map {
            [$0.width, $0.height]
        }
        #expect(Set(sizes) == [[300, 200], [1000, 750]])
        // The card is written as the app writes it.
        let json = try String(contentsOf: URL(fileURLWithPath: cardPath, relativeTo: s.folder.url), encoding: .utf8)
        #expect(
            json.contains("\"frameIndex\" : 2") && json.contains("\"frame\" : 2")
                && json.contains("\"textFont\" : \"ChalkboardSE-Regular\""))
        try s.ok(["export", cardPath, "--out", "card.png", "--preset", "thumbnail"])
        assertGolden(try s.image("card.png"), named: "card-session", suite: "CLI")
    }

    @Test func aNewEditAfterAnUndoDropsTheRedoBranch() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["add", "d.drawing", "ellipse"])
        try s.ok(["undo", "d.drawing"])
        try s.ok(["add", "d.drawing", "star"])
        #expect(try s.ok(["redo", "d.drawing"]).stdout == "nothing to redo in d.drawing\n")
        #expect(try s.ok(["undo", "d.drawing"]).stdout == "undid the last edit of d.drawing\n")
        #expect(try s.ok(["undo", "d.drawing"]).stdout == "nothing to undo in d.drawing\n")
    }

    @Test func historyIsResetWhenTheDocumentChangedElsewhere() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["add", "d.drawing", "ellipse"])
        // Another program rewrites the document.
        try s.folder.write(String(decoding: DrawingEncoder.encode(Drawing(background: .black)), as: UTF8.self), to: "d.drawing")
        let result = try s.run(["undo", "d.drawing"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("changed outside easel"))
        #expect(result.stdout == "nothing to undo in d.drawing\n")
        // Said once: the reset is kept even when the edit that found it fails.
        try s.ok(["add", "d.drawing", "star"])
        try s.folder.write(String(decoding: DrawingEncoder.encode(Drawing(background: .white)), as: UTF8.self), to: "d.drawing")
        let failed = try s.run(["remove", "d.drawing", "7"])
        #expect(failed.status == 1 && failed.stderr.contains("changed outside easel"), "\(failed.stderr)")
        let next = try s.ok(["undo", "d.drawing"])
        #expect(!next.stderr.contains("changed outside easel"), "\(next.stderr)")
    }

    @Test func nothingIsLeftBesideTheDocuments() throws {
        // The Cards app decodes every file whose name contains ".rwcard", hidden ones too.
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        try s.ok(["background", "c.rwcard", "random3"])
        try s.ok(["info", "c.rwcard"])
        try s.ok(["undo", "c.rwcard"])
        // Beside the card only the folder's lock, which every editor of the folder must see:
        // empty, hidden, and with no ".rwcard" in its name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.path).sorted() == [".easel.lock", "c.rwcard"])
        #expect(try s.bytes(".easel.lock").isEmpty)
        let kept = try FileManager.default.subpathsOfDirectory(atPath: s.state.path)
        #expect(kept.contains { $0.hasSuffix("index.json") }, "the history is in the state folder: \(kept)")
    }
}
