import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselGolden
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// `GoldenSuite.record` and `orphans`, what `easel golden record` and `prune` run: they
/// write only goldens, only in the goldens folder, keep what they are told to keep, and a
/// typo in a folder's name is an error, never a suite with nothing in it.
@Suite("Recording and pruning write only goldens, only where they belong")
struct GoldenSuiteFolderTests {
    let s = GoldenScratch()

    @Test func onlyMissingKeepsGoldensAndOrphansAreTheGoldensWithoutADocument() throws {
        try s.drawing("Docs/x.drawing")
        #expect(try s.record() == ["Goldens/x.png"])
        let before = try s.bytes("Goldens/x.png")
        try s.drawing("Docs/x.drawing", background: .black)
        try s.drawing("Docs/y.drawing")
        #expect(try s.record(onlyMissing: true) == ["Goldens/y.png"])
        #expect(try s.bytes("Goldens/x.png") == before, "existing goldens are kept")
        try FileManager.default.removeItem(at: s.url("Docs/y.drawing"))
        #expect(try s.suite().orphans() == ["y.png"])
        #expect(s.exists("Goldens/y.png"), "finding orphans removes nothing")
    }

    @Test func onlyFailingRewritesExactlyTheChangedGoldens() throws {
        try s.drawing("Docs/a.drawing")
        try s.drawing("Docs/b.drawing")
        try s.record()
        let untouched = try s.bytes("Goldens/a.png")
        try s.drawing("Docs/b.drawing", background: .black)
        let outcomes = try s.suite().record(options: RenderOptions(), onlyFailing: .default)
        let recorded = outcomes.compactMap { if case .recorded(let url) = $0 { return url.relativePath } else { return nil } }
        #expect(recorded == ["Goldens/b.png"])
        #expect(try s.bytes("Goldens/a.png") == untouched)
        #expect(try s.suite().check().failures.isEmpty)
    }

    @Test func aMistypedOrEmptyDocumentsFolderIsAnErrorAndTouchesNothing() throws {
        try s.drawing("Docs/x.drawing")
        try s.record()
        try s.makeFolder("Empty")
        for (documents, said) in [("Dcos", "does not exist"), ("Empty", "holds no documents")] {
            let suite = s.suite(documents)
            for attempt in [
                { _ = try suite.orphans() }, { _ = try suite.check() }, { _ = try suite.record(options: RenderOptions()) },
            ] {
                let thrown = error(of: attempt)
                #expect("\(String(describing: thrown))".contains(said), "\(documents): \(String(describing: thrown))")
            }
        }
        #expect(s.exists("Goldens/x.png"), "no golden was deleted")
        #expect(error { _ = try s.suite("Dcos", "Fresh").record(options: RenderOptions()) } != nil)
        #expect(!s.exists("Fresh"), "a typo creates nothing")
    }

    @Test func goldensInTheDocumentsFolderOrAboveItAreRefusedAndTouchNothing() throws {
        try s.drawing("Docs/x.drawing")
        // The user's own pictures beside the documents: not goldens, never to be pruned.
        try s.folder.write(try PNGEncoder.encode(try RasterImage(width: 4, height: 4)), to: "Docs/vacation.png")
        try s.folder.write(try PNGEncoder.encode(try RasterImage(width: 4, height: 4)), to: "Docs/Album/holiday.png")
        try FileManager.default.createSymbolicLink(atPath: s.url("Link").path, withDestinationPath: "Docs")
        let before = try FileManager.default.subpathsOfDirectory(atPath: s.url("Docs").path).sorted()
        for (documents, goldens) in [("Docs", "Docs"), ("Docs", "."), ("Docs/Album", "Docs"), ("Docs", "Link")] {
            let suite = s.suite(documents, goldens)
            for attempt in [
                { _ = try suite.orphans() }, { _ = try suite.check() }, { _ = try suite.record(options: RenderOptions()) },
            ] {
                let thrown = error(of: attempt)
                #expect("\(String(describing: thrown))".contains("a folder of their own"), "\(documents) \(goldens)")
            }
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: s.url("Docs").path).sorted() == before)
        // Goldens inside the documents folder stay allowed (left out of the scan).
        _ = try s.suite("Docs", "Docs/Goldens").record(options: RenderOptions())
        #expect(try s.suite("Docs", "Docs/Goldens").check().failures.isEmpty)
        // A goldens "folder" that is a file is named as such.
        try s.folder.write("not a folder", to: "afile")
        let file = error { _ = try s.suite("Docs", "afile").check() }
        #expect("\(String(describing: file))".contains("is a file, not a folder"))
    }

    /// What `attempt` throws (nil when it does not).
    func error(of attempt: () throws -> Void) -> (any Error)? {
        do { try attempt() } catch { return error }
        return nil
    }

    @Test func aLinkInTheGoldensFolderNeverLeadsAWriteElsewhere() throws {
        try s.drawing("P/Docs/A/x.drawing")
        try s.folder.write("the user's own picture", to: "P/Docs/A/x.png")
        try s.makeFolder("G")
        try FileManager.default.createSymbolicLink(atPath: s.url("G/A").path, withDestinationPath: "../P/Docs/A")
        // A link to a folder elsewhere: no folder is made through it either.
        try s.drawing("P/Docs/C/B/y.drawing")
        try s.makeFolder("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: s.url("G/C").path, withDestinationPath: "../elsewhere")
        let outcomes = try s.suite("P/Docs", "G").record(options: RenderOptions())
        let failures = outcomes.compactMap { if case .failed(let message) = $0 { return message } else { return nil } }
        #expect(failures.count == 2 && failures.allSatisfy { $0.contains("leads outside the goldens folder") }, "\(failures)")
        #expect(try s.text("P/Docs/A/x.png") == "the user's own picture")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.url("elsewhere").path).isEmpty, "nothing made there")
    }

    @Test func hiddenFoldersAndTheGoldensOfUnusableDocumentsAreNoOrphans() throws {
        try s.drawing("Docs/a.drawing")
        try s.drawing("Docs/b.drawing")
        try s.record()
        try s.makeFolder("Goldens/.history")
        try FileManager.default.copyItem(at: s.url("Goldens/a.png"), to: s.url("Goldens/.history/a-old.png"))
        // A document that is a symbolic link cannot be verified: said so, and its golden is no orphan.
        try FileManager.default.createSymbolicLink(at: s.url("Docs/linked.drawing"), withDestinationURL: s.url("Docs/b.drawing"))
        try FileManager.default.copyItem(at: s.url("Goldens/b.png"), to: s.url("Goldens/linked.png"))
        let message = try #require(try s.suite().check().messages["linked.drawing"])
        #expect(message.contains("Docs/linked.drawing: is a symbolic link"), "\(message)")
        #expect(try s.suite().orphans().isEmpty)
    }

    @Test func theSameSizeSpelledAnotherWayIsTheSameSize() {
        #expect(OutputSize.share.givesSamePixels(as: .scale(1)))
        #expect(!OutputSize.thumbnail.givesSamePixels(as: .scale(1)))
    }
}
