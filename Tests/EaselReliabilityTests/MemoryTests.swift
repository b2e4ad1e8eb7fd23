import EaselTestSupport
import Foundation
import Testing

/// Memory is measured in a process of its own, where nothing else runs: the peak resident
/// size a folder export reports must not grow with the number of documents rendered (no
/// leak in the render + encode cycle: every cairo surface, context and libpng buffer is
/// released). A test process's peak would count every other test's.
@Suite("Memory")
struct MemoryTests {
    let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")

    /// The peak memory, in MiB, of exporting `count` copies of the postcard sample with its images.
    func peakMiB(copies count: Int) throws -> Int {
        let easel = EaselScratch()
        try FileManager.default.createDirectory(at: easel.folder.file("in"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where !name.contains(".") {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: easel.folder.file("in/" + name))
        }
        let card = try Data(contentsOf: samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard"))
        for i in 0..<count { try easel.folder.write(Array(card), to: String(format: "in/copy-%04d.rwcard", i)) }
        let result = try easel.run(["export", "in", "--out", "out", "--preset", "thumbnail"])
        #expect(result.status == 0, "\(result.stderr)")
        return try Self.reportedPeakMiB(result)
    }

    /// The peak memory, in MiB, that a folder `export` reports.
    static func reportedPeakMiB(_ result: ProcessResult) throws -> Int {
        let summary = try #require(result.stderr.split(separator: "\n").last)
        return try #require(summary.split(separator: " ").reversed().dropFirst().first.flatMap { Int($0) }, "\(summary)")
    }

    /// Sixteen faded groups nested in one another across a 25,000-pixel-wide drawing (the
    /// most pixels `easel serve` renders): each holds a layer while it is drawn, 650 MB in
    /// strips of 256 rows before the strips were made thin enough for them.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["EASEL_SANITIZER"] == nil))
    func nestedFadedGroupsAcrossAWideDrawingStayWithinTheirLayerBudget() throws {
        let (width, height) = (25_000, 1_000)
        let frame = ##""transform": {"center": [12500, 500], "size": [25000, 1000]}"##
        var graphic = ##"{"kind": "rectangle", \##(frame), "fill": "#D62828"}"##
        for level in 0..<16 {
            let shape =
                ##"{"kind": "ellipse", "transform": {"center": [\##(1400 * (level + 1)), 330], "size": [5000, 500]}, "fill": "#2E86AB", "opacity": 0.8}"##
            graphic = ##"{"kind": "group", "opacity": 0.9, \##(frame), "children": [\##(graphic), \##(shape)]}"##
        }
        let canvas = ##"{"size": [\##(width), \##(height)], "background": "#F4F1E8"}"##
        let drawing = ##"{"format": "org.easel.drawing", "version": 1, "canvas": \##(canvas), "graphics": [\##(graphic)]}"##
        let easel = EaselScratch()
        try easel.folder.write(drawing, to: "in/deep.drawing")
        let result = try easel.run(["export", "in", "--out", "out"])
        #expect(result.status == 0, "\(result.stderr)")
        let peak = try Self.reportedPeakMiB(result)
        print("peak memory: 16 nested faded groups, \(width)x\(height): \(peak) MiB")
        // Two cores' bands (25 MB each) and their layers (32 MiB each), over the process's own.
        #expect(peak <= 250, "exporting sixteen nested layers \(width) pixels wide peaked at \(peak) MiB")
    }

    /// Not under a sanitizer: AddressSanitizer keeps freed memory in quarantine by design.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["EASEL_SANITIZER"] == nil))
    func peakMemoryDoesNotGrowWithTheNumberOfDocuments() throws {
        let few = try peakMiB(copies: 25)
        let many = try peakMiB(copies: 250)
        print("peak memory: 25 cards \(few) MiB, 250 cards \(many) MiB")
        #expect(many - few <= 6, "peak memory grew from \(few) MiB to \(many) MiB between 25 and 250 cards")
    }
}
