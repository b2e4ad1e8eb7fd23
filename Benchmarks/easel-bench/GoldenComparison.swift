import EaselCairo
import EaselDocuments
import EaselGolden
import EaselRender
import Foundation

extension Results {
    /// One pair of 1300x2000 images compared by each comparator.
    struct GoldenPair: Codable {
        var pair: String
        var channel: Timing
        var perceptual: Timing
        /// `easel golden diff a.png b.png` as a process: PNG decoding included.
        var diffProcess: Timing
        /// pixelmatch (JavaScript, under node) on the same pixels, when `--pixelmatch FILE` was given.
        var pixelmatch: Timing?
        var pixelmatchCount: Int?
        var perceptualCount: Int
    }
}

extension Benchmarks {
    /// 7. Comparing two renderings of the typical card (1300x2000), whatever the pattern of
    /// differences: Easel's two metrics in-process, the `easel golden diff` process, and
    /// pixelmatch on the same pixels when its module is given (`--pixelmatch index.js`;
    /// node must be installed: the harness is written here, pixelmatch is not part of Easel).
    func goldenComparison(pixelmatchModule: String?) throws -> [Results.GoldenPair] {
        let url = try inputs.save(inputs.typicalCard(), as: "typical")
        let document = try DocumentRegistry.standard.open(url)
        let golden = try DocumentRenderer.render(document).image
        let pairs: [(String, RasterImage)] = [
            ("identical", try PNGDecoder.decode(PNGEncoder.encode(golden))),
            ("7,700 scattered pixels off by 2", try scattered(golden, count: 7_700)),
            ("everything moved 0.25 px", try shifted(document, by: 0.25)),
            ("one text moved 1 px", try editedText(document)),
        ]
        let node = which("node")
        let harness = inputs.folder.appendingPathComponent("pixelmatch-harness.js")
        try Data(Self.harness.utf8).write(to: harness)
        let goldenPNG = inputs.folder.appendingPathComponent("golden.png")
        try golden.writePNG(to: goldenPNG.path)
        try writeRGBA(golden, to: inputs.folder.appendingPathComponent("golden.rgba"))
        let runs = max(3, scale.iterations)
        return try pairs.map { name, actual in
            let actualPNG = inputs.folder.appendingPathComponent("actual.png")
            try actual.writePNG(to: actualPNG.path)
            var count = 0
            let channel = measure(runs: runs) { _ = ImageComparator.compare(actual, golden, tolerance: .default) }
            let perceptual = measure(runs: runs) {
                if case .different(let statistics, _) = ImageComparator.compare(actual, golden, tolerance: .perceptual) {
                    count = statistics.differingPixels
                }
            }
            let process = try measure(runs: max(3, runs / 2)) {
                _ = try run(
                    binaries.appendingPathComponent("easel"), ["golden", "diff", goldenPNG.path, actualPNG.path],
                    allowingFailures: true)
            }
            var pair = Results.GoldenPair(
                pair: name, channel: channel, perceptual: perceptual, diffProcess: process, perceptualCount: count)
            if let node, let pixelmatchModule {
                try writeRGBA(actual, to: inputs.folder.appendingPathComponent("actual.rgba"))
                let output = try run(
                    node,
                    [
                        harness.path, URL(fileURLWithPath: pixelmatchModule).path,
                        inputs.folder.appendingPathComponent("golden.rgba").path,
                        inputs.folder.appendingPathComponent("actual.rgba").path, "\(golden.width)", "\(golden.height)",
                        "\(runs)",
                    ])
                let fields = output.split(separator: " ")
                if fields.count >= 2, let count = Int(fields[0]) {
                    pair.pixelmatchCount = count
                    pair.pixelmatch = Timing(fields.dropFirst().compactMap { Double($0) })
                }
            }
            return pair
        }
    }

    func scattered(_ image: RasterImage, count: Int) throws -> RasterImage {
        let copy = try PNGDecoder.decode(PNGEncoder.encode(image))
        var state: UInt32 = 12345
        copy.withUnsafeMutablePixels { pixels in
            for _ in 0..<count {
                state = state &* 1_664_525 &+ 1_013_904_223
                let x = Int(state >> 8) % copy.width
                state = state &* 1_664_525 &+ 1_013_904_223
                let y = Int(state >> 8) % copy.height
                let offset = y * copy.stride + x * 4
                let value = pixels.load(fromByteOffset: offset, as: UInt32.self)
                let blue = value & 0xFF
                pixels.storeBytes(of: (value & ~0xFF) | (blue >= 2 ? blue - 2 : blue + 2), toByteOffset: offset, as: UInt32.self)
            }
        }
        return copy
    }

    func shifted(_ document: LocatedDocument, by offset: Double) throws -> RasterImage {
        let scene = try DocumentRenderer.scene(for: document)
        let image = try RasterImage(width: 1300, height: 2000)
        let context = try CairoContext(image: image)
        try context.concatenate(.translation(x: offset, y: offset))
        try context.concatenate(.scale(x: 1300 / scene.canvasSize.width, y: 2000 / scene.canvasSize.height))
        try CairoSceneRenderer.draw(scene, in: context)
        return image
    }

    func editedText(_ document: LocatedDocument) throws -> RasterImage {
        var scene = try DocumentRenderer.scene(for: document)
        if let index = scene.operations.lastIndex(where: { if case .text = $0 { return true } else { return false } }),
            case .text(var text) = scene.operations[index]
        {
            text.transform = text.transform.concatenating(.translation(x: 1, y: 0))
            scene.operations[index] = .text(text)
        }
        return try CairoSceneRenderer.rasterize(scene, pixelWidth: 1300, pixelHeight: 2000)
    }

    /// Straight RGBA bytes, row by row, as pixelmatch takes them.
    func writeRGBA(_ image: RasterImage, to url: URL) throws {
        var bytes = [UInt8]()
        bytes.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                bytes += [p.r, p.g, p.b, p.a]
            }
        }
        try Data(bytes).write(to: url)
    }

    /// Times pixelmatch on two raw RGBA files: prints the count and each run's milliseconds.
    static let harness = """
        const [moduleFile, a, b, width, height, runs] = process.argv.slice(2);
        const loaded = require(moduleFile);
        const pixelmatch = loaded.default || loaded;
        const fs = require('fs');
        const one = fs.readFileSync(a), two = fs.readFileSync(b);
        let count = pixelmatch(one, two, null, +width, +height, { threshold: 0.1 });
        const times = [];
        for (let i = 0; i < +runs; i++) {
          const start = process.hrtime.bigint();
          count = pixelmatch(one, two, null, +width, +height, { threshold: 0.1 });
          times.push(Number(process.hrtime.bigint() - start) / 1e6);
        }
        console.log([count, ...times].join(' '));
        """
}
