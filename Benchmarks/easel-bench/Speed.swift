import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import Foundation

extension Results {
    /// Issue 17's goals, each measured in this run.
    struct Speed: Codable {
        var folderCards: Int
        /// A folder of typical cards with --jobs 1, per card: one sync at the end, and a flush per output.
        var folderMillisecondsPerCard: Double, folderMillisecondsPerCardSyncEach: Double
        /// One card as a process, and the resvg CLI on the same card as SVG.
        var easelCardProcess: Timing, resvgCardProcess: Timing?
        /// A drawing of 1,000 shapes as a process, and resvg on its SVG.
        var easelShapesProcess: Timing, resvgShapesProcess: Timing?
        /// What bounds the 1,000-shape ratio: cairo rasterising that drawing in the C program,
        /// on one core and in strips on all of them (as Easel draws it), and `easel export` of
        /// an empty 16x16 drawing as a process (its start, arguments, libraries and write,
        /// with nothing to draw).
        var cShapesRasterise: Timing, cShapesRasteriseAllCores: Timing, easelEmptyProcess: Timing
        /// Easel rasterising the same drawing in this process, on all cores (against the C
        /// program's strips: what Easel adds to cairo's own work), and encoding its pixels.
        var easelShapesRasterise: Timing, easelShapesEncode: Timing
        /// The 1,000 shapes drawn and encoded band by band in process, as an export does.
        var easelShapesBanded: Timing
        /// One 2600x4000 export (--scale 2) as a process on one core and on all.
        var bigOneCore: Timing, bigAllCores: Timing
        /// The typical card's bytes: Easel's default encoder and zlib level 1 (libpng, UP).
        var easelBytes: Int, zlibLevel1Bytes: Int
    }
}

extension Benchmarks {
    /// resvg, installed into the bench venv by `make bench` (or on PATH).
    func resvg() -> URL? {
        let venv = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".venv-bench/bin/resvg")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        return which("resvg")
    }

    /// 8. The speed goals: a folder per card, a card and a 1,000-shape drawing against resvg
    /// as processes, a big export on one core against all, bytes against zlib level 1.
    func speed() throws -> Results.Speed {
        let easel = binaries.appendingPathComponent("easel")
        // Processes in turn with their peer, three times the usual runs: a process's time on
        // this machine varies by a third from run to run.
        let runs = max(3, scale.iterations * 3)
        // A folder of typical cards, one job: the default (one sync at the end) and a flush per output.
        let count = scale.smoke ? 6 : 100
        let folder = try inputs.cardFolder(count)
        func perCard(_ extra: [String]) throws -> Double {
            let out = inputs.folder.appendingPathComponent("speed-out")
            try? FileManager.default.removeItem(at: out)
            let total = try milliseconds {
                _ = try run(easel, ["export", folder.path, "--out", out.path, "--jobs", "1", "--quiet"] + extra)
            }
            return total / Double(count)
        }
        let deferred = try perCard([]), each = try perCard(["--sync-each-output"])

        // One typical card, and a drawing of 1,000 shapes, as processes against resvg.
        let card = try inputs.save(inputs.typicalCard(), as: "speed-card")
        let shapes = try inputs.save(inputs.shapes(1000), as: "speed-shapes")
        let peer = resvg()
        func process(_ document: URL) throws -> (easel: Timing, resvg: Timing?) {
            let png = inputs.folder.appendingPathComponent("speed.png").path
            let exportDocument = { _ = try run(easel, ["export", document.path, "--out", png]) }
            guard let peer else { return (try measure(runs: runs, exportDocument), nil) }
            let svg = inputs.folder.appendingPathComponent("speed.svg")
            try DocumentRenderer.export(try DocumentRegistry.standard.open(document), options: RenderOptions(format: .svg))
                .write(to: svg.path)
            let peerPNG = inputs.folder.appendingPathComponent("speed-resvg.png").path
            // In turn, so that the machine's changes of speed fall on both.
            let (easelTime, resvgTime) = try measureInTurn(runs: runs, exportDocument) { _ = try run(peer, [svg.path, peerPNG]) }
            return (easelTime, resvgTime)
        }
        let cardTimes = try process(card), shapeTimes = try process(shapes)

        // The floor under the 1,000-shape export: cairo's own rasterising (the C program, on
        // the same scene, on one core and on all) and a process that exports nothing.
        let shapesScript = inputs.folder.appendingPathComponent("speed-shapes.replay")
        let shapesScene = try DocumentRenderer.scene(for: try DocumentRegistry.standard.open(shapes))
        try SceneReplayScript.write(shapesScene).write(to: shapesScript, atomically: true, encoding: .utf8)
        let cShapes = try runC(script: shapesScript, width: 1300, height: 2000, level: 1, filter: "up", color: "rgb")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let cShapesAllCores = try runC(
            script: shapesScript, width: 1300, height: 2000, level: 1, filter: "up", color: "rgb", threads: cores)
        let easelShapes = try measure(runs: max(runs, scale.iterations)) {
            _ = try CairoSceneRenderer.rasterize(shapesScene, pixelWidth: 1300, pixelHeight: 2000)
        }
        let shapesImage = try CairoSceneRenderer.rasterize(shapesScene, pixelWidth: 1300, pixelHeight: 2000)
        let easelShapesEncode = try measure(runs: max(runs, scale.iterations)) { _ = try PNGEncoder.encode(shapesImage) }
        // What an export does instead, in process: draw and deflate band by band.
        let easelShapesBanded = try measure(runs: max(runs, scale.iterations)) {
            _ = try DocumentRenderer.export(shapesScene, options: RenderOptions())
        }
        let nothing = Drawing(canvasSize: Size(width: 16, height: 16), background: .white, graphics: [])
        let empty = try inputs.save(nothing, as: "speed-empty")
        let emptyPNG = inputs.folder.appendingPathComponent("speed-empty.png").path
        let emptyProcess = try measure(runs: runs) { _ = try run(easel, ["export", empty.path, "--out", emptyPNG]) }

        // One 2600x4000 export: one core against all of them.
        let big = inputs.folder.appendingPathComponent("speed-big.png").path
        let (bigOne, bigAll) = try measureInTurn(
            runs: runs,
            { _ = try run(easel, ["export", card.path, "--out", big, "--scale", "2"], environment: ["EASEL_THREADS": "1"]) },
            { _ = try run(easel, ["export", card.path, "--out", big, "--scale", "2"]) })

        // Bytes against zlib level 1 (libpng, UP filter, through the C program).
        let scene = try DocumentRenderer.scene(for: try DocumentRegistry.standard.open(card))
        let script = inputs.folder.appendingPathComponent("speed.replay")
        try SceneReplayScript.write(scene).write(to: script, atomically: true, encoding: .utf8)
        let zlib = try runC(script: script, width: 1300, height: 2000, level: 1, filter: "up", color: "rgb")
        let easelBytes = try DocumentRenderer.export(try DocumentRegistry.standard.open(card)).bytes.count

        return Results.Speed(
            folderCards: count, folderMillisecondsPerCard: deferred, folderMillisecondsPerCardSyncEach: each,
            easelCardProcess: cardTimes.easel, resvgCardProcess: cardTimes.resvg, easelShapesProcess: shapeTimes.easel,
            resvgShapesProcess: shapeTimes.resvg, cShapesRasterise: cShapes.rasterize,
            cShapesRasteriseAllCores: cShapesAllCores.rasterize, easelEmptyProcess: emptyProcess,
            easelShapesRasterise: easelShapes, easelShapesEncode: easelShapesEncode, easelShapesBanded: easelShapesBanded,
            bigOneCore: bigOne, bigAllCores: bigAll, easelBytes: easelBytes,
            zlibLevel1Bytes: zlib.bytes)
    }
}
