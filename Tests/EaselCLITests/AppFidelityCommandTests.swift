import Testing
import Foundation
import EaselCairo
import EaselTestSupport

@Suite("Photos and legacy cards from the command line")
struct AppFidelityCommandTests {
    static let images = ProcessRunner.packageRoot.appendingPathComponent("Tests/EaselRenderTests/Images")

    @Test func addingAJPEGToACardStoresAnUprightPNGAsTheAppDoes() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        try s.ok(["add", "c.rwcard", "image", Self.images.appendingPathComponent("orientation-6.jpg").path])
        let stored = try FileManager.default.contentsOfDirectory(atPath: s.folder.url.path).filter { !$0.contains(".") }
        #expect(stored.count == 1)
        let bytes = try s.bytes(stored[0])
        #expect(ImageFormat.sniff(bytes) == .png, "the app's UIImage.save() writes PNG")
        let image = try PNGDecoder.decode(bytes)
        #expect(image.width == 8 && image.height == 16, "turned upright by its EXIF orientation")
        let validated = try s.run(["validate", "c.rwcard"])
        #expect(validated.status == 0, "\(validated.stdout) \(validated.stderr)")
    }

    @Test func aDrawingTakesAWebPAsItIs() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "100x100"])
        try s.ok(["add", "d.drawing", "image", Self.images.appendingPathComponent("alpha.webp").path])
        #expect(try s.bytes("alpha.webp") == Array(Data(contentsOf: Self.images.appendingPathComponent("alpha.webp"))))
        let exported = try s.run(["export", "d.drawing", "--out", "d.png"])
        #expect(exported.status == 0 && !exported.stderr.contains("warning"), "\(exported.stderr)")
    }

    @Test func editingALegacyCardSaysOnceThatItWasUpgraded() throws {
        let s = CLIScratch()
        let legacy = ProcessRunner.packageRoot.appendingPathComponent(
            "Assets/Samples/1A2B3C4D-0000-4000-8000-000000000004.rwcard")
        try s.folder.write(Array(try Data(contentsOf: legacy)), to: "old.rwcard")
        let first = try s.ok(["background", "old.rwcard", "red"])
        #expect(first.stderr.contains("saved in the current format — a legacy card"), "\(first.stderr)")
        #expect(try String(contentsOf: s.folder.file("old.rwcard"), encoding: .utf8).contains("textElements"))
        let second = try s.ok(["background", "old.rwcard", "blue"])
        #expect(!second.stderr.contains("current format"), "said once: \(second.stderr)")
    }

    @Test func aTextAddedToACardGetsTheAppsDefaultFont() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        try s.ok(["add", "c.rwcard", "text", "Hello"])
        // Edition 2 of the app gives a new text "Gill Sans"; edition 1's "San Fransisco" is
        // what an edition-1 card already holds, never what a new text gets.
        let saved = try String(contentsOf: s.folder.file("c.rwcard"), encoding: .utf8)
        #expect(saved.contains(#""textFont":"Gill Sans""#) || saved.contains(#""textFont" : "Gill Sans""#), "\(saved)")
    }
}
