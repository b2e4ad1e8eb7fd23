import EaselBatch
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// The batch exporter's parts, tested as a library user calls them (no easel process):
/// the scanner, the planner, shards, the manifest with its journal, and the up-to-date key.
@Suite("Batch planning")
struct BatchPlanningTests {
    let folder = TemporaryFolder()

    /// Writes an (unread) document file: the planner and scanner never open documents.
    func touch(_ names: String...) throws {
        for name in names { try folder.write("{}", to: name) }
    }

    @Test func theScannerFindsDocumentsByExtensionOnly() throws {
        try touch(
            "in/a.rwcard", "in/B/c.drawing", "in/old.rwcard.bak", "in/IMAGE", "in/.hidden.rwcard", "in/.cache/x.drawing",
            "in/B/C/d.RWCARD")
        try FileManager.default.createDirectory(at: folder.file("in/pkg.drawing"), withIntermediateDirectories: true)
        try folder.write("{}", to: "in/pkg.drawing/drawing.json")
        try FileManager.default.createSymbolicLink(at: folder.file("in/loop"), withDestinationURL: folder.file("in"))
        #expect(
            DocumentScanner.documents(in: folder.file("in")) == ["B/C/d.RWCARD", "B/c.drawing", "a.rwcard", "pkg.drawing"],
            "hidden files, non-documents and symbolic links to folders are skipped; a package is one document")
        #expect(
            DocumentScanner.documents(in: folder.file("in"), excluding: [folder.file("in/B")]) == ["a.rwcard", "pkg.drawing"])
    }

    @Test func thePlannerMirrorsTheFolderAndKeepsCollidingExtensions() throws {
        try touch("in/x.rwcard", "in/x.drawing", "in/A/y.rwcard")
        let items = BatchPlanner.items(
            inputs: [folder.file("in")], outputFolder: folder.file("out"), options: BatchExportOptions(),
            registry: .standard)
        #expect(items.map(\.key) == ["A/y.rwcard", "x.drawing", "x.rwcard"])
        #expect(items.map(\.output) == ["A/y.png", "x.drawing.png", "x.rwcard.png"])
        #expect(items.map(\.input.lastPathComponent) == ["y.rwcard", "x.drawing", "x.rwcard"])
    }

    @Test func severalInputFoldersAreMirroredSideBySideUnderTheirNames() throws {
        try touch("one/cards/a.rwcard", "two/cards/a.rwcard", "two/b.drawing")
        var options = BatchExportOptions()
        options.render.format = .svg
        let items = BatchPlanner.items(
            inputs: [folder.file("one/cards"), folder.file("two/cards"), folder.file("two")],
            outputFolder: folder.file("out"), options: options, registry: .standard)
        #expect(items.map(\.output) == ["cards/a.svg", "cards-2/a.svg", "two/b.svg", "two/cards/a.svg"])
    }

    @Test func shardsPartitionTheDocumentsStably() throws {
        let keys = (0..<500).map { "folder \($0 % 7)/card-\($0).rwcard" }
        let shards = (1...4).map { Shard(index: $0, count: 4)! }
        for key in keys {
            #expect(shards.filter { $0.contains(key) }.count == 1, "every document is in exactly one shard")
        }
        let sizes = shards.map { shard in keys.filter(shard.contains).count }
        #expect(sizes.allSatisfy { (80...170).contains($0) }, "roughly even: \(sizes)")
        // The partition depends only on the path: the same answer in another process, on
        // another machine (FNV-1a of the UTF-8 path, pinned here).
        #expect(Shard(index: 1, count: 3)!.contains("a.rwcard") && Shard(index: 4, count: 16)!.contains("a.rwcard"))
        #expect(Shard(index: 3, count: 3)!.contains("A/b.drawing") && Shard(index: 14, count: 16)!.contains("A/b.drawing"))
        #expect(Shard(parsing: "3/16") == Shard(index: 3, count: 16))
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/4"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    }

    @Test func theShardOptionLimitsThePlan() throws {
        try touch(contentsOf: (0..<40).map { "in/card-\($0).rwcard" })
        let all = BatchPlanner.items(
            inputs: [folder.file("in")], outputFolder: folder.file("out"), options: BatchExportOptions(), registry: .standard)
        var union: [String] = []
        for k in 1...3 {
            let options = BatchExportOptions(shard: Shard(index: k, count: 3))
            union += BatchPlanner.items(
                inputs: [folder.file("in")], outputFolder: folder.file("out"), options: options, registry: .standard
            ).map(\.key)
        }
        #expect(union.sorted() == all.map(\.key).sorted())
    }

    func touch(contentsOf names: [String]) throws {
        for name in names { try folder.write("{}", to: name) }
    }

    @Test func theManifestRoundTripsAndReplaysItsJournal() throws {
        let url = folder.file("out/.easel-manifest.json")
        try FileManager.default.createDirectory(at: folder.file("out"), withIntermediateDirectories: true)
        let stamp = FileStamp(size: 10, modified: 1_700_000_000_000_000_000, inode: 42)
        var manifest = ExportManifest()
        manifest.entries["a.rwcard"] = ExportManifest.Entry(
            rendererVersion: ExportManifest.rendererVersion, optionsKey: "k",
            document: stamp, images: [.init(name: "IMG", stamp: nil)], outputs: ["a.png"])
        try manifest.save(to: url)
        #expect(ExportManifest.load(from: url).manifest.entries == manifest.entries)

        // A shard's journal line per finished document, and a torn last line from a killed run.
        let later = ExportManifest.Entry(
            rendererVersion: ExportManifest.rendererVersion, optionsKey: "k", document: stamp, images: [],
            outputs: ["b.png"], madeAt: 2)
        let line = try JSONEncoder().encode(ExportManifest.JournalRecord(key: "b.rwcard", entry: later))
        let journal = folder.file("out/" + OutputFolderState.journalName(for: Shard(index: 3, count: 8)))
        try (line + Data("\n{\"key\":\"c.rwc".utf8)).write(to: journal)
        let replayed = OutputFolderState.load(folder.file("out")).manifest
        #expect(Set(replayed.entries.keys) == ["a.rwcard", "b.rwcard"])
        // Folding (no run holds shard 3 of 8's lease) writes the manifest and removes the journal.
        try OutputFolderState.consolidate(folder.file("out"), own: nil)
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(Set(ExportManifest.load(from: url).manifest.entries.keys) == ["a.rwcard", "b.rwcard"])
    }

    @Test func anUnreadableOrForeignManifestMeansRenderEverything() throws {
        let url = try folder.write("not json", to: "m.json")
        let (broken, problem) = ExportManifest.load(from: url)
        #expect(broken.entries.isEmpty && problem?.contains("unreadable") == true)
        try folder.write("{\"version\": 99, \"entries\": {}}", to: "m.json")
        #expect(ExportManifest.load(from: url).problem?.contains("another version") == true)
        #expect(ExportManifest.load(from: folder.file("none.json")).problem == nil)
    }

    @Test func theUpToDateRuleFollowsTheDocumentItsImagesTheOptionsAndTheOutputs() throws {
        let document = try folder.write("{}", to: "docs/a.rwcard")
        try folder.write("png", to: "docs/IMG")
        try folder.write("out", to: "out/a.png")
        let location = DocumentRegistry.standard.location(of: document)!
        let entry = ExportManifest.Entry(
            rendererVersion: ExportManifest.rendererVersion, optionsKey: "k",
            document: FileStamp.of(document.path)!,
            images: [
                .init(name: "IMG", stamp: FileStamp.of(folder.file("docs/IMG").path)),
                .init(name: "MISSING", stamp: nil),
            ],
            outputs: ["a.png"], outputStamps: ["a.png": FileStamp.of(folder.file("out/a.png").path)!])
        let out = folder.file("out")
        #expect(ExportManifest.isUpToDate(entry, location: location, optionsKey: "k", output: "a.png", outputFolder: out))
        #expect(
            !ExportManifest.isUpToDate(entry, location: location, optionsKey: "k", output: "a.rwcard.png", outputFolder: out),
            "the output's name changed (another document took the old one)")
        var unstamped = entry
        unstamped.outputStamps = nil
        #expect(
            !ExportManifest.isUpToDate(unstamped, location: location, optionsKey: "k", output: "a.png", outputFolder: out),
            "no stamps: made again"
        )
        #expect(
            !ExportManifest.isUpToDate(entry, location: location, optionsKey: "other", output: "a.png", outputFolder: out),
            "other options")
        try folder.write("png, changed", to: "docs/IMG")
        #expect(
            !ExportManifest.isUpToDate(entry, location: location, optionsKey: "k", output: "a.png", outputFolder: out),
            "an image changed")
        try folder.write("png", to: "docs/MISSING")
        var refreshed = entry
        refreshed.images[0].stamp = FileStamp.of(folder.file("docs/IMG").path)
        #expect(
            !ExportManifest.isUpToDate(refreshed, location: location, optionsKey: "k", output: "a.png", outputFolder: out),
            "a missing image appeared")
        try FileManager.default.removeItem(at: folder.file("docs/MISSING"))
        #expect(ExportManifest.isUpToDate(refreshed, location: location, optionsKey: "k", output: "a.png", outputFolder: out))
        try FileManager.default.removeItem(at: folder.file("out/a.png"))
        #expect(
            !ExportManifest.isUpToDate(refreshed, location: location, optionsKey: "k", output: "a.png", outputFolder: out),
            "the output is gone")
    }

    @Test func theUpToDateKeyCoversEveryOptionThatChangesBytes() throws {
        let base = BatchExportOptions().outputSettings
        var variants: [OutputSettings] = []
        var settings = base
        settings.render.format = .svg
        variants.append(settings)
        settings = base
        settings.render.size = .width(500)
        variants.append(settings)
        settings = base
        settings.render.background = .white
        variants.append(settings)
        settings = base
        settings.render.imageFilter = .nearest
        variants.append(settings)
        settings = base
        settings.render.png.compressionLevel = 9
        variants.append(settings)
        settings = base
        settings.render.png.filters = .all
        variants.append(settings)
        settings = base
        settings.render.png.colorMode = .rgba
        variants.append(settings)
        let keys = Set(([base] + variants).map(\.key))
        var withThumbnails = base
        withThumbnails.thumbnails = true
        #expect(withThumbnails.key == base.key, "thumbnails are outputs of their own: the main output's key is the same")
        #expect(keys.count == variants.count + 1, "every option changes the key")
        #expect(base.key == BatchExportOptions().outputSettings.key, "and the key is stable")
        #expect(!base.key.isEmpty)
    }
}

/// Output names never collide, in any shard, with or without thumbnails.
@Suite("Batch output names")
struct BatchOutputNameTests {
    let folder = TemporaryFolder()

    func plan(_ options: BatchExportOptions) -> [BatchItem] {
        BatchPlanner.items(inputs: [folder.file("in")], outputFolder: folder.file("out"), options: options, registry: .standard)
    }

    @Test func aThumbnailNeverLandsOnAnotherDocumentsOutput() throws {
        for name in ["x.drawing", "x.thumbnail.drawing", "y.rwcard"] { try folder.write("{}", to: "in/" + name) }
        let items = plan(BatchExportOptions(thumbnails: true))
        let names = items.flatMap { [$0.output, $0.thumbnail!] }
        #expect(Set(names).count == names.count, "\(names)")
        #expect(items.first { $0.key == "y.rwcard" }?.output == "y.png", "documents that collide with nothing keep short names")
    }

    @Test func shardsNameOutputsAsTheWholeListDoes() throws {
        // card1.rwcard and card1.drawing fall in different shards of 2.
        for name in ["card1.rwcard", "card1.drawing", "card2.rwcard"] { try folder.write("{}", to: "in/" + name) }
        #expect(!(Shard(index: 1, count: 2)!.contains("card1.rwcard")) && Shard(index: 1, count: 2)!.contains("card1.drawing"))
        let whole = plan(BatchExportOptions())
        let sharded = (1...2).flatMap { plan(BatchExportOptions(shard: Shard(index: $0, count: 2))) }
        #expect(Set(sharded.map(\.output)) == Set(whole.map(\.output)))
        #expect(Set(sharded.map(\.output)).count == sharded.count, "no two shards write the same file")
        #expect(Set(whole.map(\.output)) == ["card1.rwcard.png", "card1.drawing.png", "card2.png"])
    }

    @Test func entriesNamedLikeDocumentsThatCannotBeExportedAreListed() throws {
        try folder.write("{}", to: "in/real.rwcard")
        try FileManager.default.createSymbolicLink(
            at: folder.file("in/link.rwcard"), withDestinationURL: folder.file("in/real.rwcard"))
        #expect(mkfifo(folder.file("in/pipe.drawing").path, 0o644) == 0)
        // A name that is not UTF-8: bytes 0xFF 0xFE then ".rwcard".
        var raw = Array(folder.file("in").path.utf8) + Array("/bad-".utf8) + [0xFF, 0xFE] + Array(".rwcard".utf8) + [0]
        let fd = raw.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        let entries = DocumentScanner.scan(folder.file("in"))
        #expect(entries.map(\.relativePath) == ["bad-\\xFF\\xFE.rwcard", "link.rwcard", "pipe.drawing", "real.rwcard"])
        #expect(entries.map { $0.problem == nil } == [false, false, false, true])
        #expect(entries[0].problem?.contains("not valid UTF-8") == true)
        #expect(entries[1].problem?.contains("symbolic link") == true)
        #expect(entries[2].problem?.contains("not a regular file") == true)
    }
}
