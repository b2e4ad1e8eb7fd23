import Testing
import Foundation
import EaselRender

/// A minimal golden-image check for the renderer's tests until the EaselGolden facility
/// (issue 7) replaces it: exact pixel comparison with `Goldens/<suite>/<name>.png`; a missing
/// golden is recorded and the test fails so nothing passes unseen; a mismatch writes the
/// actual image next to the expected one under .build/golden-failures.
public enum GoldenCheck {
    static let goldens = ProcessRunner.packageRoot.appendingPathComponent("Goldens")
    static let failures = ProcessRunner.packageRoot.appendingPathComponent(".build/golden-failures")

    public static func check(_ image: RasterImage, suite: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let golden = goldens.appendingPathComponent(suite).appendingPathComponent(name + ".png")
        let actualBytes = try PNGEncoder.encode(image)
        guard let expectedBytes = try? Data(contentsOf: golden) else {
            try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actualBytes).write(to: golden)
            Issue.record("recorded the missing golden \(golden.path); look at it, then run again", sourceLocation: sourceLocation)
            return
        }
        let expected = try PNGDecoder.decode(Array(expectedBytes))
        guard expected.width == image.width, expected.height == image.height else {
            Issue.record("\(name): size \(image.width)x\(image.height) differs from the golden's \(expected.width)x\(expected.height)", sourceLocation: sourceLocation)
            return
        }
        var differing = 0, largest = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let delta = image.premultipliedPixel(x: x, y: y).maxChannelDifference(to: expected.premultipliedPixel(x: x, y: y))
                if delta > 0 { differing += 1; largest = max(largest, delta) }
            }
        }
        if differing > 0 {
            try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
            let actualPath = failures.appendingPathComponent("\(suite)-\(name)-actual.png")
            try Data(actualBytes).write(to: actualPath)
            Issue.record("\(name): \(differing) pixels differ from \(golden.path) (largest channel difference \(largest)); actual image: \(actualPath.path)",
                         sourceLocation: sourceLocation)
        }
    }
}
