import Testing
import Foundation
@testable import EaselRender
import EaselCairo
import EaselTestSupport

/// Memory is measured in a child process, where nothing else runs: the peak resident size
/// the export reports must not grow with the number of documents rendered (no leak in the
/// render + encode cycle: every cairo surface, context and libpng buffer is released).
@Suite("Memory")
struct MemoryTests {
    let easel = ProcessRunner.easelExecutable
    let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")

    /// A folder of `count` copies of the postcard sample with its images.
    func folder(withCopies count: Int) throws -> TemporaryFolder {
        let folder = TemporaryFolder("easel-memory")
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where !name.contains(".") {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.file(name))
        }
        let card = try Data(contentsOf: samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard"))
        for i in 0..<count { try card.write(to: folder.file(String(format: "copy-%04d.rwcard", i))) }
        return folder
    }

    func peakMiB(copies: Int) throws -> Int {
        let input = try folder(withCopies: copies)
        let out = TemporaryFolder("easel-memory-out")
        let result = try ProcessRunner.run(easel, ["export", input.path, "--out", out.path, "--preset", "thumbnail"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.stderr.split(separator: "\n").last)
        let peak = try #require(summary.split(separator: " ").reversed().dropFirst().first.flatMap { Int($0) }, "\(summary)")
        return peak
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
