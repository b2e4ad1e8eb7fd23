import Foundation
// A test file that imports EaselSnapshotTesting alone has `assertSnapshot`, the documents,
// `RenderOptions`, images and tolerances.
@_exported import SnapshotTesting
@_exported import EaselCairo
@_exported import EaselDocuments
@_exported import EaselGeometry
@_exported import EaselGolden
@_exported import EaselRender

// swift-snapshot-testing strategies backed by Easel's comparator, for Linux, where
// swift-snapshot-testing has no image strategy:
//
//     assertSnapshot(of: drawing, as: .easelImage())
//     assertSnapshot(of: card, as: .easelImage(folder: cardsFolder))
//     assertSnapshot(of: rasterImage, as: .easelImage(tolerance: .fuzzy(maxDelta: 8, maxPixels: 20)))
//     assertSnapshot(of: pngData, as: .easelPNG())
//
// References are PNG files in swift-snapshot-testing's __Snapshots__ folders. A mismatch
// attaches the actual, expected and composite (expected | difference | actual) PNGs, writes
// them to a folder named in the failure message, and says how far off it was.

extension Diffing where Value == RasterImage {
    /// PNG references compared pixel by pixel with `tolerance`.
    public static func easelImage(tolerance: Tolerance = .default) -> Diffing {
        .diff(
            toData: { image in Data((try? PNGEncoder.encode(image)) ?? []) },
            fromData: { data in
                do { return try PNGDecoder.decode(Array(data)) } catch {
                    return FailureImages.shared.image(standingFor: "the reference PNG cannot be read: \(error)")
                }
            },
            diffV2: { expected, actual in
                // A failure stands in for an image: say what it was, not "a size mismatch".
                if let reason = FailureImages.shared.reason(for: actual) ?? FailureImages.shared.reason(for: expected) {
                    return (reason, [])
                }
                let result = ImageComparator.compare(actual, expected, tolerance: tolerance)
                guard !result.passed else { return nil }
                var message: String
                var statistics: DifferenceStatistics?
                switch result {
                case .sizeMismatch(let a, let e):
                    message = "the image is \(a.width)x\(a.height) but the reference is \(e.width)x\(e.height)"
                case .different(let s, _):
                    statistics = s
                    message = GoldenVerifier.describe(s, golden: "the reference", tolerance: tolerance)
                case .identical:
                    return nil
                }
                var attachments: [DiffAttachment] = []
                // Files only where swift-snapshot-testing keeps its artifacts (SNAPSHOT_ARTIFACTS):
                // the attachments carry the images, and nothing is left in /tmp.
                let artifacts = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].map {
                    URL(fileURLWithPath: $0).appendingPathComponent("easel-\(UUID().uuidString)")
                }
                if let composite = try? DifferenceComposite.make(
                    expected: expected, actual: actual, statistics: statistics, tolerance: tolerance)
                {
                    for (name, image) in [("expected.png", expected), ("actual.png", actual), ("composite.png", composite)] {
                        guard let bytes = try? PNGEncoder.encode(image) else { continue }
                        attachments.append(.data(Data(bytes), name: name))
                        if let artifacts {
                            try? FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
                            try? Data(bytes).write(to: artifacts.appendingPathComponent(name))
                        }
                    }
                    if let artifacts {
                        message += ". Expected | difference | actual: \(artifacts.appendingPathComponent("composite.png").path)"
                    }
                }
                return (message, attachments)
            })
    }
}

extension Snapshotting where Value == RasterImage, Format == RasterImage {
    /// Snapshots an image as a PNG reference, compared pixel by pixel with `tolerance`.
    public static func easelImage(tolerance: Tolerance = .default) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .easelImage(tolerance: tolerance))
    }
}

extension Snapshotting where Value == Data, Format == RasterImage {
    /// Snapshots any PNG image (as `Data`: a screenshot, a chart, another renderer's
    /// output) through Easel's comparator, for swift-snapshot-testing users on Linux, who
    /// have no image strategy otherwise. PNG data that cannot be read fails with the reason.
    public static func easelPNG(tolerance: Tolerance = .default) -> Snapshotting {
        Snapshotting<RasterImage, RasterImage>.easelImage(tolerance: tolerance).pullback { data in
            do { return try PNGDecoder.decode(Array(data)) } catch {
                return FailureImages.shared.image(standingFor: "the image is not a readable PNG: \(error)")
            }
        }
    }
}

extension Snapshotting where Value == Drawing, Format == RasterImage {
    /// Renders the drawing (images looked for in `imageFolder`) and compares the pixels.
    public static func easelImage(
        imageFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        options: RenderOptions = RenderOptions(size: .scale(1)),
        tolerance: Tolerance = .default
    ) -> Snapshotting {
        Snapshotting<RasterImage, RasterImage>.easelImage(tolerance: tolerance).pullback { drawing in
            Self.render(drawing, at: imageFolder.appendingPathComponent("snapshot.drawing"), options: options)
        }
    }
}

extension Snapshotting where Value == Card, Format == RasterImage {
    /// Renders the card (its images looked for in `folder`), by default at the app's
    /// thumbnail size, and compares the pixels.
    public static func easelImage(
        folder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        options: RenderOptions = RenderOptions(size: .thumbnail),
        tolerance: Tolerance = .default
    ) -> Snapshotting {
        Snapshotting<RasterImage, RasterImage>.easelImage(tolerance: tolerance).pullback { card in
            Self.render(card, at: folder.appendingPathComponent(card.appFileName), options: options)
        }
    }
}

extension Snapshotting where Format == RasterImage {
    /// A document that cannot be rendered snapshots as a stand-in image, and the test fails
    /// with the render error rather than crashing.
    static func render(_ document: any FileDocument, at url: URL, options: RenderOptions) -> RasterImage {
        do {
            return try DocumentRenderer.render(LocatedDocument(document, at: url), options: options).image
        } catch {
            return FailureImages.shared.image(standingFor: "\(url.lastPathComponent) could not be rendered: \(error)")
        }
    }
}

/// 1x1 images that stand for a failure (a reference that cannot be read, a document that
/// cannot be rendered), each with its reason, so the diff reports the reason.
final class FailureImages: @unchecked Sendable {
    static let shared = FailureImages()
    private let lock = NSLock()
    /// Kept alive with their reasons, so an identifier is never reused while recorded.
    private var reasons: [ObjectIdentifier: (image: RasterImage, reason: String)] = [:]

    func image(standingFor reason: String) -> RasterImage {
        let image = try! RasterImage(width: 1, height: 1)  // 1x1 is always within the limits
        lock.withLock { reasons[ObjectIdentifier(image)] = (image, reason) }
        return image
    }

    func reason(for image: RasterImage) -> String? {
        lock.withLock { reasons[ObjectIdentifier(image)]?.reason }
    }
}
