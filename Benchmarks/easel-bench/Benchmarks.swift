import Foundation
import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo

/// How big a run is: the full benchmark, or a smoke run of a few seconds for CI.
struct Scale {
    var iterations: Int
    var folderCards: Int
    var growthShapes: [Int]
    var pngLevels: [Int]
    var smoke: Bool

    static let full = Scale(
        iterations: 9, folderCards: 500, growthShapes: [100, 1_000, 10_000], pngLevels: [0, 1, 3, 6, 9], smoke: false)
    static let smoke = Scale(iterations: 2, folderCards: 12, growthShapes: [10, 100], pngLevels: [1, 6], smoke: true)
}

/// The results, also written as JSON with --json.
struct Results: Codable {
    struct Limit: Codable {
        var easelRasterize: Timing, easelEncode: Timing, easelWhole: Timing
        var cRasterize: Timing, cEncode: Timing, cWhole: Timing
        var easelBytes: Int, cBytes: Int
        var rasterizeRatio: Double, encodeRatio: Double, wholeRatio: Double
    }
    struct Rsvg: Codable {
        var available: Bool
        var rsvgProcess: Timing?
        var easelProcess: Timing?
        var easelInProcess: Timing?
        var speedup: Double?
    }
    struct Folder: Codable {
        var cards: Int
        var jobs1Seconds: Double, jobs2Seconds: Double
        var jobs1CardsPerSecond: Double, jobs2CardsPerSecond: Double
        var speedup: Double
        var jobs1PeakMiB: Double, jobs2PeakMiB: Double
        var smallFolderCards: Int, smallFolderPeakMiB: Double
    }
    struct Growth: Codable {
        var shapes: [Int: Timing]
        var microsecondsPerShape: [Int: Double]
        var cardScales: [String: Timing]
    }
    struct WorstInput: Codable {
        var input: String
        var seconds: Double
        var peakMiB: Double
        var documents: Int
    }
    struct PNGSetting: Codable {
        var level: Int, filter: String, color: String
        var time: Timing
        var bytes: Int
    }

    var machine: String
    var smoke: Bool
    var limit: Limit?
    var rsvg: Rsvg?
    var folder: Folder?
    var growth: Growth?
    var png: [PNGSetting] = []
    var worst: [WorstInput] = []
    var golden: [GoldenPair] = []
    var speed: Speed?
    var serve: Serve?
    var reading: Reading?
    var realCards: RealCards?
}

struct Benchmarks {
    let inputs: Inputs
    let scale: Scale
    let binaries: URL

    /// 1. Easel against a minimal C program calling cairo, and encoding with the same fast
    /// encoder (UP filter, ISA-L level 1) in one stream on one core.
    func limit() throws -> Results.Limit {
        let url = try inputs.save(inputs.typicalCard(), as: "typical")
        let document = try DocumentRegistry.standard.open(url)
        let scene = try DocumentRenderer.scene(for: document)
        let (width, height) = (1300, 2000)
        var image = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height)
        var easelBytes = 0
        let rasterize = try measure(runs: scale.iterations) {
            image = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height)
        }
        let encode = try measure(runs: scale.iterations) { easelBytes = try PNGEncoder.encode(image).count }
        let output = inputs.folder.appendingPathComponent("typical-easel.png").path
        let whole = try measure(runs: scale.iterations) {
            let document = try DocumentRegistry.standard.open(url)
            try DocumentRenderer.export(document).write(to: output)
        }
        // The same scene, replayed by the C program.
        let script = inputs.folder.appendingPathComponent("typical.replay")
        try SceneReplayScript.write(scene).write(to: script, atomically: true, encoding: .utf8)
        // The C limit with the same fast encoder (UP, ISA-L level 1) Easel uses by default.
        let c = try runC(script: script, width: width, height: height, level: 1, filter: "fast", color: "rgb")
        return Results.Limit(
            easelRasterize: rasterize, easelEncode: encode, easelWhole: whole,
            cRasterize: c.rasterize, cEncode: c.encode, cWhole: c.whole, easelBytes: easelBytes, cBytes: c.bytes,
            rasterizeRatio: rasterize.median / c.rasterize.median, encodeRatio: encode.median / c.encode.median,
            wholeRatio: whole.median / c.whole.median)
    }

    struct CResult: Decodable {
        var rasterize: [Double], encode: [Double], whole: [Double], decode: [Double]?, bytes: Int
    }

    /// The C program's timings of `script` (`decode`: its images decoded by libpng, one after
    /// another, CPU time).
    func runC(script: URL, width: Int, height: Int, level: Int, filter: String, color: String, threads: Int = 1) throws -> (
        rasterize: Timing, encode: Timing, whole: Timing, bytes: Int, decode: Timing?
    ) {
        let output = try run(
            binaries.appendingPathComponent("easel-cairo-reference"),
            [
                script.path, inputs.folder.appendingPathComponent("typical-c.png").path, "\(width)", "\(height)",
                "\(scale.iterations)", "\(level)", filter, color, "\(threads)",
            ])
        let result = try JSONDecoder().decode(CResult.self, from: Data(output.utf8))
        return (
            Timing(result.rasterize), Timing(result.encode), Timing(result.whole), result.bytes, result.decode.map(Timing.init)
        )
    }

    /// 2. rsvg-convert on Easel's own SVG of the same scene, as a process per card.
    func rsvg() throws -> Results.Rsvg {
        guard let rsvg = which("rsvg-convert") else { return Results.Rsvg(available: false) }
        let url = try inputs.save(inputs.typicalCard(), as: "typical")
        let document = try DocumentRegistry.standard.open(url)
        let svg = inputs.folder.appendingPathComponent("typical.svg")
        try DocumentRenderer.export(document, options: RenderOptions(format: .svg)).write(to: svg.path)
        let out = inputs.folder.appendingPathComponent("typical-rsvg.png").path
        let runs = max(3, scale.iterations / 2)
        let rsvgTime = try measure(runs: runs) { _ = try run(rsvg, ["-o", out, svg.path]) }
        let easel = binaries.appendingPathComponent("easel")
        let easelTime = try measure(runs: runs) { _ = try run(easel, ["export", url.path, "--out", out]) }
        let inProcess = try measure(runs: runs) {
            let document = try DocumentRegistry.standard.open(url)
            try DocumentRenderer.export(document).write(to: out)
        }
        return Results.Rsvg(
            available: true, rsvgProcess: rsvgTime, easelProcess: easelTime, easelInProcess: inProcess,
            speedup: rsvgTime.median / easelTime.median)
    }

    /// 3. A folder of cards exported by the easel binary with --jobs 1 and 2.
    func folder() throws -> Results.Folder {
        let cards = try inputs.cardFolder(scale.folderCards)
        let small = try inputs.cardFolder(max(2, scale.folderCards / 5))
        func export(_ folder: URL, jobs: Int) throws -> (seconds: Double, peakMiB: Double) {
            let out = inputs.folder.appendingPathComponent("out-\(folder.lastPathComponent)-\(jobs)")
            try? FileManager.default.removeItem(at: out)
            let report = inputs.folder.appendingPathComponent("report.json")
            _ = try run(
                binaries.appendingPathComponent("easel"),
                ["export", folder.path, "--out", out.path, "--jobs", "\(jobs)", "--quiet", "--report", report.path])
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            let totals = json?["totals"] as? [String: Any]
            return ((totals?["seconds"] as? Double) ?? 0, Double((totals?["peakMemoryBytes"] as? Int) ?? 0) / 1_048_576)
        }
        let one = try export(cards, jobs: 1), two = try export(cards, jobs: 2), few = try export(small, jobs: 2)
        let n = Double(scale.folderCards)
        return Results.Folder(
            cards: scale.folderCards, jobs1Seconds: one.seconds, jobs2Seconds: two.seconds,
            jobs1CardsPerSecond: n / one.seconds, jobs2CardsPerSecond: n / two.seconds, speedup: one.seconds / two.seconds,
            jobs1PeakMiB: one.peakMiB, jobs2PeakMiB: two.peakMiB,
            smallFolderCards: max(2, scale.folderCards / 5), smallFolderPeakMiB: few.peakMiB)
    }

    /// 4. How cost grows with the number of shapes, and with the output scale.
    func growth() throws -> Results.Growth {
        var shapes: [Int: Timing] = [:], perShape: [Int: Double] = [:]
        var previous: (count: Int, milliseconds: Double) = (0, 0)
        for count in [0] + scale.growthShapes {
            let url = try inputs.save(inputs.shapes(count), as: "shapes-\(count)")
            let document = try DocumentRegistry.standard.open(url)
            let time = try measure(runs: scale.iterations) { _ = try DocumentRenderer.export(document) }
            shapes[count] = time
            // The marginal cost of the shapes added since the previous size: constant when
            // the cost is linear in the number of shapes.
            if count > 0 { perShape[count] = (time.median - previous.milliseconds) * 1000 / Double(count - previous.count) }
            previous = (count, time.median)
        }
        let cardsFolder = try inputs.cardFolder(1)
        let cardURL = try FileManager.default.contentsOfDirectory(at: cardsFolder, includingPropertiesForKeys: nil).first {
            $0.pathExtension == "rwcard"
        }!
        let card = try DocumentRegistry.standard.open(cardURL)
        var scales: [String: Timing] = [:]
        for s in [0.2, 1, 2] {
            scales[String(s)] = try measure(runs: scale.iterations) {
                _ = try DocumentRenderer.export(card, options: RenderOptions(size: .scale(s)))
            }
        }
        return Results.Growth(shapes: shapes, microsecondsPerShape: perShape, cardScales: scales)
    }

    /// 5. PNG settings on the typical card: time and bytes.
    func pngSettings() throws -> [Results.PNGSetting] {
        let url = try inputs.save(inputs.typicalCard(), as: "typical")
        let document = try DocumentRegistry.standard.open(url)
        let image = try DocumentRenderer.render(document).image
        let filters: [(String, PNGEncodingOptions.Filters)] =
            scale.smoke
            ? [("up", .up), ("adaptive", .all)]
            : [("none", .none), ("sub", .sub), ("up", .up), ("paeth", .paeth), ("adaptive", .all)]
        var settings: [Results.PNGSetting] = []
        for level in scale.pngLevels {
            for (name, filter) in filters {
                for color in [PNGEncodingOptions.ColorMode.rgb, .rgba] {
                    let options = PNGEncodingOptions(compressionLevel: level, filters: filter, colorMode: color)
                    var bytes = 0
                    let time = try measure(runs: max(2, scale.iterations / 2)) {
                        bytes = try PNGEncoder.encode(image, options: options).count
                    }
                    settings.append(
                        Results.PNGSetting(level: level, filter: name, color: color.rawValue, time: time, bytes: bytes))
                }
            }
        }
        return settings
    }

    // MARK: Processes

    func which(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    struct Failed: Error, CustomStringConvertible { var description: String }

    /// Runs a program to completion and returns its stdout; throws on a non-zero exit.
    /// Spawned with posix_spawn and reaped with waitpid, so that timing a process measures
    /// the process and not a run loop's polling (Foundation's `Process` adds tens of
    /// milliseconds to every run, which would flatter slower peers).
    /// 6. The worst input of each kind within the budgets and limits, each exported alone as
    /// a one-document folder (the report gives the time and the process's peak memory), and
    /// the whole hostile corpus as one folder. The goal, read not asserted: under 2 s and
    /// 300 MB each.
    func worstInputs() throws -> [Results.WorstInput] {
        var cases: [(String, URL)] = []
        func drawingCase(_ name: String, _ graphics: String, canvas: String = "[800,600]") throws {
            let folder = inputs.folder.appendingPathComponent("worst-\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let json = #"{"version":1,"canvas":{"size":\#(canvas),"background":[1,1,1,1]},"graphics":[\#(graphics)]}"#
            try Data(json.utf8).write(to: folder.appendingPathComponent("d.drawing"))
            cases.append((name, folder))
        }
        let frame = #""transform":{"center":[400,300],"size":[700,500]}"#
        var random: UInt64 = 1
        func next() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 33) / Double(1 << 31)
        }
        let segments = scale.smoke ? 400 : RenderBudgets.maxPathElements - 2
        var path = #"["move",0.5,0.5]"#
        for _ in 0..<segments {
            path += ",[\"cubic\"," + (0..<6).map { _ in String(format: "%.4f", next()) }.joined(separator: ",") + "]"
        }
        try drawingCase(
            "path of \(segments + 2) self-crossing curves",
            #"{"kind":"path","elements":[\#(path),["close"]],\#(frame),"fill":[0.2,0.4,0.8,1]}"#)
        // A 700x500 diagonal is 860 units: dashes of 0.00435 (and gaps as long) draw about 98,900.
        try drawingCase(
            "stroke of 98,900 dashes",
            #"{"kind":"line","from":[0,0],"to":[1,1],\#(frame),"stroke":{"color":[0,0,0,1],"width":1,"dash":[0.00435]}}"#)
        try drawingCase("text 30,000 units tall", #"{"kind":"text","text":"Hi","fontSize":30000,\#(frame),"fill":[0,0,0,1]}"#)
        let longText = String(repeating: "e\\u0301", count: 10_000)
        try drawingCase(
            "text of 10,000 characters, 20,000 code points", #"{"kind":"text","text":"\#(longText)","fontSize":4,\#(frame)}"#)
        // Groups nested as deep as a drawing allows, each faded (a layer) and across the most
        // pixels `easel serve` renders, 25000x1000: each layer as wide as the output.
        let (wide, tall) = scale.smoke ? (2500, 100) : (25_000, 1_000)
        let whole = #""transform":{"center":[\#(wide / 2),\#(tall / 2)],"size":[\#(wide),\#(tall)]}"#
        var nested = #"{"kind":"rectangle",\#(whole),"fill":[0.84,0.16,0.16,1]}"#
        for level in 0..<16 {
            let shape =
                #"{"kind":"ellipse","transform":{"center":[\#(wide * (level + 1) / 18),\#(tall / 3)],"size":[\#(wide / 5),\#(tall / 2)]},"fill":[0.2,0.5,0.7,1],"opacity":0.8}"#
            nested = #"{"kind":"group","opacity":0.9,\#(whole),"children":[\#(nested),\#(shape)]}"#
        }
        try drawingCase("16 faded groups nested, \(wide)x\(tall)", nested, canvas: "[\(wide),\(tall)]")
        // Images: as many distinct pixels as the document budget allows.
        let side = scale.smoke ? 300 : 2000
        let count = scale.smoke ? 3 : RenderBudgets.maxImagePixelsPerDocument / (side * side)
        let images = inputs.folder.appendingPathComponent("worst-images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        var graphics: [String] = []
        for index in 0..<count {
            let image = try RasterImage(width: side, height: side)
            let context = try CairoContext(image: image)
            try context.setSource(Color(red: Double(index) / Double(count), green: 0.5, blue: 0.3))
            try context.paint()
            try Data(try PNGEncoder.encode(image)).write(to: images.appendingPathComponent("photo-\(index).png"))
            graphics.append(#"{"kind":"image","file":"photo-\#(index).png","transform":{"center":[400,300],"size":[200,200]}}"#)
        }
        try Data(#"{"version":1,"canvas":{"size":[800,600]},"graphics":[\#(graphics.joined(separator: ","))]}"#.utf8)
            .write(to: images.appendingPathComponent("d.drawing"))
        cases.append(("\(count) distinct \(side)x\(side) images (the pixel budget)", images))
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Corpus/hostile")
        if FileManager.default.fileExists(atPath: corpus.path) { cases.append(("the hostile corpus, as one folder", corpus)) }

        return try cases.map { name, folder in
            let out = inputs.folder.appendingPathComponent("worst-out")
            try? FileManager.default.removeItem(at: out)
            let report = inputs.folder.appendingPathComponent("worst-report.json")
            try run(
                binaries.appendingPathComponent("easel"),
                ["export", folder.path, "--out", out.path, "--jobs", "1", "--quiet", "--report", report.path],
                allowingFailures: true)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            let totals = json?["totals"] as? [String: Any]
            return Results.WorstInput(
                input: name, seconds: (totals?["seconds"] as? Double) ?? 0,
                peakMiB: Double((totals?["peakMemoryBytes"] as? Int) ?? 0) / 1_048_576,
                documents: (totals?["documents"] as? Int) ?? 0)
        }
    }

    @discardableResult
    func run(_ executable: URL, _ arguments: [String], allowingFailures: Bool = false, environment extra: [String: String] = [:])
        throws -> String
    {
        let capture = inputs.folder.appendingPathComponent("stdout-\(UInt32.random(in: 0...UInt32.max))")
        let errors = inputs.folder.appendingPathComponent("stderr-\(UInt32.random(in: 0...UInt32.max))")
        defer {
            try? FileManager.default.removeItem(at: capture)
            try? FileManager.default.removeItem(at: errors)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, capture.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failed(description: "cannot start \(executable.path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOf: capture, encoding: .utf8)) ?? ""
        guard status == 0 || (allowingFailures && status == 1 << 8) else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failed(
                description:
                    "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed (status \(status)): \(message)")
        }
        return output
    }
}
