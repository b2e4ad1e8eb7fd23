import EaselBatch
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// A folder export, as `BatchExporter` runs it: the right files, in the inputs' layout, with
/// the right pixels; skipping what is up to date and making again exactly what changed.
@Suite("A folder export writes the right files and skips what is up to date")
struct FolderExportTests {
    /// Nested folders of cards with images, a drawing, files that are no documents, and
    /// broken documents of four kinds.
    static func documents(_ s: ExportScratch, cards: Int = 6) throws {
        for i in 0..<cards {
            let folder = i % 2 == 0 ? "Docs" : "Docs/Trips/2025"
            try s.png("\(folder)/IMG-\(i)", width: 60, height: 40)
            let card = Card(
                id: UUID(), backgroundColor: Color(red: 1, green: Double(i) / 10, blue: 0),
                imageElements: [
                    ImageElement(transform: ElementTransform(size: Size(width: 600, height: 400)), imageFilename: "IMG-\(i)")
                ])
            try s.card("\(folder)/card-\(i).rwcard", card)
        }
        try s.drawing("Docs/Art/green.drawing", 100, 50, background: .green)
        try s.folder.write("notes", to: "Docs/notes.txt")
        try s.folder.write("{}", to: "Docs/old.rwcard.bak")
        try s.folder.write("{}", to: "Docs/.hidden.rwcard")
        try s.folder.write("{ not json", to: "Docs/broken/syntax.rwcard")
        try s.folder.write(
            #"{"id":"x","imageElements":"none","textElements":[],"backgroundColor":[1,1,1,1]}"#, to: "Docs/broken/type.rwcard")
        try s.folder.write("", to: "Docs/broken/empty.rwcard")
        try s.folder.write(#"{"version": 9, "canvas": {"size": [1, 1]}, "graphics": []}"#, to: "Docs/broken/future.drawing")
    }

    @Test func theRightFilesWithTheRightPixelsThenOnlyWhatChanged() throws {
        let s = ExportScratch()
        try Self.documents(s)
        let first = try s.export(["Docs"], to: "Out") { $0.render.size = .thumbnail }
        #expect(first.totals.documents == 11 && first.totals.rendered == 7 && first.totals.failed == 4)
        let nested = try s.image("Out/Trips/2025/card-1.png")
        #expect(nested.width == 260 && nested.height == 400)
        #expect(nested.pixel(x: 1, y: 1) == RGBA8(r: 255, g: 25, b: 0, a: 255))
        #expect(nested.pixel(x: 130, y: 200) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(try s.image("Out/Art/green.png").pixel(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        for absent in ["Out/notes.png", "Out/old.rwcard.png", "Out/.hidden.png", "Out/IMG-0.png"] {
            #expect(!s.exists(absent), "\(absent)")
        }
        // Every broken document is in the report with its reason, and names no output.
        #expect(first.error(of: "syntax.rwcard")?.contains("not valid JSON at line 1, column 3") == true)
        #expect(first.error(of: "type.rwcard")?.contains("imageElements: expected an array, found the string \"none\"") == true)
        #expect(first.error(of: "empty.rwcard")?.contains("the file is empty") == true)
        #expect(first.error(of: "future.drawing")?.contains("newer Easel") == true)
        #expect(first.entries.filter { $0.status == .failed }.allSatisfy { $0.output == nil })

        let second = try s.export(["Docs"], to: "Out") { $0.render.size = .thumbnail }
        #expect((second.totals.rendered, second.totals.skipped, second.totals.failed) == (0, 7, 4))

        // A document written again, and an image written in place: exactly those made again.
        try waitForTheNextFileTime(after: s.url("Docs/Trips/2025/IMG-3"))
        try s.folder.write(try s.bytes("Docs/card-2.rwcard"), to: "Docs/card-2.rwcard")
        try Data(try s.bytes("Docs/Trips/2025/IMG-3")).write(to: s.url("Docs/Trips/2025/IMG-3"))
        let third = try s.export(["Docs"], to: "Out") { $0.render.size = .thumbnail }
        #expect(third.names(.rendered) == ["card-2.rwcard", "card-3.rwcard"])

        // Other options are other outputs; force makes everything again.
        #expect(try s.export(["Docs"], to: "Out") { $0.render.size = .scale(0.1) }.totals.rendered == 7)
        let forced = try s.export(["Docs"], to: "Out") {
            $0.render.size = .scale(0.1)
            $0.force = true
        }
        #expect(forced.totals.rendered == 7 && forced.totals.skipped == 0)
    }

    @Test func aMissingImageThatAppearsLaterIsRendered() throws {
        let s = ExportScratch()
        try s.card("Docs/c.rwcard", Card(imageElements: [ImageElement(imageFilename: "LATER")]))
        _ = try s.export(["Docs"]) { $0.render.size = .thumbnail }
        let before = try s.bytes("out/c.png")
        try s.png("Docs/LATER")
        #expect(try s.export(["Docs"]) { $0.render.size = .thumbnail }.totals.rendered == 1)
        #expect(try s.bytes("out/c.png") != before)
    }

    @Test func aRewriteThatPutsTheOldModificationTimeBackIsRenderedAgain() throws {
        let s = ExportScratch()
        try s.card("Docs/c.rwcard", Card(backgroundColor: Color(red: 1, green: 0, blue: 0)))
        _ = try s.export(["Docs"]) { $0.render.size = .thumbnail }
        let before = try s.bytes("out/c.png")
        // The same size, in place (the same inode), and the modification time set back, as
        // `cp -p`, `rsync -t` or a careless tool leaves it: only the status-change time tells.
        let path = s.url("Docs/c.rwcard").path
        var status = stat()
        #expect(stat(path, &status) == 0)
        let text = try s.text("Docs/c.rwcard")
        let red = try #require(text.range(of: #""backgroundColor" : \[\s*1,"#, options: .regularExpression))
        let blue = text.replacingCharacters(in: red, with: text[red].replacingOccurrences(of: "1,", with: "0,"))
        try waitForTheNextFileTime(after: s.url("Docs/c.rwcard"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(blue.utf8))
        try handle.close()
        #expect(try s.bytes("Docs/c.rwcard").count == text.utf8.count, "the same size")
        var times = [status.st_atim, status.st_mtim]  // to the nanosecond
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0 && after.st_mtim.tv_nsec == status.st_mtim.tv_nsec && after.st_ino == status.st_ino)
        #expect(try s.export(["Docs"]) { $0.render.size = .thumbnail }.totals.rendered == 1)
        #expect(try s.bytes("out/c.png") != before)
    }

    @Test func severalInputFoldersCollidingNamesAndThumbnails() throws {
        let s = ExportScratch()
        try s.drawing("A/x.drawing", 1300, 2000)
        try s.card("A/x.rwcard")
        try s.card("B/y.rwcard")
        let report = try s.export(["A", "B"], to: "Out") {
            $0.render.size = .thumbnail
            $0.thumbnails = true
        }
        #expect(report.totals.failed == 0)
        for name in ["A/x.drawing.png", "A/x.rwcard.png", "B/y.png", "B/y.thumbnail.png", "A/x.rwcard.thumbnail.png"] {
            #expect(s.exists("Out/\(name)"), "\(name)")
        }
        let thumbnail = try s.image("Out/B/y.thumbnail.png")
        #expect(thumbnail.width == 260 && thumbnail.height == 400)
    }

    @Test func outputsAreStampedAndThumbnailsAreOutputsOfTheirOwn() throws {
        let s = ExportScratch()
        for index in 0..<3 { try s.drawing("in/card\(index).drawing", 30, 20) }
        _ = try s.export(["in"])
        func inode(_ name: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: s.url(name).path)[.systemFileNumber] as? Int
        }
        let before = try inode("out/card1.png")
        // Asking for thumbnails makes only the thumbnails.
        #expect(try s.export(["in"]) { $0.thumbnails = true }.totals.rendered == 3)
        #expect(s.exists("out/card1.thumbnail.png"))
        #expect(try inode("out/card1.png") == before, "the main output was not written again")
        #expect(try s.export(["in"]) { $0.thumbnails = true }.totals.rendered == 0)
        #expect(try s.export(["in"]).totals.rendered == 0, "and without them")
        // An output changed behind Easel's back is made again.
        try s.folder.write("garbage", to: "out/card1.png")
        #expect(try s.export(["in"]).totals.rendered == 1)
        #expect(try s.image("out/card1.png").width == 30)
        // card2's thumbnail is gone; card1's was not made again with its output just now: both.
        try FileManager.default.removeItem(at: s.url("out/card2.thumbnail.png"))
        #expect(try s.export(["in"]) { $0.thumbnails = true }.totals.rendered == 2)
        #expect(s.exists("out/card2.thumbnail.png"))
    }

    @Test func anOutputWhoseNameChangedIsMadeAgainNotReportedAsUpToDate() throws {
        let s = ExportScratch()
        try s.card("in/x.rwcard")
        _ = try s.export(["in"]) { $0.render.size = .width(20) }
        #expect(s.exists("out/x.png"))
        // A drawing of the same name arrives: both now keep their extensions, and both are written.
        try s.drawing("in/x.drawing", 40, 30)
        #expect(try s.export(["in"]) { $0.render.size = .width(20) }.totals.rendered == 2)
        #expect(s.exists("out/x.rwcard.png") && s.exists("out/x.drawing.png"))
        // It goes again: the card's output is x.png once more, made, not "skipped".
        try FileManager.default.removeItem(at: s.url("in/x.drawing"))
        #expect(try s.export(["in"]) { $0.render.size = .width(20) }.totals.rendered == 1)
        #expect(try s.image("out/x.png").width == 20)
        #expect(try s.export(["in"]) { $0.render.size = .width(20) }.totals.rendered == 0)
    }

    @Test(arguments: [1, 2])
    func anOutputNamedLikeAFolderOfOutputsKeepsItsExtension(jobs: Int) throws {
        let s = ExportScratch()
        try s.drawing("in/b.drawing", 30, 20)
        try s.drawing("in/b.png/c.drawing", 40, 20)
        #expect(try s.export(["in"], jobs: jobs).totals.rendered == 2)
        #expect(try s.image("out/b.drawing.png").width == 30)
        #expect(try s.image("out/b.png/c.png").width == 40)
    }

    @Test func shardsCoverEveryDocumentOnceAndNeverOverwriteEachOther() throws {
        let s = ExportScratch()
        try Self.documents(s, cards: 20)
        var seen: [String] = []
        for k in 1...3 {
            let report = try s.export(["Docs"], to: "Out") {
                $0.render.size = .thumbnail
                $0.shard = Shard(index: k, count: 3)
            }
            seen += report.entries.map(\.input)
            // Each shard's journal, which any later run reads, whatever its shard count.
            #expect(s.exists("Out/.easel-journal-\(k)-of-3.jsonl"))
        }
        #expect(seen.count == 25 && Set(seen).count == 25, "20 cards, a drawing and 4 broken documents: each exactly once")
        // The same names in two shards keep their extensions, as the whole list would.
        try s.drawing("in/card1.drawing", 30, 20)
        try s.card("in/card1.rwcard")
        for k in 1...2 { _ = try s.export(["in"]) { $0.shard = Shard(index: k, count: 2) } }
        #expect(try s.image("out/card1.drawing.png").width == 30)
        #expect(try s.image("out/card1.rwcard.png").width == 1300)
    }

    @Test func failFastStopsStartingDocuments() throws {
        let s = ExportScratch()
        for i in 0..<30 { try s.folder.write("{", to: "Docs/bad-\(String(format: "%02d", i)).rwcard") }
        let totals = try s.export(["Docs"], jobs: 1) { $0.failFast = true }.totals
        #expect(totals.failed == 1 && totals.notStarted == 29)
    }

    /// What SIGTERM does to `easel export` (the CLI sets this flag from its signal handler).
    @Test func aCancelledRunStopsStartingDocumentsAndTheNextRunDoesTheRest() throws {
        let s = ExportScratch()
        for i in 0..<40 { try s.drawing("in/d-\(i).drawing", 30, 20) }
        let cancellation = CancellationFlag()
        let stopped = try s.export(["in"], jobs: 1, cancellation: cancellation, progress: { _, _ in cancellation.cancel() })
        #expect(stopped.interrupted && stopped.totals.rendered == 1 && stopped.totals.notStarted == 39)
        for name in s.pngs(in: "out") { _ = try s.image("out/" + name) }
        let next = try s.export(["in"])
        #expect(next.totals.rendered == 39 && next.totals.skipped == 1, "the manifest remembered the one made")
    }

    static let slowDrawing = SlowDrawing.json

    @Test func aDocumentPastTheTimeoutFailsAndTheOthersAreWritten() throws {
        let s = ExportScratch()
        try s.folder.write(Self.slowDrawing, to: "in/slow.drawing")
        try s.drawing("in/quick.drawing", 30, 20)
        let report = try s.export(["in"]) { $0.timeout = 0.5 }
        #expect(report.error(of: "slow.drawing")?.contains("drawing took longer than the time allowed") == true)
        #expect(try s.image("out/quick.png").width == 30)
        #expect(!s.exists("out/slow.png"))
    }
}

/// A dry run's listing is the plan, in the plan's order, however many documents are checked
/// at once: a script that compares two listings sees only what changed.
@Suite("A dry run lists its plan in order")
struct DryRunOrderTests {
    @Test func theListingFollowsThePlanWhateverTheJobs() throws {
        let s = ExportScratch()
        for i in 0..<48 { try s.drawing(String(format: "in/d-%02d.drawing", i), 8 + Double(i % 5) * 300, 8) }
        let listed = Locked<[String]>([])
        let report = try s.export(["in"], jobs: 4, { $0.dryRun = true }) { _, entry in
            listed.withLock { $0.append(URL(fileURLWithPath: entry.input).lastPathComponent) }
        }
        let planned = report.entries.map { URL(fileURLWithPath: $0.input).lastPathComponent }
        #expect(planned.count == 48 && report.totals.planned == 48)
        #expect(listed.withLock { $0 } == planned)
        #expect(planned == planned.sorted())
        #expect(!s.exists("out"))
    }
}
