import Testing
import Foundation
import EaselFuzzProperties
import EaselTestSupport

/// Every committed fuzz seed and finding (Fuzz/seeds) still satisfies the fuzz
/// targets' properties: the regression tests for whatever the fuzzers find.
@Suite("Fuzz seeds and findings")
struct FuzzSeedTests {
    static func inputs(_ target: String) -> [URL] {
        let folder = ProcessRunner.packageRoot.appendingPathComponent("Fuzz/seeds/\(target)")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A moved or emptied seeds folder would make the tests below pass vacuously.
    @Test func theSeedsAreThere() {
        #expect(Self.inputs("documents").count >= 5)
        #expect(Self.inputs("png").count >= 5)
        #expect(Self.inputs("render").count >= 5)
        #expect(Self.inputs("zip").count >= 5)
    }

    @Test(arguments: inputs("documents")) func documentSeed(_ url: URL) throws {
        #expect(FuzzProperties.documentRoundTrip(Array(try Data(contentsOf: url))) == nil, "\(url.lastPathComponent)")
    }

    @Test(arguments: inputs("png")) func pngSeed(_ url: URL) throws {
        let bytes = Array(try Data(contentsOf: url))
        #expect(FuzzProperties.pngRoundTrip(bytes) == nil, "\(url.lastPathComponent)")
        #expect(FuzzProperties.ownPNGReaderAgreesWithLibpng(bytes) == nil, "\(url.lastPathComponent)")
    }

    @Test(arguments: inputs("render")) func renderSeed(_ url: URL) throws {
        #expect(FuzzProperties.drawingRenders(Array(try Data(contentsOf: url))) == nil, "\(url.lastPathComponent)")
    }

    @Test(arguments: inputs("zip")) func zipSeed(_ url: URL) throws {
        #expect(FuzzProperties.zipReads(Array(try Data(contentsOf: url))) == nil, "\(url.lastPathComponent)")
    }
}
