import Testing
import Foundation
import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo
@testable import EaselGolden
import EaselTestSupport

@Suite("Image comparator")
struct ComparatorTests {
    /// A 100x80 image: white, with a dark square and a translucent disc.
    static func base() throws -> RasterImage {
        let image = try RasterImage(width: 100, height: 80)
        let context = try CairoContext(image: image)
        try context.setSource(.white)
        try context.paint()
        var square = Path()
        square.addRect(Rect(x: 10, y: 10, width: 30, height: 30))
        try context.setSource(Color(red: 0.1, green: 0.2, blue: 0.3))
        try context.fill(square)
        var disc = Path()
        disc.addEllipse(in: Rect(x: 50, y: 20, width: 40, height: 40))
        try context.setSource(Color(red: 0.9, green: 0.1, blue: 0.1, alpha: 0.6))
        try context.fill(disc)
        return image
    }

    static func copy(_ image: RasterImage) throws -> RasterImage {
        try PNGDecoder.decode(try PNGEncoder.encode(image))
    }

    static func set(_ image: RasterImage, x: Int, y: Int, _ argb: UInt32) {
        image.withUnsafeMutablePixels { $0.storeBytes(of: argb, toByteOffset: y * image.stride + x * 4, as: UInt32.self) }
    }

    static func argb(_ image: RasterImage, x: Int, y: Int) -> UInt32 {
        image.withUnsafePixels { $0.load(fromByteOffset: y * image.stride + x * 4, as: UInt32.self) }
    }

    @Test func identicalImagesPass() throws {
        let a = try Self.base()
        let result = ImageComparator.compare(a, try Self.copy(a), tolerance: .exact)
        guard case .identical = result else {
            Issue.record("\(result)")
            return
        }
    }

    @Test func onePixelOffByOnePassesTheDefaultAndFailsExact() throws {
        let a = try Self.base(), b = try Self.copy(a)
        Self.set(b, x: 5, y: 5, Self.argb(a, x: 5, y: 5) - 1)  // white's blue channel 255 -> 254
        #expect(ImageComparator.compare(b, a, tolerance: .default).passed)
        #expect(!ImageComparator.compare(b, a, tolerance: .exact).passed)
        guard case .different(let statistics, _) = ImageComparator.compare(b, a, tolerance: .exact) else {
            Issue.record("not different")
            return
        }
        #expect(statistics.differingPixels == 1 && statistics.maxChannelDelta == 1)
    }

    @Test func theSuggestedToleranceKeepsTheNoiseFloorAndPassesWhenUsed() throws {
        let a = try Self.base(), b = try Self.copy(a)
        // Three pixels off by one (noise at the default floor) and two off by a lot.
        for x in 0..<3 {
            let value = Self.argb(a, x: x, y: 0) | 0xFF00_0000
            let blue = value & 0xFF
            Self.set(b, x: x, y: 0, (value & 0xFFFF_FF00) | (blue == 255 ? 254 : blue + 1))
        }
        Self.set(b, x: 10, y: 10, 0xFFFF_FFFF)
        Self.set(b, x: 20, y: 20, 0xFFFF_FFFF)
        guard case .different(let statistics, let passed) = ImageComparator.compare(b, a, tolerance: .default) else {
            Issue.record("not different")
            return
        }
        #expect(!passed)
        #expect(statistics.pixelsDifferingAtAll == 5 && statistics.differingPixels == 2, "\(statistics)")
        let suggestion = ImageComparator.passingTolerance(for: statistics, tolerance: .default)
        #expect(!ImageComparator.compare(b, a, tolerance: .fuzzy(maxDelta: 255, maxPixels: 2)).passed, "the floor matters here")
        #expect(ImageComparator.compare(b, a, tolerance: suggestion).passed, "\(suggestion)")
        #expect(suggestion.noiseFloor == 1)
        #expect(GoldenVerifier.describe(statistics, golden: "g", tolerance: .default).contains(suggestion.swiftSpelling))
    }

    @Test func pixelLimitsAreWrittenPlainlyInJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(Tolerance.fuzzy(maxDelta: 9, maxPixels: 12)), as: UTF8.self)
        #expect(json == #"{"maxChannelDelta":9,"maxPixels":{"count":12},"metric":{"kind":"channelDelta"},"noiseFloor":0}"#)
        #expect(try JSONDecoder().decode(Tolerance.self, from: Data(json.utf8)) == .fuzzy(maxDelta: 9, maxPixels: 12))
        #expect(try JSONDecoder().decode(Tolerance.self, from: try encoder.encode(Tolerance.default)) == .default)
        // Written before there were two metrics: the channel metric.
        let old = #"{"maxChannelDelta":9,"maxPixels":{"count":12},"noiseFloor":0}"#
        #expect(try JSONDecoder().decode(Tolerance.self, from: Data(old.utf8)) == .fuzzy(maxDelta: 9, maxPixels: 12))
        let perceptual = Tolerance(perceptualThreshold: 0.1, maxPixels: .ratio(0.001))
        let written = String(decoding: try encoder.encode(perceptual), as: UTF8.self)
        #expect(
            written
                == #"{"maxPixels":{"ratio":0.001},"metric":{"countsAntialiasing":false,"kind":"perceptual","threshold":0.1}}"#)
        #expect(try JSONDecoder().decode(Tolerance.self, from: Data(written.utf8)) == perceptual)
        let outOfRange = #"{"maxPixels":{"count":1},"metric":{"kind":"perceptual","threshold":3}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Tolerance.self, from: Data(outOfRange.utf8)) }
    }

    @Test func theDefaultToleranceJudgesOneStrayPixelTheSameAtAnySize() throws {
        for side in [50, 1000] {
            func grey() throws -> RasterImage {
                let image = try RasterImage(width: side, height: side)
                let context = try CairoContext(image: image)
                try context.setSource(Color(red: 0.5, green: 0.5, blue: 0.5))
                try context.paint()
                return image
            }
            let a = try grey(), b = try grey()
            Self.set(b, x: 3, y: 3, Self.argb(a, x: 3, y: 3) &+ 0x0019_1919)  // one pixel off by 25
            #expect(ImageComparator.compare(b, a).passed, "\(side)x\(side): one stray pixel passes")
            for x in 10..<20 { Self.set(b, x: x, y: 5, Self.argb(a, x: x, y: 5) &+ 0x0019_1919) }
            if side == 50 { #expect(!ImageComparator.compare(b, a).passed, "eleven of 2,500 pixels is a real change") }
        }
    }

    @Test func lostOpacityIsDrawnAsRemovedInk() throws {
        let white = try RasterImage(width: 2, height: 2)
        for y in 0..<2 { for x in 0..<2 { Self.set(white, x: x, y: y, 0xFFFF_FFFF) } }
        let clear = try RasterImage(width: 2, height: 2)
        let panel = try DifferenceComposite.differencePanel(expected: white, actual: clear, tolerance: .exact)
        let removed = DifferenceComposite.removed
        #expect(
            panel.pixel(x: 0, y: 0) == RGBA8(r: removed.r, g: removed.g, b: removed.b, a: 255), "opaque white turned transparent")
        let added = DifferenceComposite.added
        let back = try DifferenceComposite.differencePanel(expected: clear, actual: white, tolerance: .exact)
        #expect(back.pixel(x: 0, y: 0) == RGBA8(r: added.r, g: added.g, b: added.b, a: 255), "and the other way round")
    }

    @Test func aCompositeTooLargeIsDrawnScaledDown() throws {
        let a = try Self.base(), b = try Self.copy(a)
        let full = try DifferenceComposite.make(expected: a, actual: b, statistics: nil, tolerance: .exact)
        let small = try DifferenceComposite.make(
            expected: a, actual: b, statistics: nil, tolerance: .exact, maxPixels: full.width * full.height / 4)
        #expect(small.width * small.height <= full.width * full.height / 4)
        #expect(abs(small.width * 2 - full.width) <= 2, "half the size on each side")
    }

    @Test func everySeparateChangeIsCountedAsItsOwnCluster() throws {
        let a = try Self.base(), b = try Self.copy(a)
        // 30 single-pixel dots, 12 pixels apart: 30 clusters (the list keeps the largest 20).
        for i in 0..<30 { Self.set(b, x: 2 + (i % 6) * 12, y: 2 + (i / 6) * 12, 0xFF00_FF00) }
        guard case .different(let statistics, _) = ImageComparator.compare(b, a) else {
            Issue.record("not different")
            return
        }
        #expect(statistics.clusterCount == 30)
        #expect(statistics.clusters.count == 20)
        #expect(GoldenVerifier.describe(statistics, golden: "g.png", tolerance: .default).contains("in 30 clusters"))
    }

    @Test func scatteredNoiseIsClusteredInOnePass() throws {
        // Thousands of scattered pixels (a cluster-by-cluster merge took minutes on these).
        let width = 400, height = 300
        let a = try RasterImage(width: width, height: height), b = try RasterImage(width: width, height: height)
        var seed: UInt64 = 42
        var changed = 0
        for _ in 0..<8_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            let x = Int(seed >> 40) % width, y = Int(seed >> 20) % height
            Self.set(b, x: x, y: y, 0xFF20_2020)
            changed += 1
        }
        guard case .different(let statistics, _) = ImageComparator.compare(b, a, tolerance: .exact) else {
            Issue.record("not different")
            return
        }
        #expect(statistics.clusterCount >= 1 && statistics.clusters.count <= 20)
        #expect(statistics.clusters.reduce(0) { $0 + $1.pixels } <= statistics.differingPixels)
    }

    @Test func aChangedBlockFailsWithAClusterBoxAtItsPlace() throws {
        let a = try Self.base(), b = try Self.copy(a)
        for y in 60..<70 { for x in 20..<30 { Self.set(b, x: x, y: y, 0xFF00_FF00) } }
        let result = ImageComparator.compare(b, a)
        guard case .different(let statistics, let passed) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(!passed)
        #expect(statistics.differingPixels == 100)
        #expect(statistics.clusters == [DifferenceStatistics.Box(x: 20, y: 60, width: 10, height: 10, pixels: 100)])
        #expect(statistics.maxChannelDelta == 255)
        let message = GoldenVerifier.describe(statistics, golden: "g.png", tolerance: .default)
        #expect(
            message.contains("100 pixels differ") && message.contains("10x10 at (20, 60)")
                && message.contains(".fuzzy(maxDelta: 255, maxPixels: 100, noiseFloor: 1)"))
        #expect(
            ImageComparator.compare(b, a, tolerance: .fuzzy(maxDelta: 255, maxPixels: 100)).passed,
            "the suggested tolerance passes")
    }

    @Test func theTwoLimitsAreIndependent() throws {
        let a = try Self.base()
        // Many pixels by a little: passes on the delta limit, fails on the count.
        let many = try Self.copy(a)
        for x in 0..<100 { Self.set(many, x: x, y: 75, Self.argb(a, x: x, y: 75) - 3) }
        #expect(!ImageComparator.compare(many, a, tolerance: .fuzzy(maxDelta: 5, maxPixels: 50)).passed)
        #expect(ImageComparator.compare(many, a, tolerance: .fuzzy(maxDelta: 5, maxPixels: 100)).passed)
        // One pixel by a lot: passes on the count, fails on the delta.
        let one = try Self.copy(a)
        Self.set(one, x: 3, y: 3, 0xFF00_0000)
        #expect(!ImageComparator.compare(one, a, tolerance: .fuzzy(maxDelta: 100, maxPixels: 50)).passed)
        #expect(ImageComparator.compare(one, a, tolerance: Tolerance(maxPixels: .ratio(0.001), maxChannelDelta: 255)).passed)
    }

    @Test func aSizeMismatchIsReportedAsSuch() throws {
        let a = try Self.base()
        let b = try RasterImage(width: 100, height: 81)
        guard case .sizeMismatch(let actual, let expected) = ImageComparator.compare(b, a) else {
            Issue.record("not a size mismatch")
            return
        }
        #expect(actual == (100, 81) && expected == (100, 80))
    }

    @Test func alphaOnlyDifferencesCount() throws {
        let a = try RasterImage(width: 4, height: 4), b = try RasterImage(width: 4, height: 4)
        Self.set(a, x: 1, y: 1, 0x8000_0000)  // half-transparent black
        Self.set(b, x: 1, y: 1, 0x4000_0000)  // quarter-transparent black: same colour, other alpha
        guard case .different(let statistics, false) = ImageComparator.compare(b, a) else {
            Issue.record("alpha change missed")
            return
        }
        #expect(statistics.maxChannelDelta == 64)
    }

    @Test func straightAndPremultipliedEncodingsOfOneImageMatch() throws {
        // The same translucent pixels, written once by Easel (from premultiplied memory) and
        // once by an independent writer in straight alpha, with junk colour under alpha 0.
        let size = 8
        let straight = ReferencePNGWriter.encode(width: size, height: size, colorType: .rgba, bitDepth: 8) { x, y in
            x == 0 ? [123, 45, 67, 0] : [200, 100, 50, x * 30]
        }
        let fromStraight = try PNGDecoder.decode(straight)
        let fromPremultiplied = try PNGDecoder.decode(try PNGEncoder.encode(fromStraight))
        let result = ImageComparator.compare(fromPremultiplied, fromStraight, tolerance: .exact)
        guard case .identical = result else {
            Issue.record("\(result)")
            return
        }
    }

    @Test func aCorruptGoldenFailsClearly() throws {
        let goldens = TemporaryFolder(), artifacts = TemporaryFolder()
        try goldens.write("not a png", to: "Suite/broken.png")
        let verifier = GoldenVerifier(goldensFolder: goldens.url, artifactsFolder: artifacts.url, recordMode: .never)
        let outcome = verifier.verify(try Self.base(), named: "Suite/broken")
        #expect(!outcome.passed && outcome.message?.contains("the golden cannot be read (not a PNG image") == true)
    }
}

@Suite("Golden verifier and record modes")
struct GoldenVerifierTests {
    func verifier(_ goldens: TemporaryFolder, _ mode: RecordMode, artifacts: TemporaryFolder = TemporaryFolder())
        -> GoldenVerifier
    {
        GoldenVerifier(goldensFolder: goldens.url, artifactsFolder: artifacts.url, recordMode: mode)
    }

    @Test func recordModesComeFromTheEnvironment() throws {
        #expect(try RecordMode.fromEnvironment([:]) == .missing)
        #expect(try RecordMode.fromEnvironment(["CI": "true"]) == .never)
        #expect(try RecordMode.fromEnvironment(["CI": "true", "EASEL_GOLDEN_RECORD": "all"]) == .all)
        #expect(throws: RecordMode.UnknownMode.self) { try RecordMode.fromEnvironment(["EASEL_GOLDEN_RECORD": "sometimes"]) }
    }

    @Test func aMissingGoldenIsRecordedAndFailsOrFailsUnderNever() throws {
        let goldens = TemporaryFolder()
        let image = try ComparatorTests.base()
        let never = verifier(goldens, .never).verify(image, named: "S/new")
        #expect(!never.passed && !never.recorded && never.message?.contains("no golden") == true)
        let missing = verifier(goldens, .missing).verify(image, named: "S/new")
        #expect(!missing.passed && missing.recorded, "recording fails the test so nothing passes unseen")
        #expect(verifier(goldens, .missing).verify(image, named: "S/new").passed)
    }

    @Test func allRewritesOnlyChangedGoldensAndFailedRewritesFailures() throws {
        let goldens = TemporaryFolder()
        let image = try ComparatorTests.base()
        _ = verifier(goldens, .missing).verify(image, named: "S/g")
        let before = try Data(contentsOf: goldens.file("S/g.png"))
        // Dated in the past, so that a rewrite shows however soon it comes.
        let modified = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: goldens.file("S/g.png").path)
        #expect(verifier(goldens, .all).verify(image, named: "S/g").passed, "identical: left alone, passes")
        #expect(
            try FileManager.default.attributesOfItem(atPath: goldens.file("S/g.png").path)[.modificationDate] as? Date == modified
        )
        let changed = try ComparatorTests.copy(image)
        for y in 0..<10 { for x in 0..<10 { ComparatorTests.set(changed, x: x, y: y, 0xFF00_0000) } }
        let failed = verifier(goldens, .failed).verify(changed, named: "S/g")
        #expect(!failed.passed && failed.recorded)
        #expect(try Data(contentsOf: goldens.file("S/g.png")) != before)
    }

    @Test func aFailureWritesArtifactsAndSaysWhere() throws {
        let goldens = TemporaryFolder(), artifacts = TemporaryFolder()
        let image = try ComparatorTests.base()
        _ = verifier(goldens, .missing).verify(image, named: "S/g")
        let changed = try ComparatorTests.copy(image)
        for y in 60..<70 { for x in 20..<30 { ComparatorTests.set(changed, x: x, y: y, 0xFF00_0000) } }
        let outcome = verifier(goldens, .never, artifacts: artifacts).verify(changed, named: "S/g")
        #expect(!outcome.passed && !outcome.recorded)
        let folder = artifacts.file("S/g")
        #expect(outcome.message?.contains(folder.appendingPathComponent("composite.png").path) == true)
        for name in ["actual.png", "expected.png", "composite.png", "statistics.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        let composite = try PNGDecoder.decode(Array(Data(contentsOf: folder.appendingPathComponent("composite.png"))))
        #expect(composite.width == 100 * 3 + 8 * 4 && composite.height == 80 + 22 + 16)
        // In the difference panel the block is green (more ink: black over white)...
        let panelLeft = 8 + 100 + 8, panelTop = 22 + 8
        #expect(composite.pixel(x: panelLeft + 25, y: panelTop + 65) == RGBA8(r: 0, g: 170, b: 60, a: 255))
        #expect(composite.pixel(x: panelLeft + 5, y: panelTop + 75).r > 230, "unchanged white is faded, not coloured")
        // ...and its cluster is boxed in blue just outside it.
        let boxPixel = composite.pixel(x: panelLeft + 25, y: panelTop + 58)
        #expect(boxPixel.b > 200 && boxPixel.r < 100, "\(boxPixel)")
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("statistics.json")))
            as? [String: Any]
        #expect((json?["statistics"] as? [String: Any])?["differingPixels"] as? Int == 100)
    }

    @Test func differencesInIgnoredRegionsNeverCountAndAreReported() throws {
        let a = try ComparatorTests.base(), b = try ComparatorTests.copy(a)
        for x in 0..<10 { ComparatorTests.set(b, x: x, y: 70, 0xFF00_0000) }
        let region = PixelRect(x: 0, y: 65, width: 20, height: 10)
        guard case .different(let statistics, true) = ImageComparator.compare(b, a, tolerance: .exact, ignoring: [region])
        else {
            Issue.record("an ignored change must pass")
            return
        }
        #expect(statistics.ignoredPixels == 10 && statistics.differingPixels == 0 && statistics.clusterCount == 0)
        #expect(
            !ImageComparator.compare(b, a, tolerance: .exact, ignoring: [PixelRect(x: 0, y: 65, width: 5, height: 10)]).passed)
        let map = ImageComparator.differenceMap(b, a, tolerance: .exact, ignoring: [region])
        #expect(map[3, 70] == .ignored && map[3, 71] == .same)
    }

    @Test func theIdenticalFastPathStillSeesEveryChange() throws {
        let a = try ComparatorTests.base(), b = try ComparatorTests.copy(a)
        guard case .identical = ImageComparator.compare(b, a, tolerance: .exact) else {
            Issue.record("a copy is identical")
            return
        }
        ComparatorTests.set(b, x: 99, y: 79, ComparatorTests.argb(a, x: 99, y: 79) ^ 0x0000_0100)  // the last pixel
        #expect(!ImageComparator.compare(b, a, tolerance: .exact).passed)
    }
}
