import Testing
import Foundation
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselGeometry
import EaselRender
import EaselCairo
import EaselTestSupport

/// Batch export of a generated documents folder through the built binary.
@Suite("Batch export")
struct BatchExportTests {
    /// A folder with nested folders, cards with images, drawings, unrelated files, and
    /// broken documents of several kinds.
    static func makeFolder(_ s: CLIScratch, cards: Int = 6) throws -> URL {
        let root = s.folder.file("Docs")
        let image = try RasterImage(width: 60, height: 40)
        let context = try CairoContext(image: image)
        try context.setSource(Color(red: 0, green: 0, blue: 1))
        try context.paint()
        let png = try PNGEncoder.encode(image)
        for i in 0..<cards {
            let folder = i % 2 == 0 ? "Docs" : "Docs/Trips/2025"
            try s.folder.write(png, to: "\(folder)/IMG-\(i)")
            let card = Card(
                id: UUID(), backgroundColor: Color(red: 1, green: Double(i) / 10, blue: 0),
                imageElements: [
                    ImageElement(transform: ElementTransform(size: Size(width: 600, height: 400)), imageFilename: "IMG-\(i)")
                ])
            try s.folder.write(try CardEncoder.encode(card, file: "c"), to: "\(folder)/card-\(i).rwcard")
        }
        try s.folder.write(
            DrawingEncoder.encode(
                Drawing(canvasSize: Size(width: 100, height: 50), background: Color(red: 0, green: 1, blue: 0))),
            to: "Docs/Art/green.drawing")
        // Not documents: unrelated files, backups, hidden files, images without extension.
        try s.folder.write("notes", to: "Docs/notes.txt")
        try s.folder.write("{}", to: "Docs/old.rwcard.bak")
        try s.folder.write("{}", to: "Docs/.hidden.rwcard")
        // Broken documents.
        try s.folder.write("{ not json", to: "Docs/broken/syntax.rwcard")
        try s.folder.write(
            #"{"id":"x","imageElements":"none","textElements":[],"backgroundColor":[1,1,1,1]}"#, to: "Docs/broken/type.rwcard")
        try s.folder.write("", to: "Docs/broken/empty.rwcard")
        try s.folder.write(#"{"version": 9, "canvas": {"size": [1, 1]}, "graphics": []}"#, to: "Docs/broken/future.drawing")
        return root
    }

    func readReport(_ s: CLIScratch, _ name: String) throws -> BatchReport {
        try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: s.folder.file(name)))
    }

    @Test func aFailureTheRendererReportsNamesTheDocument() throws {
        let s = CLIScratch()
        _ = try Self.makeFolder(s, cards: 1)
        // Too large an output is the renderer's error, which names no file of its own.
        let result = try s.run([
            "export", "Docs/card-0.rwcard", "Docs/Art", "--out", "Out", "--scale", "400", "--report", "r.json",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("easel: error: Docs/card-0.rwcard: an image of"), "\(result.stderr)")
        let report = try readReport(s, "r.json")
        let failed = report.entries.filter { $0.status == .failed }
        #expect(failed.count == 2)
        for entry in failed { #expect(entry.error?.hasPrefix(entry.input + ": ") == true, "\(entry)") }
    }

    @Test func exportsTheRightFilesReportsEveryFailureAndSkipsWhatIsUpToDate() throws {
        let s = CLIScratch()
        _ = try Self.makeFolder(s)
        let first = try s.run([
            "export", "Docs", "--out", "Out", "--preset", "thumbnail", "--report", "first.json", "--jobs", "2",
        ])
        #expect(first.status == 1, "failures make the exit code 1")
        #expect(!first.stderr.contains("\u{1B}"), "no control codes when stderr is not a terminal")
        let written = first.stdout.split(separator: "\n").filter { $0.hasPrefix("wrote ") }
        #expect(written.count == 7)
        // Mirrored layout and the right pixels.
        let nested = try PNGDecoder.decode(Array(Data(contentsOf: s.folder.file("Out/Trips/2025/card-1.png"))))
        #expect(nested.width == 260 && nested.height == 400)
        #expect(nested.pixel(x: 1, y: 1) == RGBA8(r: 255, g: 25, b: 0, a: 255))
        #expect(nested.pixel(x: 130, y: 200) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        let green = try PNGDecoder.decode(Array(Data(contentsOf: s.folder.file("Out/Art/green.png"))))
        #expect(green.pixel(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        for absent in ["Out/notes.png", "Out/old.rwcard.png", "Out/.hidden.png", "Out/IMG-0.png"] {
            #expect(!FileManager.default.fileExists(atPath: s.folder.file(absent).path), "\(absent)")
        }
        // Every broken document is in the report with its reason.
        let firstReport = try readReport(s, "first.json")
        #expect(firstReport.totals.documents == 11 && firstReport.totals.rendered == 7 && firstReport.totals.failed == 4)
        let failed = firstReport.entries.filter { $0.status == .failed }
        let failures = Dictionary(
            uniqueKeysWithValues: failed.map { (URL(fileURLWithPath: $0.input).lastPathComponent, $0.error ?? "") })
        #expect(failures["syntax.rwcard"]?.contains("not valid JSON at line 1, column 3") == true)
        #expect(failures["type.rwcard"]?.contains("imageElements: expected an array, found the string \"none\"") == true)
        #expect(failures["empty.rwcard"]?.contains("the file is empty") == true)
        #expect(failures["future.drawing"]?.contains("newer Easel") == true)
        #expect(
            first.stderr.contains("easel: error: ") && first.stderr.contains("rendered 7, skipped 0, failed 4 of 11 documents"))

        // A second run renders nothing and says so.
        let second = try s.run(["export", "Docs", "--out", "Out", "--preset", "thumbnail", "--report", "second.json"])
        #expect(second.stderr.contains("rendered 0, skipped 7, failed 4 of 11 documents"))
        #expect(try readReport(s, "second.json").totals.rendered == 0)

        // Touching one document, or one image, re-renders exactly the documents using it.
        Thread.sleep(forTimeInterval: 0.01)
        _ = FileManager.default.createFile(
            atPath: s.folder.file("Docs/card-2.rwcard").path, contents: try Data(contentsOf: s.folder.file("Docs/card-2.rwcard")))
        try Data(contentsOf: s.folder.file("Docs/Trips/2025/IMG-3")).write(to: s.folder.file("Docs/Trips/2025/IMG-3"))
        _ = try s.run(["export", "Docs", "--out", "Out", "--preset", "thumbnail", "--report", "third.json"])
        let third = try readReport(s, "third.json")
        #expect(
            Set(third.entries.filter { $0.status == .rendered }.map { URL(fileURLWithPath: $0.input).lastPathComponent }) == [
                "card-2.rwcard", "card-3.rwcard",
            ])

        // Other options mean other outputs: everything is rendered again.
        let rescaled = try s.run(["export", "Docs", "--out", "Out", "--scale", "0.1"])
        #expect(rescaled.stderr.contains("rendered 7, skipped 0"))
        // --force renders everything even when up to date.
        let forced = try s.run(["export", "Docs", "--out", "Out", "--scale", "0.1", "--force"])
        #expect(forced.stderr.contains("rendered 7, skipped 0"))
    }

    @Test func aMissingImageThatAppearsLaterIsRendered() throws {
        let s = CLIScratch()
        let card = Card(imageElements: [ImageElement(imageFilename: "LATER")])
        try s.folder.write(try CardEncoder.encode(card, file: "c"), to: "Docs/c.rwcard")
        try s.ok(["export", "Docs", "--out", "Out", "--preset", "thumbnail"])
        let before = try s.bytes("Out/c.png")
        try s.folder.write(try PNGEncoder.encode(try RasterImage(width: 4, height: 4)), to: "Docs/LATER")
        let again = try s.ok(["export", "Docs", "--out", "Out", "--preset", "thumbnail"])
        #expect(again.stderr.contains("rendered 1"))
        #expect(try s.bytes("Out/c.png") != before)
    }

    @Test func aRewriteThatPutsTheOldModificationTimeBackIsRenderedAgain() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "Docs/c.rwcard", "--background", "red"])
        try s.ok(["export", "Docs", "--out", "Out", "--preset", "thumbnail"])
        let before = try s.bytes("Out/c.png")
        // The same size, in place (the same inode), and the modification time set back, as
        // `cp -p`, `rsync -t` or a careless tool leaves it: only the status-change time tells.
        let path = s.folder.file("Docs/c.rwcard").path
        var status = stat()
        #expect(stat(path, &status) == 0)
        let text = String(decoding: try s.bytes("Docs/c.rwcard"), as: UTF8.self)
        let red = try #require(text.range(of: #""backgroundColor" : \[\s*1,"#, options: .regularExpression))
        let blue = text.replacingCharacters(in: red, with: text[red].replacingOccurrences(of: "1,", with: "0,"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(blue.utf8))
        try handle.close()
        #expect(try s.bytes("Docs/c.rwcard").count == text.utf8.count, "the same size")
        var times = [status.st_atim, status.st_mtim]  // to the nanosecond
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0 && after.st_mtim.tv_nsec == status.st_mtim.tv_nsec && after.st_ino == status.st_ino)
        let again = try s.ok(["export", "Docs", "--out", "Out", "--preset", "thumbnail"])
        #expect(again.stderr.contains("rendered 1"), "\(again.stderr)")
        #expect(try s.bytes("Out/c.png") != before)
    }

    @Test func shardsCoverEveryDocumentExactlyOnce() throws {
        let s = CLIScratch()
        _ = try Self.makeFolder(s, cards: 20)
        var seen: [String] = []
        for k in 1...3 {
            _ = try? s.run([
                "export", "Docs", "--out", "Out", "--shard", "\(k)/3", "--report", "shard-\(k).json", "--preset", "thumbnail",
            ])
            seen += try readReport(s, "shard-\(k).json").entries.map(\.input)
            #expect(FileManager.default.fileExists(atPath: s.folder.file("Out/.easel-manifest-\(k)-of-3.json").path))
        }
        var total = 0
        for k in 1...3 { total += try readReport(s, "shard-\(k).json").totals.documents }
        #expect(
            seen.count == 25 && Set(seen).count == 25 && total == 25,
            "20 cards, a drawing and 4 broken documents: each exactly once")
        #expect(try s.run(["export", "Docs", "--out", "Out", "--shard", "4/3"]).status == 64)
    }

    @Test func failFastStopsStartingDocuments() throws {
        let s = CLIScratch()
        for i in 0..<30 { try s.folder.write("{", to: "Docs/bad-\(String(format: "%02d", i)).rwcard") }
        let result = try s.run(["export", "Docs", "--out", "Out", "--fail-fast", "--jobs", "1", "--report", "r.json"])
        #expect(result.status == 1)
        let totals = try readReport(s, "r.json").totals
        #expect(totals.failed == 1 && totals.notStarted == 29)
    }

    @Test func nothingIsWrittenOutsideTheOutputFolder() throws {
        let s = CLIScratch()
        _ = try Self.makeFolder(s, cards: 2)
        let outside = TemporaryFolder("easel-outside")
        try FileManager.default.createDirectory(at: s.folder.file("Out"), withIntermediateDirectories: true)
        // A symbolic link planted in the output folder where a subfolder would go.
        try FileManager.default.createSymbolicLink(atPath: s.folder.file("Out/Art").path, withDestinationPath: outside.path)
        let result = try s.run(["export", "Docs", "--out", "Out", "--report", "r.json"])
        #expect(result.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing written through the link")
        let art = try readReport(s, "r.json").entries.first { $0.input.hasSuffix("green.drawing") }
        #expect(art?.status == .failed && art?.error?.contains("leads outside the output folder") == true)
    }

    @Test func theOutputFolderMayNotBeInsideAnInputUnlessExcluded() throws {
        let s = CLIScratch()
        _ = try Self.makeFolder(s, cards: 2)
        let refused = try s.run(["export", "Docs", "--out", "Docs/png"])
        #expect(refused.status == 64 && refused.stderr.contains("--exclude"))
        let excluded = try s.run(["export", "Docs", "--out", "Docs/png", "--exclude", "Docs/png", "--report", "r.json"])
        #expect(excluded.stderr.contains("of 7 documents"))
        let rerun = try s.run(["export", "Docs", "--out", "Docs/png", "--exclude", "Docs/png"])
        #expect(rerun.stderr.contains("rendered 0"), "its own outputs are not scanned as inputs")
    }

    @Test func severalInputFoldersAndCollidingNamesAndThumbnails() throws {
        let s = CLIScratch()
        try s.folder.write(DrawingEncoder.encode(Drawing(canvasSize: Size(width: 1300, height: 2000))), to: "A/x.drawing")
        try s.folder.write(try CardEncoder.encode(Card(), file: "c"), to: "A/x.rwcard")
        try s.folder.write(try CardEncoder.encode(Card(), file: "c"), to: "B/y.rwcard")
        try s.ok(["export", "A", "B", "--out", "Out", "--thumbnails", "--preset", "thumbnail"])
        for name in ["A/x.drawing.png", "A/x.rwcard.png", "B/y.png", "B/y.thumbnail.png", "A/x.rwcard.thumbnail.png"] {
            #expect(FileManager.default.fileExists(atPath: s.folder.file("Out/\(name)").path), "\(name)")
        }
        let thumbnail = try PNGDecoder.decode(Array(Data(contentsOf: s.folder.file("Out/B/y.thumbnail.png"))))
        #expect(thumbnail.width == 260 && thumbnail.height == 400)
    }

    @Test func sigtermStopsCleanlyAndTheNextRunFinishes() throws {
        let s = CLIScratch()
        _ = try Self.makeFolder(s, cards: 0)
        let card = try CardEncoder.encode(Card(textElements: [TextElement(text: "slow enough")]), file: "c")
        for i in 0..<400 { try s.folder.write(card, to: "Many/c-\(i).rwcard") }
        let process = Process()
        process.executableURL = s.easel
        process.arguments = ["export", "Many", "--out", "Out", "--jobs", "1", "--report", "r.json"]
        process.currentDirectoryURL = s.folder.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Stopped once it is under way (its first output written), however slowly it starts.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline,
            !((try? FileManager.default.contentsOfDirectory(atPath: s.folder.file("Out").path)) ?? []).contains(where: {
                $0.hasSuffix(".png")
            })
        {
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        let stopped = try readReport(s, "r.json")
        #expect(stopped.interrupted && stopped.totals.notStarted > 0)
        // No half-written outputs: every PNG present decodes.
        for name in try FileManager.default.contentsOfDirectory(atPath: s.folder.file("Out").path) where name.hasSuffix(".png") {
            _ = try PNGDecoder.decode(Array(Data(contentsOf: s.folder.file("Out/\(name)"))))
        }
        let next = try s.ok(["export", "Many", "--out", "Out", "--jobs", "2", "--report", "r2.json"])
        let resumed = try readReport(s, "r2.json")
        #expect(resumed.totals.rendered == stopped.totals.notStarted, "\(next.stderr)")
        #expect(resumed.totals.rendered + resumed.totals.skipped == 400)
    }
}

@Suite("Batch progress on a terminal")
struct BatchProgressTerminalTests {
    /// `script` (util-linux, on every Debian) runs the export on a pseudo-terminal.
    @Test func aTerminalGetsOneLiveLine() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { return }
        let s = CLIScratch()
        let card = try CardEncoder.encode(Card(), file: "c")
        for i in 0..<30 { try s.folder.write(card, to: "Docs/c-\(i).rwcard") }
        let command = "cd '\(s.folder.path)' && '\(s.easel.path)' export Docs --out Out --preset thumbnail"
        let result = try ProcessRunner.run(script, ["-qefc", command, "/dev/null"], environment: s.environment)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\r\u{1B}[K[30/30]"), "the live line is redrawn in place")
        #expect(result.stdout.contains("rendered 30, skipped 0, failed 0 of 30 documents"))
    }
}
