import EaselBatch
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation

/// A scratch folder for folder exports run in process: documents written as files, exports
/// run through `BatchExporter` as `easel export IN… --out OUT` runs them (the output folder
/// prepared first, then the plan run), outputs read back.
struct ExportScratch {
    let folder = TemporaryFolder("easel-batch")

    func url(_ name: String) -> URL { folder.file(name) }

    /// Writes a drawing of `width`x`height` on `background` holding `graphics`.
    @discardableResult
    func drawing(
        _ name: String, _ width: Double = 20, _ height: Double = 20, background: Color? = .white, graphics: [Graphic] = []
    ) throws -> URL {
        let drawing = Drawing(canvasSize: Size(width: width, height: height), background: background, graphics: graphics)
        return try folder.write(DrawingEncoder.encode(drawing), to: name)
    }

    /// Writes `card` (by default a new blank card).
    @discardableResult
    func card(_ name: String, _ card: Card = Card()) throws -> URL {
        try folder.write(try CardEncoder.encode(card, file: name), to: name)
    }

    /// Writes a solid `width`x`height` PNG of `color`.
    @discardableResult
    func png(_ name: String, width: Int = 4, height: Int = 4, color: Color = Color(red: 0, green: 0, blue: 1)) throws -> URL {
        let image = try RasterImage(width: width, height: height)
        let context = try CairoContext(image: image)
        try context.setSource(color)
        try context.paint()
        return try folder.write(try PNGEncoder.encode(image), to: name)
    }

    /// Exports `inputs` into `out` as `easel export` does, with the options `configure`
    /// sets. `progress` hears of each document as it finishes.
    func export(
        _ inputs: [String], to out: String = "out", jobs: Int = 2, cancellation: CancellationFlag = CancellationFlag(),
        _ configure: (inout BatchExportOptions) -> Void = { _ in },
        progress: @escaping @Sendable (BatchProgress, BatchEntry) -> Void = { _, _ in }
    ) throws -> BatchReport {
        var options = BatchExportOptions(jobs: jobs)
        configure(&options)
        let exporter = try BatchExporter(inputs: inputs.map(url), outputFolder: url(out), options: options)
        if !options.dryRun { try exporter.prepareOutputFolder() }
        return exporter.run(exporter.plan(), cancellation: cancellation, progress: progress)
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url(name).path) }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url(name))) }

    func text(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }

    func image(_ name: String) throws -> RasterImage { try PNGDecoder.decode(try bytes(name)) }

    /// Every PNG below `folder` (relative paths).
    func pngs(in folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: url(folder).path) ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }
}

extension BatchReport {
    /// The file names of the documents that ended with `status`.
    func names(_ status: BatchStatus) -> Set<String> {
        Set(entries.filter { $0.status == status }.map { URL(fileURLWithPath: $0.input).lastPathComponent })
    }

    /// The error of the document whose file is named `name`.
    func error(of name: String) -> String? {
        entries.first { URL(fileURLWithPath: $0.input).lastPathComponent == name }?.error
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

extension Color {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let green = Color(red: 0, green: 1, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)
}
