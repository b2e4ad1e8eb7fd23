import FoundationEssentials
import Dispatch
import EaselGeometry
import EaselDocuments
import EaselSupport
import EaselCairo

/// The file formats Easel exports.
public enum OutputFormat: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case png, svg, pdf

    /// The extension output files get, without the dot: `png`, `svg` or `pdf`.
    public var fileExtension: String { rawValue }
    /// "PNG", "SVG" or "PDF", for messages.
    public var description: String { rawValue.uppercased() }
}

/// Options for rendering a document: everything that decides the output's bytes. Codable,
/// so the batch exporter's up-to-date key is derived from the whole value and a new option
/// cannot be left out of it.
public struct RenderOptions: Codable, Hashable, Sendable {
    /// The file format produced by `DocumentRenderer.export`.
    public var format: OutputFormat
    /// How many pixels (or, for SVG and PDF, points) the output has.
    public var size: OutputSize
    /// Replaces the document's background (cards and drawings alike) when set.
    public var background: Color?
    /// How the document's images are resampled when drawn larger or smaller.
    public var imageFilter: ImageFilter
    /// How PNG output is compressed; ignored for SVG and PDF.
    public var png: PNGEncodingOptions
    /// For SVG and PDF: the output's pixels at this many per inch, so the page has a
    /// physical size (nil: one pixel per point, 72 per inch; SVG sizes in pixels).
    public var dpi: Double?
    /// The part of the canvas to render, in canvas units (nil: the whole canvas); the size
    /// options apply to it.
    public var area: Area?

    /// A rectangle of the canvas, in canvas units.
    public struct Area: Codable, Hashable, Sendable, CustomStringConvertible {
        /// The top-left corner and the size.
        public var x: Double, y: Double, width: Double, height: Double

        /// The rectangle `rect` of the canvas.
        public init(_ rect: Rect) {
            (x, y, width, height) = (rect.minX, rect.minY, rect.width, rect.height)
        }

        /// The area as a rectangle.
        public var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
        /// `WxH at (x, y)`.
        public var description: String {
            "\(formatNumber(width))x\(formatNumber(height)) at (\(formatNumber(x)), \(formatNumber(y)))"
        }
    }

    /// Options; by default a PNG at the app's share size (scale 1) with the document's own
    /// background, the good image filter and Easel's fast PNG settings.
    public init(
        format: OutputFormat = .png, size: OutputSize = .share, background: Color? = nil,
        imageFilter: ImageFilter = .good, png: PNGEncodingOptions = .default
    ) {
        self.format = format
        self.size = size
        self.background = background
        self.imageFilter = imageFilter
        self.png = png
    }
}

/// A rendered document: its pixels and what was noticed on the way.
public struct RenderedImage {
    /// The rendered pixels.
    public var image: RasterImage
    /// What the lowering noticed but drew around (a missing image, an unmapped font).
    public var warnings: [DocumentWarning]
}

/// An exported file's bytes, with its pixel size and the warnings noticed.
public struct ExportedFile {
    /// The encoded file.
    public var bytes: [UInt8]
    /// Its format.
    public var format: OutputFormat
    /// Its size in pixels (SVG and PDF: in points at 1 point a pixel).
    public var width: Int
    /// Its height in pixels (SVG and PDF: in points).
    public var height: Int
    /// What the lowering noticed but drew around.
    public var warnings: [DocumentWarning]
}

/// The library's front door for rendering: a located document in, pixels or file bytes out.
/// Any registered document type that conforms to `RenderableDocument` renders here. Each
/// call owns its images, surfaces and contexts, so documents can be rendered on several
/// threads at once; fonts are shared through `FontLibrary.shared`.
public enum DocumentRenderer {
    /// What lowering `located` for its default export (a PNG at the share size) warns of: what
    /// `easel validate`, `easel info` and the server's description and listing report. Its
    /// photos are decoded at the size that export draws them at, so the image budget counts
    /// what the export would (a card of three 24-megapixel photos drawn small is within it).
    public static func warnings(for located: LocatedDocument, deadline: UInt64? = nil) throws(RenderError)
        -> [DocumentWarning]
    {
        try scene(for: located, deadline: deadline, drawnFor: RenderOptions()).warnings
    }

    /// Lowers a document to a scene, resolving its images in its resource folder.
    /// `background`, when set, replaces the document's own. With a `deadline` (`DispatchTime`
    /// uptime nanoseconds: `RenderTimeout.deadline(seconds:)`), decoding its images and laying
    /// out its texts stop at it (throwing `.timedOut`), and the scene keeps it for drawing.
    /// `drawnFor`, the options the scene will be exported with when they are known, lets
    /// large photos drawn small be decoded at about the size they are drawn at (in an SVG or
    /// PDF, those embedded as their own files: `ImageLoader.planDecoding`); such a scene is
    /// for those options only (another size would draw the photos from too few pixels).
    /// `textsAhead` is where the texts are laid out ahead of the lowering: a caller that keeps
    /// it may help lay them out meanwhile.
    public static func scene(
        for located: LocatedDocument, background: Color? = nil,
        images: ImageLoader = ImageLoader(), deadline: UInt64? = nil, drawnFor options: RenderOptions? = nil,
        textsAhead: TextLayoutAhead = TextLayoutAhead()
    ) throws(RenderError) -> Scene {
        guard let renderable = located.document as? any RenderableDocument else {
            throw .unsupportedDocument(file: located.displayName, type: "\(type(of: located.document))")
        }
        if let options, ImageReduction.applies(to: options.imageFilter), let layout = renderable.imageLayout,
            let toOutput = try? canvasToOutput(canvas: layout.canvasSize, options: options)
        {
            images.planDecoding(layout, canvasToOutput: toOutput, format: options.format)
        }
        // The images decode on the idle cores at once, and the texts are laid out as one more
        // job among them (which a caller with nothing else to do may help with: `textsAhead`);
        // the lowering then finds both ready. (On one core the lowering does both, in order.)
        let threads = EncoderParallelism.threads()
        let texts = threads > 1 ? renderable.textsToLayOut : []
        let layOutTexts: (@Sendable () -> Void)?
        if texts.isEmpty {
            layOutTexts = nil
        } else {
            textsAhead.begin(texts, fonts: .shared, deadline: deadline)
            layOutTexts = { textsAhead.layOut() }
        }
        images.deadline = deadline
        images.prefetch(
            located.document.referencedFileNames, inFolder: located.resourceFolder, threads: threads,
            alongside: layOutTexts)
        StageTimings.mark("decode images")
        let context = LoweringContext(
            resourceFolder: located.resourceFolder, file: located.displayName, images: images,
            background: background, textsAhead: texts.isEmpty ? nil : textsAhead)
        var scene = renderable.scene(in: context)
        scene.file = located.displayName
        scene.deadline = deadline
        if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { throw .timedOut(file: located.displayName) }
        return scene
    }

    /// Renders to pixels.
    public static func render(_ located: LocatedDocument, options: RenderOptions = RenderOptions()) throws(RenderError)
        -> RenderedImage
    {
        let scene = try scene(for: located, background: options.background, drawnFor: options)
        let (area, pixels) = try region(of: scene, options: options)
        let image = try CairoSceneRenderer.rasterize(
            scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
            canvasToOutput: options.size.canvasToOutput(canvas: area, pixels: pixels), imageFilter: options.imageFilter)
        return RenderedImage(image: image, warnings: scene.warnings)
    }

    /// Renders and encodes in `options.format`.
    public static func export(_ located: LocatedDocument, options: RenderOptions = RenderOptions()) throws(RenderError)
        -> ExportedFile
    {
        try export(try scene(for: located, background: options.background, drawnFor: options), options: options)
    }

    /// Renders and encodes as PNG bytes, whatever `options.format` says.
    public static func renderPNG(_ located: LocatedDocument, options: RenderOptions = RenderOptions()) throws(RenderError) -> (
        png: [UInt8], warnings: [DocumentWarning]
    ) {
        var pngOptions = options
        pngOptions.format = .png
        let file = try export(located, options: pngOptions)
        return (file.bytes, file.warnings)
    }

    /// The transform from a canvas of `canvas` size to the output's pixels under `options`.
    static func canvasToOutput(canvas: Size, options: RenderOptions) throws(RenderError) -> Transform2D {
        let (area, pixels) = try region(ofCanvas: canvas, options: options)
        return options.size.canvasToOutput(canvas: area, pixels: pixels)
    }

    /// The canvas rectangle `options` renders and the output's pixel size for it.
    package static func region(of scene: Scene, options: RenderOptions) throws(RenderError) -> (
        area: Rect, pixels: (width: Int, height: Int)
    ) {
        try region(ofCanvas: scene.canvasSize, options: options)
    }

    /// The rectangle of a canvas of `canvas` size that `options` renders, and its pixel size.
    static func region(ofCanvas canvas: Size, options: RenderOptions) throws(RenderError) -> (
        area: Rect, pixels: (width: Int, height: Int)
    ) {
        let whole = Rect(origin: .zero, size: canvas)
        let area = options.area?.rect ?? whole
        guard area.width > 0, area.height > 0, area.width.isFinite, area.height.isFinite else {
            throw .invalidSize("the area \(area) has no size")
        }
        let pixels = try options.size.pixelSize(for: area.size)
        // cairo draws in fixed point: at a zoom of millions of pixels to a unit (a speck of a
        // canvas drawn large) coordinates wrap and a stroke's pen can run for hours; at one of
        // a millionth its matrices cannot be inverted.
        let zooms = [Double(pixels.width) / area.width, Double(pixels.height) / area.height]
        guard zooms.allSatisfy({ $0 >= minZoom && $0 <= maxZoom }) else {
            // (Numbers too small for the usual decimals are written as they are.)
            func number(_ value: Double) -> String { abs(value) < 0.01 ? String(value) : formatNumber(value) }
            let zoom = zooms.max()! > maxZoom ? zooms.max()! : zooms.min()!
            throw .invalidSize(
                "\(pixels.width)x\(pixels.height) pixels for \(number(area.width))x\(number(area.height)) canvas units would draw \(number(zoom)) pixels to a canvas unit; Easel draws from a millionth to \(formatNumber(maxZoom))"
            )
        }
        return (area, pixels)
    }

    /// The deepest zoom a document is drawn at, in output pixels to a canvas unit.
    public static let maxZoom = 65_536.0
    /// The widest zoom out, in output pixels to a canvas unit.
    public static let minZoom = 0.000_001

    /// The largest side of an SVG or PDF page, in points (about 350 metres; cairo's own
    /// limit is near 8 million).
    public static let maxPagePoints: Double = 1_000_000

    /// Encodes a scene in `options.format`.
    public static func export(_ scene: Scene, options: RenderOptions) throws(RenderError) -> ExportedFile {
        let (area, pixels) = try region(of: scene, options: options)
        let toOutput = options.size.canvasToOutput(canvas: area, pixels: pixels)
        let bytes: [UInt8]
        switch options.format {
        case .png:
            StageTimings.mark("lower")
            let banded = Locked<[UInt8]>([])
            if try encodePNGInBands(scene, options: options, emit: { part in banded.withLock { $0 += part } }) {
                bytes = banded.withLock { $0 }
            } else {
                let image = try rasterizePNG(scene, options: options)
                do { bytes = try PNGEncoder.encode(image, options: options.png) } catch { throw .png(error) }
                StageTimings.mark("encode")
            }
        case .svg, .pdf:
            // With a dpi, the page is the pixels' physical size in points (72 per inch).
            let points = options.dpi.map { 72 / $0 } ?? 1
            let page = Size(width: Double(pixels.width) * points, height: Double(pixels.height) * points)
            // Cairo works in fixed point (24.8) and aborts the process past about 8 million
            // units, so a tiny dpi is refused here, with what to do, rather than reaching it.
            guard points.isFinite, points > 0, max(page.width, page.height) <= maxPagePoints else {
                throw .invalidSize(
                    "a \(pixels.width)x\(pixels.height) page at \(options.dpi.map { formatNumber($0) } ?? "72") dpi would be \(formatNumber(page.width))x\(formatNumber(page.height)) points, over the limit of \(formatNumber(maxPagePoints)) points a side; give a larger dpi or a smaller size"
                )
            }
            bytes = try CairoSceneRenderer.vectorFile(
                scene, format: options.format == .svg ? .svg : .pdf, width: page.width, height: page.height,
                physical: options.dpi != nil, canvasToOutput: toOutput.concatenating(.scale(x: points, y: points)),
                imageFilter: options.imageFilter)
        }
        return ExportedFile(
            bytes: bytes, format: options.format, width: pixels.width, height: pixels.height, warnings: scene.warnings)
    }
}

/// A file an export wrote: its size, format and the warnings noticed (the bytes are on disk).
public struct WrittenFile: Sendable {
    /// Its format.
    public var format: OutputFormat
    /// Its size in pixels (SVG and PDF: in points at 1 point a pixel).
    public var width: Int
    /// Its height in pixels (SVG and PDF: in points).
    public var height: Int
    /// How many bytes were written.
    public var byteCount: Int
    /// What the lowering noticed but drew around.
    public var warnings: [DocumentWarning]
}

extension DocumentRenderer {
    /// Renders `located` in `options.format` and writes it to `path` atomically: a PNG's
    /// chunks go to a temporary file beside `path` as their bands are deflated (the disk
    /// starts on them while later bands deflate), then the file is flushed and renamed over
    /// `path`. The bytes are those `export` returns; a failure on the way leaves `path` as
    /// it was. With `creatingFolders`, missing folders above `path` are made once the
    /// rendering succeeded; otherwise a missing folder is an error.
    public static func export(
        _ located: LocatedDocument, options: RenderOptions = RenderOptions(), writingTo path: String,
        creatingFolders: Bool = false
    ) throws(RenderError) -> WrittenFile {
        try export(
            try scene(for: located, background: options.background), options: options, writingTo: path,
            creatingFolders: creatingFolders)
    }

    /// Renders `scene` and writes it to `path` atomically, as `export(_:options:writingTo:creatingFolders:)`.
    public static func export(_ scene: Scene, options: RenderOptions, writingTo path: String, creatingFolders: Bool = false)
        throws(RenderError) -> WrittenFile
    {
        func makeFolders() throws(RenderError) {
            guard creatingFolders else { return }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do { try FileIO.createFolders(at: folder) } catch { throw .io(path: folder, message: error.reason) }
        }
        guard options.format == .png else {
            let file = try export(scene, options: options)
            try makeFolders()
            try file.write(to: path)
            return WrittenFile(
                format: file.format, width: file.width, height: file.height, byteCount: file.bytes.count,
                warnings: file.warnings)
        }
        func newStream() throws(RenderError) -> AtomicFileStream {
            do { return try AtomicFileStream(to: path, writebackEvery: 256 << 10) } catch {
                throw .io(path: path, message: error.reason)
            }
        }
        let (area, pixels) = try region(of: scene, options: options)
        let (width, height) = (pixels.width, pixels.height)
        StageTimings.mark("lower")
        var written: AtomicFileStream? = nil
        // Bands go to the file as they are made, so the folder must be there before the
        // drawing starts: a missing one (made only once a rendering succeeded) takes the
        // whole image's way.
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if CairoSceneRenderer.encodesPNGInBands(
            scene, pixelWidth: width, pixelHeight: height,
            canvasToOutput: options.size.canvasToOutput(canvas: area, pixels: pixels), png: options.png),
            !creatingFolders || FileManager.default.fileExists(atPath: folder)
        {
            let stream = try newStream()
            if try encodePNGInBands(scene, options: options, emit: { stream.append($0) }) { written = stream }
            // Otherwise a band was not opaque after all: the abandoned temporary file is
            // removed, and the whole image goes to a new one.
        }
        if written == nil {
            var image: RasterImage? = try rasterizePNG(scene, options: options)
            try makeFolders()
            let stream = try newStream()
            do { try PNGEncoder.encode(image!, options: options.png) { stream.append($0) } } catch { throw .png(error) }
            StageTimings.mark("encode")
            // A large image is unmapped on another core while this one waits for the disk.
            if CairoSceneRenderer.isLarge(width, height) && EncoderParallelism.threads() > 1 {
                Parallel.releaseInBackground(&image)
            }
            written = stream
        }
        let stream = written!
        do { try stream.commit() } catch { throw .io(path: path, message: error.reason) }
        return WrittenFile(
            format: .png, width: width, height: height, byteCount: stream.bytesWritten, warnings: scene.warnings)
    }

    /// Draws and encodes the scene band by band when it can
    /// (`CairoSceneRenderer.encodePNGInBands`); false when it did not, and what was emitted
    /// must be thrown away.
    static func encodePNGInBands(
        _ scene: Scene, options: RenderOptions, emit: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(RenderError) -> Bool {
        let (area, pixels) = try region(of: scene, options: options)
        let done = try CairoSceneRenderer.encodePNGInBands(
            scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
            canvasToOutput: options.size.canvasToOutput(canvas: area, pixels: pixels), imageFilter: options.imageFilter,
            png: options.png, emit: emit)
        if done { StageTimings.mark("rasterise and encode in bands") }
        return done
    }

    /// The scene's pixels at the size and area `options` ask for (what a PNG export encodes),
    /// after `encodePNGInBands` declined.
    static func rasterizePNG(_ scene: Scene, options: RenderOptions) throws(RenderError) -> RasterImage {
        let (area, pixels) = try region(of: scene, options: options)
        let image = try CairoSceneRenderer.rasterize(
            scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
            canvasToOutput: options.size.canvasToOutput(canvas: area, pixels: pixels), imageFilter: options.imageFilter)
        StageTimings.mark("rasterise")
        return image
    }
}

extension ExportedFile {
    /// Writes the bytes to `path` atomically (temporary file in the same folder, then
    /// rename), so a reader never sees half a file and a failure leaves any previous file
    /// intact. Throws when the folder does not exist.
    public func write(to path: String) throws(RenderError) {
        try writeFileAtomically(bytes, to: path)
    }
}

extension RasterImage {
    /// Encodes the image as PNG and writes it to `path` atomically.
    public func writePNG(to path: String, options: PNGEncodingOptions = .default) throws(RenderError) {
        let bytes: [UInt8]
        do { bytes = try PNGEncoder.encode(self, options: options) } catch { throw .png(error) }
        try writeFileAtomically(bytes, to: path)
    }
}

/// Writes bytes atomically, mapping the document layer's error to a render error.
func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(RenderError) {
    do {
        try AtomicFile.write(bytes, to: path)
    } catch {
        throw .io(path: path, message: error.reason)
    }
}
