import EaselBatch
import EaselDocuments
import EaselGeometry
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// A folder export writes only inside its output folder, never among or over its inputs,
/// and nothing planted there (a link, a pipe) leads a write elsewhere or blocks it.
@Suite("A folder export writes only inside its output folder")
struct FolderExportConfinementTests {
    @Test func aLinkPlantedInTheOutputFolderIsNotWrittenThrough() throws {
        let s = ExportScratch()
        try FolderExportTests.documents(s, cards: 2)
        let outside = TemporaryFolder("easel-outside")
        try FileManager.default.createDirectory(at: s.url("Out"), withIntermediateDirectories: true)
        // A symbolic link where a subfolder would go.
        try FileManager.default.createSymbolicLink(atPath: s.url("Out/Art").path, withDestinationPath: outside.path)
        let report = try s.export(["Docs"], to: "Out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing written through the link")
        #expect(report.error(of: "green.drawing")?.contains("leads outside the output folder") == true)
    }

    @Test func theOutputFolderMayNotBeInsideAnInputUnlessExcluded() throws {
        let s = ExportScratch()
        try FolderExportTests.documents(s, cards: 2)
        #expect {
            _ = try BatchExporter(inputs: [s.url("Docs")], outputFolder: s.url("Docs/png"), options: BatchExportOptions())
        } throws: { error in
            "\(error)".contains("--exclude \(s.url("Docs/png").path)")
        }
        let excluded = try s.export(["Docs"], to: "Docs/png") { $0.excluded = [s.url("Docs/png")] }
        #expect(excluded.totals.documents == 7)
        let again = try s.export(["Docs"], to: "Docs/png") { $0.excluded = [s.url("Docs/png")] }
        #expect(again.totals.documents == 7 && again.totals.rendered == 0, "its own outputs are not scanned as inputs")
    }

    @Test func noOutputIsWrittenAmongAnInputFoldersOwnFiles() throws {
        let s = ExportScratch()
        try s.drawing("w/in/in/photo.drawing", 30, 20)
        try s.drawing("w/in/card.drawing", 30, 20)
        try s.folder.write("the user's photo", to: "w/in/photo.png")
        // `w` holds `in`: in/in/photo.drawing would be written over in/photo.png. Refused, named.
        let report = try s.export(["w/in"], to: "w")
        #expect(report.error(of: "photo.drawing")?.contains("would be inside the input folder") == true)
        #expect(try s.text("w/in/photo.png") == "the user's photo")
        #expect(try s.image("w/card.png").width == 30, "the others are exported beside the input folder")
        // An output folder holding the input folder is fine when nothing lands inside it.
        try s.drawing("proj/cards/a.drawing", 30, 20)
        #expect(try s.export(["proj/cards"], to: "proj").totals.failed == 0)
        #expect(try s.image("proj/a.png").width == 30)
    }

    @Test func anExportIntoItsOwnFolderNeverReplacesAnImageADocumentUses() throws {
        let s = ExportScratch()
        try s.png("d/photo.png")
        let image = Graphic(
            kind: .image(file: "photo.png"),
            transform: GraphicTransform(center: Point(x: 20, y: 15), size: Size(width: 40, height: 30)))
        try s.drawing("d/photo.drawing", 40, 30, graphics: [image])
        try s.drawing("d/other.drawing", 40, 30)
        let before = try s.bytes("d/photo.png")
        let report = try s.export(["d"], to: "d") { $0.excluded = [s.url("d")] }
        #expect(report.error(of: "photo.drawing")?.contains("photo.png would replace an existing file") == true)
        #expect(try s.bytes("d/photo.png") == before, "the image the drawing uses is untouched")
        #expect(s.exists("d/other.png"), "the other document is exported")
    }

    /// A document already in the output folder (not an input) protects the images it uses:
    /// an input named as one of them would have replaced it, being a PNG.
    @Test func aFolderExportNeverReplacesAnImageADocumentInTheOutputFolderUses() throws {
        let s = ExportScratch()
        try s.png("out/pic.png", color: Color(red: 1, green: 0, blue: 0))
        let image = Graphic(
            kind: .image(file: "pic.png"),
            transform: GraphicTransform(center: Point(x: 20, y: 15), size: Size(width: 40, height: 30)))
        try s.drawing("out/d.drawing", 40, 30, graphics: [image])
        try s.drawing("in/pic.drawing", 40, 30)
        try s.drawing("in/other.drawing", 40, 30)
        let before = try s.bytes("out/pic.png")
        let report = try s.export(["in"], to: "out")
        #expect(report.error(of: "pic.drawing")?.contains("pic.png would replace an existing file") == true)
        #expect(try s.bytes("out/pic.png") == before, "the image the drawing uses is untouched")
        #expect(s.exists("out/other.png"), "the other document is exported")
    }

    @Test func aLinkPlantedAtTheJournalIsNotWrittenThrough() throws {
        let s = ExportScratch()
        try s.drawing("in/a.drawing")
        try s.drawing("in/b.drawing")
        let victim = try s.folder.write("precious", to: "victim.txt")
        try FileManager.default.createDirectory(at: s.url("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: s.url("out/.easel-manifest.json.journal"), withDestinationURL: victim)
        #expect(try s.export(["in"]).totals.rendered == 2)
        #expect(try s.text("victim.txt") == "precious")
        #expect(s.exists("out/a.png"))
    }

    @Test(arguments: [".easel-manifest.json.journal", ".easel-manifest.json"])
    func aPipePlantedAtTheManifestOrItsJournalDoesNotBlock(name: String) async throws {
        let s = ExportScratch()
        try s.drawing("in/a.drawing")
        try s.drawing("in/b.drawing")
        try FileManager.default.createDirectory(at: s.url("out"), withIntermediateDirectories: true)
        #expect(mkfifo(s.url("out/" + name).path, 0o644) == 0)
        // On a thread of its own: were it to block on the pipe, the test fails instead of hanging.
        let rendered = Locked<Int?>(nil)
        Thread { rendered.withLock { $0 = (try? s.export(["in"]))?.totals.rendered ?? -1 } }.start()
        #expect(await eventually { rendered.withLock { $0 } != nil }, "finishes instead of blocking on the pipe")
        #expect(rendered.withLock { $0 } == 2)
    }
}
