import Foundation
import SnapshotTesting
import EaselDocuments
import EaselRender
import EaselCairo
import EaselGolden

// swift-snapshot-testing strategies backed by Easel's comparator, for Linux, where
// swift-snapshot-testing has no image strategy:
//
//     assertSnapshot(of: drawing, as: .easelImage())
//     assertSnapshot(of: card, as: .easelImage(folder: cardsFolder))
//     assertSnapshot(of: rasterImage, as: .easelImage(tolerance: .fuzzy(maxDelta: 8, maxPixels: 20)))
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
                // An unreadable reference becomes a 1x1 image, reported as a size mismatch.
                (try? PNGDecoder.decode(Array(data))) ?? (try! RasterImage(width: 1, height: 1))
            },
            diffV2: { expected, actual in
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
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("easel-snapshot-\(UUID().uuidString)")
                if let composite = try? DifferenceComposite.make(
                    expected: expected, actual: actual, statistics: statistics,
                    noiseFloor: tolerance.noiseFloor)
                {
                    for (name, image) in [("expected.png", expected), ("actual.png", actual), ("composite.png", composite)] {
                        guard let bytes = try? PNGEncoder.encode(image) else { continue }
                        attachments.append(.data(Data(bytes), name: name))
                        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        try? Data(bytes).write(to: folder.appendingPathComponent(name))
                    }
                    message += ". Expected | difference | actual: \(folder.appendingPathComponent("composite.png").path)"
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
    /// A document that cannot be rendered snapshots as a 1x1 image, so the test fails with
    /// a size mismatch rather than crashing.
    static func render(_ document: any FileDocument, at url: URL, options: RenderOptions) -> RasterImage {
        (try? DocumentRenderer.render(LocatedDocument(document, at: url), options: options).image)
            ?? (try! RasterImage(width: 1, height: 1))
    }
}
