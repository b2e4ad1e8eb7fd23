import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import Foundation

extension Results {
    /// Issue 42's goals: cards as the app makes them (photos of 1000x750 saved as PNG, each
    /// card its own), each measured in this run against resvg and against the floor.
    struct RealCards: Codable {
        /// One card exported as a process by Easel, and by resvg from Easel's SVG of it.
        struct Peer: Codable {
            var name: String
            var easel: Timing, resvg: Timing?
            /// resvg's time over Easel's: how many times faster Easel is.
            var speedup: Double? { resvg.map { $0.median / easel.median } }
        }
        var peers: [Peer]
        /// The floor under the typical card: its photos decoded (libpng, CPU time over the
        /// cores), its scene rasterised and encoded by the C program (the fastest encoder,
        /// ISA-L level 1), and a process that exports nothing.
        var floorDecodeCPU: Timing, floorRasterise: Timing, floorEncode: Timing, floorStart: Timing
        var floorMilliseconds: Double
        /// A folder of typical cards with photos of their own.
        var folderCards: Int, folderJobs1CardsPerSecond: Double, folderJobs2CardsPerSecond: Double
        var folderJobs1PeakMiB: Double, folderJobs2PeakMiB: Double
        /// A folder of typical cards drawing from a pool of shared photos (each used by several
        /// cards, so the decoded-image cache keeps them): `--jobs 2`.
        var sharedCards: Int, sharedPhotos: Int, sharedCardsPerSecond: Double, sharedPeakMiB: Double
        /// The typical card exported as PNG, SVG and PDF, each as a process.
        var png: Timing, svg: Timing, pdf: Timing
        /// 100 overlapping shapes, plain and at 50 % opacity: Easel (a process) and resvg on Easel's SVG.
        var plainShapes: Timing, opacityShapes: Timing, resvgPlainShapes: Timing?, resvgOpacityShapes: Timing?
    }
}

extension Benchmarks {
    /// 11. Real cards: the workloads of issue 42, built here, against resvg and the floor.
    func realCards() throws -> Results.RealCards {
        let easel = binaries.appendingPathComponent("easel")
        let real = try RealCardInputs(scratch: inputs.folder, smoke: scale.smoke)
        let folder = real.folder
        // Fifteen runs each: medians of seven moved by a tenth from run to run on this machine.
        let runs = scale.smoke ? 2 : 15
        let peer = resvg()
        let cores = ProcessInfo.processInfo.activeProcessorCount

        // The workloads, each card with photos of its own.
        let typical = try RealCardInputs.save(
            RealCardInputs.typicalCard(photos: try real.photos([1, 2, 3], into: folder)), as: "typical", in: folder)
        let collage = try RealCardInputs.save(
            RealCardInputs.collage(photos: try real.photos(Array(10..<22), into: folder)), as: "collage", in: folder)
        let text = try RealCardInputs.save(RealCardInputs.textCard(), as: "text", in: folder)
        let bigSide = scale.smoke ? (400, 300) : (4000, 3000)
        let bigPNG = try RealCardInputs.save(
            RealCardInputs.bigPhotoCard(photo: try real.photos([40], width: bigSide.0, height: bigSide.1, into: folder)[0]),
            as: "photo-png", in: folder)
        let cjpeg =
            which("cjpeg")
            ?? (FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg")
                ? URL(fileURLWithPath: "/usr/bin/cjpeg") : nil)
        let bigJPEG = try real.jpegPhoto(seed: 40, width: bigSide.0, height: bigSide.1, into: folder, cjpeg: cjpeg).map {
            try RealCardInputs.save(RealCardInputs.bigPhotoCard(photo: $0), as: "photo-jpeg", in: folder)
        }

        // Each card as a process, Easel against resvg reading Easel's own SVG of it (the
        // photos embedded), in turn.
        func versus(_ name: String, _ card: URL) throws -> Results.RealCards.Peer {
            let png = folder.appendingPathComponent("\(card.deletingPathExtension().lastPathComponent).png").path
            let exportCard = { _ = try run(easel, ["export", card.path, "--out", png]) }
            guard let peer else { return .init(name: name, easel: try measure(runs: runs, exportCard), resvg: nil) }
            let svg = folder.appendingPathComponent("\(card.deletingPathExtension().lastPathComponent).svg")
            _ = try run(easel, ["export", card.path, "--out", svg.path])
            let peerPNG = folder.appendingPathComponent("resvg.png").path
            let (e, r) = try measureInTurn(runs: runs, exportCard) { _ = try run(peer, [svg.path, peerPNG]) }
            return .init(name: name, easel: e, resvg: r)
        }
        var peers = [
            try versus("typical card (3 photos, frames, 2 texts)", typical),
            try versus("collage (12 photos, 11 frames)", collage),
            try versus("20 texts: picker fonts, emoji, Arabic, Hebrew", text),
            try versus("one \(bigSide.0)x\(bigSide.1) photo, PNG", bigPNG),
        ]
        if let bigJPEG { peers.append(try versus("one \(bigSide.0)x\(bigSide.1) photo, JPEG", bigJPEG)) }

        // The floor under the typical card, each part measured now.
        let scene = try DocumentRenderer.scene(for: try DocumentRegistry.standard.open(typical))
        let script = folder.appendingPathComponent("typical.replay")
        try SceneReplayScript.write(scene).write(to: script, atomically: true, encoding: .utf8)
        let c = try runC(script: script, width: 1300, height: 2000, level: 1, filter: "fast", color: "rgb", threads: cores)
        let nothing = Drawing(canvasSize: Size(width: 16, height: 16), background: .white, graphics: [])
        let empty = try inputs.save(nothing, as: "real-empty")
        let emptyPNG = inputs.folder.appendingPathComponent("real-empty.png").path
        let start = try measure(runs: runs) { _ = try run(easel, ["export", empty.path, "--out", emptyPNG]) }
        let decode = c.decode ?? Timing([])
        let floor = decode.median / Double(cores) + c.rasterize.median + c.encode.median + start.median

        // A folder of typical cards, each with three photos of its own.
        let count = scale.smoke ? 6 : 1000
        let cards = inputs.folder.appendingPathComponent("real-folder")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        let seeds = (0..<count).map { 1000 + $0 * 3 }
        let names = try real.photos(seeds.flatMap { [$0, $0 + 1, $0 + 2] }, into: cards)
        for index in 0..<count {
            _ = try RealCardInputs.save(
                RealCardInputs.typicalCard(photos: Array(names[index * 3..<index * 3 + 3]), number: index),
                as: String(format: "card-%04d", index), in: cards)
        }
        func exportFolder(_ cards: URL, count: Int, jobs: Int) throws -> (perSecond: Double, peakMiB: Double) {
            let out = inputs.folder.appendingPathComponent("\(cards.lastPathComponent)-out-\(jobs)")
            try? FileManager.default.removeItem(at: out)
            let report = inputs.folder.appendingPathComponent("real-folder-report.json")
            _ = try run(
                easel, ["export", cards.path, "--out", out.path + "/", "--jobs", "\(jobs)", "--quiet", "--report", report.path])
            let totals =
                (try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])?["totals"] as? [String: Any]
            let seconds = (totals?["seconds"] as? Double) ?? 0
            return (seconds > 0 ? Double(count) / seconds : 0, Double((totals?["peakMemoryBytes"] as? Int) ?? 0) / 1_048_576)
        }
        let one = try exportFolder(cards, count: count, jobs: 1), two = try exportFolder(cards, count: count, jobs: 2)

        // Cards sharing a pool of photos, each photo on several cards in turn: the cache keeps
        // them, up to its limit, and the peak must still stay bounded.
        let (sharedCount, poolSize) = scale.smoke ? (6, 4) : (300, 60)
        let shared = inputs.folder.appendingPathComponent("real-shared-folder")
        let pool = try real.photos(Array(seeds.prefix(poolSize)), into: shared)
        for index in 0..<sharedCount {
            let photos = (0..<3).map { pool[(index * 3 + $0 * 7) % pool.count] }
            _ = try RealCardInputs.save(
                RealCardInputs.typicalCard(photos: photos, number: index), as: String(format: "card-%04d", index), in: shared)
        }
        let sharedRun = try exportFolder(shared, count: sharedCount, jobs: 2)

        // The typical card as PNG, SVG and PDF.
        func export(_ format: String) -> () throws -> Void {
            { _ = try run(easel, ["export", typical.path, "--out", folder.appendingPathComponent("vector.\(format)").path]) }
        }
        let (png, svg) = try measureInTurn(runs: runs, export("png"), export("svg"))
        let pdf = try measure(runs: runs, export("pdf"))

        // Opacity: 100 overlapping shapes, plain and at 50 %.
        let shapeCount = scale.smoke ? 10 : 100
        let plain = try inputs.save(RealCardInputs.shapes(shapeCount, opacity: 1), as: "real-plain")
        let faded = try inputs.save(RealCardInputs.shapes(shapeCount, opacity: 0.5), as: "real-faded")
        func drawing(_ url: URL) -> () throws -> Void {
            { _ = try run(easel, ["export", url.path, "--out", url.deletingPathExtension().path + ".png"]) }
        }
        let (plainTime, fadedTime) = try measureInTurn(runs: runs, drawing(plain), drawing(faded))
        var resvgPlain: Timing?, resvgFaded: Timing?
        if let peer {
            for url in [plain, faded] {
                _ = try run(easel, ["export", url.path, "--out", url.deletingPathExtension().path + ".svg"])
            }
            let out = inputs.folder.appendingPathComponent("real-resvg.png").path
            (resvgPlain, resvgFaded) = try measureInTurn(
                runs: runs, { _ = try run(peer, [plain.deletingPathExtension().path + ".svg", out]) },
                { _ = try run(peer, [faded.deletingPathExtension().path + ".svg", out]) })
        }

        return Results.RealCards(
            peers: peers, floorDecodeCPU: decode, floorRasterise: c.rasterize, floorEncode: c.encode, floorStart: start,
            floorMilliseconds: floor, folderCards: count, folderJobs1CardsPerSecond: one.perSecond,
            folderJobs2CardsPerSecond: two.perSecond, folderJobs1PeakMiB: one.peakMiB, folderJobs2PeakMiB: two.peakMiB,
            sharedCards: sharedCount, sharedPhotos: poolSize, sharedCardsPerSecond: sharedRun.perSecond,
            sharedPeakMiB: sharedRun.peakMiB,
            png: png, svg: svg, pdf: pdf, plainShapes: plainTime, opacityShapes: fadedTime, resvgPlainShapes: resvgPlain,
            resvgOpacityShapes: resvgFaded)
    }
}

/// Prints the real cards' goals, each with its ratio in this run.
func printRealCards(_ real: Results.RealCards) {
    func speedup(_ peer: Results.RealCards.Peer?) -> String {
        guard let peer else { return "–" }
        return peer.speedup.map { String(format: $0 >= 1 ? "%.2fx faster" : "%.2fx slower", $0 >= 1 ? $0 : 1 / $0) }
            ?? "resvg not installed"
    }
    func times(_ peer: Results.RealCards.Peer) -> String {
        String(format: "%.0f ms", peer.easel.median) + (peer.resvg.map { String(format: " / %.0f ms", $0.median) } ?? "")
    }
    let typical = real.peers.first
    printTable(
        "11. Real cards: photos of 1000x750 saved as PNG, each card its own, as processes (Easel / resvg on Easel's SVG)",
        ["workload", "Easel / resvg", "Easel is", "goal"],
        real.peers.enumerated().map { index, peer in
            let goal = ["≥ 3.5x faster", "≥ 3.5x faster", "≥ 1.5x faster", "≥ 3x faster", "more than PNG's"][min(index, 4)]
            return [peer.name, times(peer), speedup(peer), goal]
        })
    let resvgRatio: (Timing?, Timing?) -> String = { a, b in
        guard let a, let b else { return "resvg not installed" }
        return ratio(a.median, b.median) + String(format: " (%.0f / %.0f ms)", a.median, b.median)
    }
    printTable(
        "11b. Real cards: the floor, a folder, vector exports, opacity", ["goal", "measured", "target"],
        [
            [
                "typical card against the floor (photos decoded on the cores + C rasterise + fastest encode + process start)",
                (typical.map { ratio($0.easel.median, real.floorMilliseconds) } ?? "–")
                    + String(
                        format: " (%.0f ms; floor %.0f = %.1f/%d + %.1f + %.1f + %.1f)", typical?.easel.median ?? 0,
                        real.floorMilliseconds, real.floorDecodeCPU.median, ProcessInfo.processInfo.activeProcessorCount,
                        real.floorRasterise.median, real.floorEncode.median, real.floorStart.median),
                "≤ 1.4x",
            ],
            [
                "folder of \(real.folderCards) cards, photos of their own: --jobs 2",
                String(
                    format: "%.1f cards/s (%.2fx --jobs 1's %.1f), peak %.0f MiB (--jobs 1: %.0f)",
                    real.folderJobs2CardsPerSecond,
                    real.folderJobs2CardsPerSecond / max(0.001, real.folderJobs1CardsPerSecond), real.folderJobs1CardsPerSecond,
                    real.folderJobs2PeakMiB, real.folderJobs1PeakMiB),
                "≥ 30 cards/s, ≥ 1.7x, ≤ 200 MiB",
            ],
            [
                "folder of \(real.sharedCards) cards sharing \(real.sharedPhotos) photos: --jobs 2",
                String(format: "%.1f cards/s, peak %.0f MiB", real.sharedCardsPerSecond, real.sharedPeakMiB), "≤ 200 MiB",
            ],
            [
                "typical card: SVG / PNG, PDF / PNG",
                ratio(real.svg.median, real.png.median) + ", " + ratio(real.pdf.median, real.png.median)
                    + String(format: " (%.0f, %.0f, %.0f ms)", real.svg.median, real.pdf.median, real.png.median),
                "≤ 2x",
            ],
            [
                "100 shapes at 50 % opacity / plain: Easel",
                ratio(real.opacityShapes.median, real.plainShapes.median)
                    + String(format: " (%.0f / %.0f ms)", real.opacityShapes.median, real.plainShapes.median), "≤ 2x",
            ],
            ["the same, resvg on Easel's SVG", resvgRatio(real.resvgOpacityShapes, real.resvgPlainShapes), "≤ 2x"],
        ])
}
