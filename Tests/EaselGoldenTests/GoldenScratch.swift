import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselGolden
import EaselRender
import EaselTestSupport
import Foundation

/// A documents folder and its goldens in a scratch folder, for `GoldenSuite` and
/// `GoldenAcceptance` run in process as `easel golden` runs them. Folders are named relative
/// to the scratch folder (`Docs`, `Goldens`), as a user types them, so messages and reports
/// show them so.
struct GoldenScratch {
    let folder = TemporaryFolder("easel-goldens")

    /// `name` below the scratch folder, as a relative URL (its `relativePath` is `name`).
    func url(_ name: String) -> URL {
        URL(fileURLWithPath: name, relativeTo: URL(fileURLWithPath: folder.path + "/", isDirectory: true))
    }

    /// The suite of `documents` and `goldens`.
    func suite(_ documents: String = "Docs", _ goldens: String = "Goldens") -> GoldenSuite {
        GoldenSuite(documents: url(documents), goldens: url(goldens))
    }

    /// Writes a `width`x`height` drawing on `background` holding `graphics`.
    func drawing(
        _ name: String, _ width: Double = 40, _ height: Double = 30, background: Color? = .white, graphics: [Graphic] = []
    ) throws {
        let drawing = Drawing(canvasSize: Size(width: width, height: height), background: background, graphics: graphics)
        try folder.write(DrawingEncoder.encode(drawing), to: name)
    }

    /// Records every golden of the default suite with `options`; returns what was recorded.
    @discardableResult
    func record(_ options: RenderOptions = RenderOptions(), onlyMissing: Bool = false) throws -> [String] {
        try suite().record(options: options, onlyMissing: onlyMissing).compactMap {
            if case .recorded(let golden) = $0 { return golden.relativePath }
            return nil
        }
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url(name).path) }
    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url(name))) }
    func text(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }
    func image(_ name: String) throws -> RasterImage { try PNGDecoder.decode(try bytes(name)) }
    func makeFolder(_ name: String) throws {
        try FileManager.default.createDirectory(at: url(name), withIntermediateDirectories: true)
    }
}

extension GoldenSuiteRun {
    /// The failures' messages by document (or golden) name.
    var messages: [String: String] {
        Dictionary(failures.map { ($0.document ?? $0.golden, $0.message ?? "") }, uniquingKeysWith: { a, _ in a })
    }
}

extension Graphic {
    /// A rectangle centred at (`x`, `y`), `width`x`height`, filled with `fill`.
    static func box(_ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: Color) -> Graphic {
        Graphic(
            kind: .rectangle, transform: GraphicTransform(center: Point(x: x, y: y), size: Size(width: width, height: height)),
            fill: fill)
    }
}
