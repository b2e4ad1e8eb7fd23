import ArgumentParser
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo

/// The rendering options shared by every command that exports.
struct RenderOptionGroup: ParsableArguments {
    @Option(name: .long, help: "Output format: png, svg or pdf (default: png; easel export takes it from --out's extension).")
    var format: OutputFormat?

    // Numbers are taken as given, even negative ones, so that `--scale -1` gets the
    // message about the value instead of ArgumentParser's "Missing value" (it reads "-1"
    // as an option).
    @Option(parsing: .unconditional, help: "Multiply the canvas size by this factor (1 = 1300x2000 for a card).")
    var scale: Double?

    /// The scales `--scale` (and the `scale` setting) accept: above the longest side cairo
    /// draws (`RenderLimits.maxOutputSide`), no canvas of a unit or more can be exported;
    /// below 1/10,000 (the finest step Easel prints), none shows as more than a speck.
    static let scaleRange = 0.0001...Double(RenderLimits.maxOutputSide)

    // -w as rsvg-convert and resvg take it; the height stays long-only (-h is help).
    @Option(
        name: [.customShort("w"), .long], parsing: .unconditional,
        help: "Output width in pixels; the height follows the canvas's aspect ratio unless --height is also given.")
    var width: Int?

    @Option(
        parsing: .unconditional,
        help: "Output height in pixels; the width follows the canvas's aspect ratio unless --width is also given.")
    var height: Int?

    @Option(
        help: """
            With both --width and --height: contain (the default: all of the canvas, centred, the rest \
            transparent), cover (fill the box, cut what overflows) or stretch.
            """)
    var fit: FitChoice?

    @Option(
        parsing: .unconditional,
        help: "For SVG and PDF: the output's pixels per inch, giving the page a physical size (default 72).")
    var dpi: Double?

    @Option(
        help: ArgumentHelp(
            "What to render: canvas (the default) or an element's index (its bounds, as `easel info` lists them).",
            valueName: "canvas|index"))
    var area: String?

    @Option(help: "An app size: share (scale 1, 1300x2000 for a card) or thumbnail (scale 0.2, 260x400).")
    var preset: SizePreset?

    @Option(help: "Replace the document's background colour (any colour easel accepts, e.g. white or #FFFFFF), or none.")
    var background: String?

    @Option(
        name: .customLong("png-compression"), parsing: .unconditional,
        help: "zlib level for PNG output, 0 (fastest) to 9 (smallest).")
    var pngCompression: Int?

    @Option(name: .customLong("png-filter"), help: "PNG row filter: none, sub, up, average, paeth or adaptive.")
    var pngFilter: PNGFilterChoice?

    /// Whether any option that changes the pixels was given (size, preset, background, area).
    var changesPixels: Bool {
        scale != nil || width != nil || height != nil || preset != nil || background != nil || fit != nil || area != nil
    }

    enum FitChoice: String, ExpressibleByArgument, CaseIterable { case contain, cover, stretch }

    /// The area: nil for the canvas, else the element index asked for.
    var areaIndex: Int? { area.flatMap { $0 == "canvas" ? nil : Int($0) } }

    /// Refuses what makes no sense for goldens, which are PNG pixels: another format, and
    /// (`encoding: false`) PNG encoding settings, which change bytes, not pixels.
    func validateForGoldens(encoding: Bool) throws {
        if let format, format != .png { throw ValidationError("goldens are PNG images: --format \(format) makes no sense here.") }
        if area != nil {
            throw ValidationError("--area is for export: a golden is a document's whole canvas, as verify renders it.")
        }
        if !encoding && (pngCompression != nil || pngFilter != nil) {
            throw ValidationError(
                "--png-compression and --png-filter change a PNG's bytes, not its pixels: verify compares pixels.")
        }
    }

    enum SizePreset: String, ExpressibleByArgument, CaseIterable {
        case share, thumbnail
    }

    enum PNGFilterChoice: String, ExpressibleByArgument, CaseIterable {
        case none, sub, up, average, paeth, adaptive

        var filters: PNGEncodingOptions.Filters {
            switch self {
            case .none: return .none
            case .sub: return .sub
            case .up: return .up
            case .average: return .average
            case .paeth: return .paeth
            case .adaptive: return .all
            }
        }
    }

    func validate() throws {
        let sizeChoices = [scale != nil, preset != nil, width != nil || height != nil].filter { $0 }.count
        guard sizeChoices <= 1 else { throw ValidationError("Give one of --scale, --preset, or --width/--height.") }
        if let scale, !Self.scaleRange.contains(scale) {
            throw ValidationError(
                "--scale must be a positive number from \(formatNumber(Self.scaleRange.lowerBound)) to \(formatNumber(Self.scaleRange.upperBound))."
            )
        }
        if let width, width <= 0 { throw ValidationError("--width must be a positive number of pixels.") }
        if let height, height <= 0 { throw ValidationError("--height must be a positive number of pixels.") }
        if let level = pngCompression, !(0...9).contains(level) {
            throw ValidationError("--png-compression must be from 0 to 9.")
        }
        if let background, background != "none", (try? Color(parsing: background)) == nil {
            throw ValidationError(ColorArgument.badColor("--background", background))
        }
        if fit != nil && (width == nil || height == nil) {
            throw ValidationError("--fit says how the canvas meets a --width by --height box: give both.")
        }
        if let dpi, !(dpi.isFinite && dpi > 0 && dpi <= 10_000) {
            throw ValidationError("--dpi must be more than 0 and at most 10000.")
        }
        if let area, area != "canvas", Int(area).map({ $0 < 0 }) ?? true {
            throw ValidationError("--area must be canvas or an element's index (0, 1, …), not \"\(area)\".")
        }
    }

    /// The options: command line first, then the output's extension (for the format), then
    /// the user's settings (`easel config`), then Easel's defaults.
    func renderOptions(outputPath: String?, settings: Settings = .loadReportingProblems()) -> RenderOptions {
        var options = RenderOptions()
        if let format {
            options.format = format
        } else if let ext = outputPath.map({ PathNames.extension(of: $0).lowercased() }),
            let inferred = OutputFormat(rawValue: ext)
        {
            options.format = inferred
        } else if let stored = settings[.format].flatMap(OutputFormat.init(rawValue:)) {
            options.format = stored
        }
        let scale = self.scale ?? (preset == nil && width == nil && height == nil ? settings[.scale].flatMap(Double.init) : nil)
        let pngCompression = self.pngCompression ?? settings[.pngCompression].flatMap(Int.init)
        switch (scale, preset, width, height) {
        case (let s?, _, _, _): options.size = .scale(s)
        case (_, .thumbnail?, _, _): options.size = .thumbnail
        case (_, .share?, _, _): options.size = .share
        case (_, _, let w?, let h?):
            switch fit ?? .contain {
            case .contain: options.size = .fitted(width: w, height: h, fit: .contain)
            case .cover: options.size = .fitted(width: w, height: h, fit: .cover)
            case .stretch: options.size = .exact(width: w, height: h)
            }
        case (_, _, let w?, nil): options.size = .width(w)
        case (_, _, nil, let h?): options.size = .height(h)
        default: options.size = .share
        }
        // "none": a transparent background instead of the document's own.
        options.background = background.flatMap {
            $0 == "none" ? Color(red: 0, green: 0, blue: 0, alpha: 0) : (try? Color(parsing: $0))
        }
        options.dpi = dpi
        if let pngCompression { options.png.compressionLevel = pngCompression }
        if let pngFilter { options.png.filters = pngFilter.filters }
        return options
    }
}

extension OutputFormat: ExpressibleByArgument {}

import FoundationEssentials
