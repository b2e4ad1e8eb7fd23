import EaselTestSupport
import Foundation

/// Copies of the sample documents (cards with their images, and a drawing) to serve.
enum ServerFixtures {
    static let card = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"
    static let drawing = "Showcase.drawing"

    static func samples() throws -> TemporaryFolder {
        let folder = TemporaryFolder("easel-serve")
        let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where !name.hasPrefix(".") {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.file(name))
        }
        return folder
    }
}
