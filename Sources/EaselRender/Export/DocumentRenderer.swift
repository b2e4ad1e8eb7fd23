import Foundation
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
    /// Lowers a document to a scene, resolving its images in its resource folder.
    /// `background`, when set, replaces the document's own.
    public static func scene(
        for located: LocatedDocument, background: Color? = nil,
        images: ImageLoader = ImageLoader()
    ) throws(RenderError) -> Scene {
        guard let renderable = located.document as? any RenderableDocument else {
            throw .unsupportedDocument(file: located.displayName, type: "\(type(of: located.document))")
        }
        let context = LoweringContext(
            resourceFolder: located.resourceFolder, file: located.displayName, images: images,
            background: background)
        var scene = renderable.scene(in: context)
        scene.file = located.displayName
        return scene
    }

    /// Renders to pixels.
    public static func render(_ located: LocatedDocument, options: RenderOptions = RenderOptions()) throws(RenderError)
        -> RenderedImage
    {
        let scene = try scene(for: located, background: options.background)
        let pixels = try options.size.pixelSize(for: scene.canvasSize)
        let image = try CairoSceneRenderer.rasterize(
            scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
            imageFilter: options.imageFilter)
        return RenderedImage(image: image, warnings: scene.warnings)
    }

    /// Renders and encodes in `options.format`.
    public static func export(_ located: LocatedDocument, options: RenderOptions = RenderOptions()) throws(RenderError)
        -> ExportedFile
    {
        try export(try scene(for: located, background: options.background), options: options)
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

    /// Encodes a scene in `options.format`.
    public static func export(_ scene: Scene, options: RenderOptions) throws(RenderError) -> ExportedFile {
        let pixels = try options.size.pixelSize(for: scene.canvasSize)
        let bytes: [UInt8]
        switch options.format {
        case .png:
            let image = try CairoSceneRenderer.rasterize(
                scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
                imageFilter: options.imageFilter)
            do { bytes = try PNGEncoder.encode(image, options: options.png) } catch { throw .png(error) }
        case .svg:
            bytes = try CairoSceneRenderer.vectorFile(
                scene, format: .svg, width: pixels.width, height: pixels.height,
                imageFilter: options.imageFilter)
        case .pdf:
            bytes = try CairoSceneRenderer.vectorFile(
                scene, format: .pdf, width: pixels.width, height: pixels.height,
                imageFilter: options.imageFilter)
        }
        return ExportedFile(
            bytes: bytes, format: options.format, width: pixels.width, height: pixels.height, warnings: scene.warnings)
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
