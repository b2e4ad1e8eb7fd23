import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// Nothing silently lost in a batch, and nothing a document holds can take over a terminal.
@Suite("A batch reports every document it cannot export, and no document takes over a terminal")
struct BatchFailureReportingTests {
    @Test func entriesThatCannotBeExportedAreReportedWithTheirReason() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("in/link.drawing"), withDestinationURL: s.folder.file("in/a.drawing"))
        #expect(mkfifo(s.folder.file("in/pipe.rwcard").path, 0o644) == 0)
        let result = try s.run(["export", "in", "--out", "out", "--report", "report.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("link.drawing: is a symbolic link"), "\(result.stderr)")
        #expect(result.stderr.contains("pipe.rwcard: is not a regular file"))
        #expect(result.stderr.contains("rendered 1, skipped 0, failed 2 of 3 documents"))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: s.folder.file("report.json"))) as! [String: Any]
        let entries = report["entries"] as! [[String: Any]]
        #expect(entries.count == 3)
        #expect(
            entries.filter { $0["status"] as? String == "failed" }.allSatisfy { $0["output"] == nil },
            "a failed entry names no output that was never written")
    }

    @Test func theSummaryCountsDocumentsWithWarningsAndVerboseListsThem() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        try s.ok(["new", "card", "in/b.rwcard"])
        try s.ok(["add", "in/b.rwcard", "text", "Hi", "--font", "Wingdings"])
        let quiet = try s.ok(["export", "in", "--out", "out", "--report", "report.json"])
        #expect(quiet.stderr.contains("rendered 2 (1 with warnings; --verbose lists them"), "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("Wingdings"), "not listed without --verbose")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: s.folder.file("report.json"))) as! [String: Any]
        #expect((report["totals"] as! [String: Any])["withWarnings"] as? Int == 1)
        let verbose = try s.ok(["export", "in", "--out", "out2", "--verbose"])
        #expect(verbose.stderr.contains("warning:") && verbose.stderr.contains("Wingdings"), "\(verbose.stderr)")
    }

    @Test func theSameFileNamesInTwoShardsNeverOverwriteEachOther() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/card1.drawing", "--size", "30x20"])
        try s.ok(["new", "card", "in/card1.rwcard"])
        try s.ok(["export", "in", "--out", "out", "--shard", "1/2"])
        try s.ok(["export", "in", "--out", "out", "--shard", "2/2"])
        #expect(try s.image("out/card1.drawing.png").width == 30)
        #expect(try s.image("out/card1.rwcard.png").width == 1300)
    }

    @Test func anOutputFolderThatCannotBeWrittenFailsOnceAndSaysWhy() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        for name in ["a", "b", "c"] { try s.ok(["new", "drawing", "in/\(name).drawing", "--size", "20x20"]) }
        try s.folder.write("a file, not a folder", to: "blocker")
        let result = try s.run(["export", "in", "--out", "blocker/out"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot create the output folder \(s.folder.file("blocker/out").path) (Not a directory)"))
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func aFolderNamedLikeACardSaysWhatItIsAndTheCardsInsideItAreExported() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in/x.rwcard"), withIntermediateDirectories: true)
        // The app looks inside every folder for cards, whatever the folder's name.
        try s.ok(["new", "card", "in/x.rwcard/inner.rwcard"])
        let result = try s.run(["export", "in", "--out", "out"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("x.rwcard: is a folder, not a rwcard file"), "\(result.stderr)")
        #expect(result.stderr.contains("rendered 1, skipped 0, failed 1 of 2 documents"), "\(result.stderr)")
        #expect(try s.image("out/x.rwcard/inner.png").width == 1300)
        // A drawing package is a folder by design: one document, not a folder to search.
        try FileManager.default.createDirectory(at: s.folder.file("pkg"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "pkg/p.drawing", "--size", "20x10"])
        try FileManager.default.createDirectory(at: s.folder.file("pkg/q.drawing"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: s.folder.file("pkg/p.drawing"), to: s.folder.file("pkg/q.drawing/\(Drawing.packageDocumentName)"))
        try s.ok(["export", "pkg", "--out", "pkg-out"])
        #expect(try s.image("pkg-out/q.png").width == 20)
    }

    @Test func validateReportsWhatAFolderExportCannotExport() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in/x.rwcard"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "in/ok.rwcard"])
        try s.ok(["new", "card", "in/x.rwcard/inner.rwcard"])
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("in/link.rwcard"), withDestinationURL: s.folder.file("in/ok.rwcard"))
        #expect(mkfifo(s.folder.file("in/pipe.rwcard").path, 0o644) == 0)
        let result = try s.run(["validate", "in"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        for (name, reason) in [
            ("link.rwcard", "is a symbolic link"), ("pipe.rwcard", "is not a regular file"), ("x.rwcard", "is a folder"),
        ] {
            #expect(result.stdout.contains("error: in/\(name): \(reason)"), "\(name): \(result.stdout)")
        }
        #expect(result.stdout.contains("ok in/ok.rwcard") && result.stdout.contains("ok in/x.rwcard/inner.rwcard"))
        #expect(result.stderr.contains("5 documents checked: 2 ok, 0 with warnings, 3 invalid"), "\(result.stderr)")
    }

    @Test func controlCharactersInADocumentAreEscapedInHumanOutput() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        var card = try #require(try DocumentRegistry.standard.open(s.folder.file("c.rwcard")).document as? Card)
        let hostile = "Hi\u{1B}]0;pwned\u{07}\u{1B}[2J\rforged: ok\nline"
        card.textElements = [TextElement(text: hostile, textFont: "Font\u{1B}[31m")]
        card.imageElements = [ImageElement(imageFilename: "IMG\nfake warning")]
        try DocumentRegistry.standard.save(card, to: s.folder.file("c.rwcard"))
        for arguments in [["info", "c.rwcard"], ["validate", "c.rwcard"], ["export", "c.rwcard", "--out", "c.png"]] {
            let result = try s.run(arguments)
            for output in [result.stdout, result.stderr] {
                let controls = output.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
                #expect(controls.isEmpty, "\(arguments): \(output.debugDescription)")
            }
            let lines = (result.stdout + result.stderr).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("forged") || $0.hasPrefix("line") || $0.hasPrefix("fake") }, "no forged lines")
        }
        #expect(try s.ok(["info", "c.rwcard"]).stdout.contains("\\e]0;pwned\\x07\\e[2J\\rforged: ok\\nline"))
        // JSON stays exact.
        let json = try s.ok(["info", "c.rwcard", "--json"]).stdout
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        #expect((decoded["elements"] as! [[String: Any]]).contains { ($0["text"] as? String) == hostile })
    }

    @Test func anOutputWhoseNameChangedIsMadeAgainNotReportedAsUpToDate() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "in/x.rwcard"])
        try s.ok(["export", "in", "--out", "out", "--width", "20"])
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out/x.png").path))
        // A drawing of the same name arrives: both now keep their extensions, and both are written.
        try s.ok(["new", "drawing", "in/x.drawing", "--size", "40x30"])
        let both = try s.ok(["export", "in", "--out", "out", "--width", "20", "--report", "r.json"])
        #expect(both.stderr.contains("rendered 2,"), "\(both.stderr)")
        for name in ["out/x.rwcard.png", "out/x.drawing.png"] {
            #expect(FileManager.default.fileExists(atPath: s.folder.file(name).path), "\(name) exists as reported")
        }
        // It goes again: the card's output is x.png once more, made, not "skipped".
        try FileManager.default.removeItem(at: s.folder.file("in/x.drawing"))
        let alone = try s.ok(["export", "in", "--out", "out", "--width", "20"])
        #expect(alone.stderr.contains("rendered 1,"), "\(alone.stderr)")
        #expect(try s.image("out/x.png").width == 20)
        #expect(try s.ok(["export", "in", "--out", "out", "--width", "20"]).stderr.contains("nothing to do"))
    }

    @Test func aRefusedThumbnailLeavesTheOutputUnwrittenToo() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "in/c.rwcard"])
        try s.folder.write("the user's notes", to: "out/c.thumbnail.png")
        // A document that fails in a subfolder leaves no empty folder behind, thumbnails or not.
        try FileManager.default.createDirectory(at: s.folder.file("in/sub"), withIntermediateDirectories: true)
        try s.folder.write("{not json", to: "in/sub/broken.rwcard")
        let result = try s.run(["export", "in", "--out", "out", "--width", "20", "--thumbnails"])
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("out/sub").path), "no empty folder for a failure")
        #expect(result.stderr.contains("nothing was written"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("out/c.png").path), "as it says: nothing")
        #expect(try String(contentsOf: s.folder.file("out/c.thumbnail.png"), encoding: .utf8) == "the user's notes")
    }

    @Test func anOutputNamedLikeAFolderOfOutputsKeepsItsExtension() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in/b.png"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/b.drawing", "--size", "30x20"])
        try s.ok(["new", "drawing", "in/b.png/c.drawing", "--size", "40x20"])
        for jobs in ["1", "2"] {
            try? FileManager.default.removeItem(at: s.folder.file("out"))
            let result = try s.ok(["export", "in", "--out", "out", "--jobs", jobs])
            #expect(result.stderr.contains("rendered 2,"), "\(result.stderr)")
            #expect(try s.image("out/b.drawing.png").width == 30)
            #expect(try s.image("out/b.png/c.png").width == 40)
        }
    }

    @Test func noOutputIsWrittenAmongAnInputFoldersOwnFiles() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("w/in/in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "w/in/in/photo.drawing", "--size", "30x20"])
        try s.ok(["new", "drawing", "w/in/card.drawing", "--size", "30x20"])
        try s.folder.write("the user's photo", to: "w/in/photo.png")
        // `w` holds `in`: in/in/photo.drawing would be written over in/photo.png. Refused, named.
        let result = try s.run(["export", "w/in", "--out", "w"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("would be inside the input folder"), "\(result.stderr)")
        #expect(try String(contentsOf: s.folder.file("w/in/photo.png"), encoding: .utf8) == "the user's photo")
        #expect(try s.image("w/card.png").width == 30, "the others are exported beside the input folder")
        // An output folder holding the input folder is fine when nothing lands inside it.
        try FileManager.default.createDirectory(at: s.folder.file("proj/cards"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "proj/cards/a.drawing", "--size", "30x20"])
        try s.ok(["export", "proj/cards", "--out", "proj"])
        #expect(try s.image("proj/a.png").width == 30)
    }

    @Test func aReportThatCannotBeWrittenIsRefusedBeforeTheBatch() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        let result = try s.run(["export", "in", "--out", "out", "--report", "nowhere/r.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nowhere/r.json: the report's folder does not exist"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("out").path), "refused before anything was made")
    }

    @Test func aFileOverTheLimitIsNamedAsGiven() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        // Sparse: refused from its size, never read.
        let handle = try FileHandle(forWritingTo: try s.folder.write("", to: "in/h.rwcard"))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        let result = try s.run(["validate", "in"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: in/h.rwcard: the file is"), "as given, not absolute: \(result.stdout)")
    }
}
