import EaselBatch
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// `ExportWatch` on a thread of its own, exporting as `easel export --watch` does, stopped
/// by its flag: what the test waits for is always a state (a file, a count), never a time.
final class RunningWatch: Sendable {
    private let stop = CancellationFlag()
    private let ending = Locked<Result<ExportWatch.Ending, any Error>?>(nil)
    private let watching = Locked(false)
    private let exportCount = Locked(0)

    /// Watches `inputs` (leaving out `ignoring`) and runs `export` after each change.
    init(_ inputs: [URL], ignoring: [URL], export: @escaping @Sendable () -> Void) {
        let (stop, ending, watching, exportCount) = (stop, ending, watching, exportCount)
        Thread {
            let result = Result {
                try ExportWatch.run(
                    inputs: inputs, ignoring: ignoring.map(\.path), stop: stop, warn: { _ in },
                    started: { _ in watching.withLock { $0 = true } }
                ) {
                    export()
                    exportCount.withLock { $0 += 1 }
                    return true
                }
            }
            ending.withLock { $0 = result }
        }.start()
    }

    /// A watch never left running by a test that failed half way.
    deinit { stop.cancel() }

    /// How many exports the watch has run.
    var exports: Int { exportCount.withLock { $0 } }

    /// Waits until the watch has set up its watches.
    func started() async -> Bool { await eventually { watching.withLock { $0 } } }

    /// Sets the flag and waits for the watch to end; returns how it ended.
    func finish() async throws -> ExportWatch.Ending? {
        stop.cancel()
        guard await eventually({ ending.withLock { $0 } != nil }) else { return nil }
        return try ending.withLock { $0 }?.get()
    }
}

/// The watch loop behind `easel export --watch`, run in process: what it watches, that it
/// exports again after each change, follows new and replaced folders, and stops when told.
@Suite("A watch exports again as documents and their images change")
struct ExportWatchTests {
    let s = ExportScratch()

    /// Exports `document` to `output`, as a single `easel export` does (a failure is left for the next change).
    func exportOne(_ document: String, to output: String) -> @Sendable () -> Void {
        let (document, output) = (s.url(document), s.url(output).path)
        return { _ = try? DocumentRenderer.export(DocumentRegistry.standard.open(document), writingTo: output) }
    }

    /// Exports folder `input` into `out`, as a folder `easel export` does.
    func exportFolder(_ input: String, to out: String) -> @Sendable () -> Void {
        let (input, out) = (s.url(input), s.url(out))
        return {
            guard let exporter = try? BatchExporter(inputs: [input], outputFolder: out, options: BatchExportOptions()) else {
                return
            }
            _ = exporter.run(exporter.plan())
        }
    }

    @Test func aDocumentAndItsImageAreExportedAgainAsTheyChange() async throws {
        try s.png("photo.png", color: .white)
        let image = Graphic(
            kind: .image(file: "photo.png"),
            transform: GraphicTransform(center: Point(x: 20, y: 10), size: Size(width: 40, height: 20)))
        try s.drawing("d.drawing", 40, 20, background: .green, graphics: [image])
        let export = exportOne("d.drawing", to: "d.png")
        export()
        let watch = RunningWatch([s.url("d.drawing")], ignoring: [s.url("d.png")], export: export)
        #expect(await watch.started())
        try s.drawing("d.drawing", 40, 20, background: .red, graphics: [image])
        #expect(await eventually { (try? s.image("d.png"))?.pixel(x: 0, y: 0).r == 255 }, "the document changed")
        try s.png("photo.png", color: .blue)
        #expect(await eventually { (try? s.image("d.png"))?.pixel(x: 20, y: 10).b == 255 }, "its image changed")
        #expect(try await watch.finish() == .stopped)
    }

    @Test func aFolderWatchExportsNewDocumentsInFoldersMadeAfterItBegan() async throws {
        try s.drawing("in/a.drawing")
        let export = exportFolder("in", to: "out")
        export()
        #expect(s.exists("out/a.png"))
        let watch = RunningWatch([s.url("in")], ignoring: [s.url("out")], export: export)
        #expect(await watch.started())
        // The new folder is a change: once it has been exported for, the folder is watched.
        try FileManager.default.createDirectory(at: s.url("in/sub/deeper"), withIntermediateDirectories: true)
        #expect(await eventually { watch.exports >= 1 })
        try s.drawing("in/sub/deeper/b.drawing")
        #expect(await eventually { s.exists("out/sub/deeper/b.png") }, "a document in a folder made after the watch began")
        #expect(try await watch.finish() == .stopped)
    }

    /// A sync tool replaces the watched folder: removed, then a new one moved into its
    /// place. What the new folder holds is exported, and a document saved there later too.
    @Test func aReplacedFolderIsFollowed() async throws {
        try s.drawing("in/a.drawing")
        let export = exportFolder("in", to: "out")
        export()
        let watch = RunningWatch([s.url("in")], ignoring: [s.url("out")], export: export)
        #expect(await watch.started())
        try FileManager.default.removeItem(at: s.url("in"))
        try s.drawing("staging/b.drawing")
        try FileManager.default.moveItem(at: s.url("staging"), to: s.url("in"))
        #expect(await eventually { s.exists("out/b.png") }, "what the new folder held")
        try s.drawing("in/c.drawing")
        #expect(await eventually { s.exists("out/c.png") }, "a document saved there later")
        #expect(try await watch.finish() == .stopped)
    }

    @Test func itWatchesADocumentsFolderAndAFolderOfDocumentsRecursively() throws {
        let document = try s.drawing("cards/a.drawing")
        try FileManager.default.createDirectory(at: s.url("drawings"), withIntermediateDirectories: true)
        let roots = ExportWatch.roots(for: [document, s.url("drawings")])
        #expect(roots.map(\.path) == [s.url("cards").standardizedFileURL.path, s.url("drawings").standardizedFileURL.path])
        #expect(roots.map(\.recursive) == [false, true])
    }
}
