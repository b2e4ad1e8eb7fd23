import Foundation
import EaselGeometry
import EaselDocuments

/// The file formats Easel exports.
public enum OutputFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case png, svg, pdf

    public var fileExtension: String { rawValue }
    public var description: String { rawValue.uppercased() }
}

/// Options for rendering a document.
public struct RenderOptions: Hashable, Sendable {
    public var format: OutputFormat
    public var size: OutputSize
    /// Replaces the document's background (cards and drawings alike) when set.
    public var background: Color?
    public var imageFilter: ImageFilter
    public var png: PNGEncodingOptions

    public init(format: OutputFormat = .png, size: OutputSize = .share, background: Color? = nil,
                imageFilter: ImageFilter = .good, png: PNGEncodingOptions = .default) {
        self.format = format
        self.size = size
        self.background = background
        self.imageFilter = imageFilter
        self.png = png
    }
}

/// A rendered document: its pixels and what was noticed on the way.
public struct RenderedImage {
    public var image: RasterImage
    public var warnings: [DocumentWarning]
}

/// An exported file's bytes, with its pixel size and the warnings noticed.
public struct ExportedFile {
    public var bytes: [UInt8]
    public var format: OutputFormat
    public var width: Int
    public var height: Int
    public var warnings: [DocumentWarning]
}

/// The library's front door for rendering: document in, pixels or file bytes out.
/// Each call owns its images, surfaces and contexts, so documents can be rendered on
/// several threads at once; fonts are shared through `FontLibrary.shared`.
public enum DocumentRenderer {
    /// Lowers a document to a scene. `url` is where the document lives (its images are
    /// resolved next to it).
    public static func scene(for document: any FileDocument, at url: URL, background: Color? = nil,
                             images: ImageLoader = ImageLoader()) throws(RenderError) -> Scene {
        var scene: Scene
        if var card = document as? Card {
            if let background { card.backgroundColor = background }
            scene = CardLowering.scene(for: card, folder: url.deletingLastPathComponent(), images: images, file: url.path)
        } else if var drawing = document as? Drawing {
            if let background { drawing.background = background }
            scene = DrawingLowering.scene(for: drawing, imageFolder: Drawing.imageFolder(for: url), images: images, file: url.path)
        } else {
            throw .invalidSize("\(url.path): Easel cannot render a \(type(of: document)) document")
        }
        return scene
    }

    /// Renders to pixels.
    public static func render(_ document: any FileDocument, at url: URL, options: RenderOptions = RenderOptions()) throws(RenderError) -> RenderedImage {
        let scene = try scene(for: document, at: url, background: options.background)
        let pixels = try options.size.pixelSize(for: scene.canvasSize)
        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
                                                     imageFilter: options.imageFilter)
        return RenderedImage(image: image, warnings: scene.warnings)
    }

    /// Renders and encodes in `options.format`.
    public static func export(_ document: any FileDocument, at url: URL, options: RenderOptions = RenderOptions()) throws(RenderError) -> ExportedFile {
        let scene = try scene(for: document, at: url, background: options.background)
        return try export(scene, options: options)
    }

    /// Encodes a scene in `options.format`.
    public static func export(_ scene: Scene, options: RenderOptions) throws(RenderError) -> ExportedFile {
        let pixels = try options.size.pixelSize(for: scene.canvasSize)
        let bytes: [UInt8]
        switch options.format {
        case .png:
            let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
                                                         imageFilter: options.imageFilter)
            do { bytes = try PNGEncoder.encode(image, options: options.png) } catch { throw .png(error) }
        case .svg, .pdf:
            bytes = try VectorExport.render(scene, format: options.format, width: pixels.width, height: pixels.height,
                                            imageFilter: options.imageFilter)
        }
        return ExportedFile(bytes: bytes, format: options.format, width: pixels.width, height: pixels.height, warnings: scene.warnings)
    }

    /// Renders and encodes as PNG bytes.
    public static func renderPNG(_ document: any FileDocument, at url: URL, options: RenderOptions = RenderOptions()) throws(RenderError) -> (png: [UInt8], warnings: [DocumentWarning]) {
        var pngOptions = options
        pngOptions.format = .png
        let file = try export(document, at: url, options: pngOptions)
        return (file.bytes, file.warnings)
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
        if case .io(let message) = error.kind { throw .io(path: path, message: message) }
        throw .io(path: path, message: error.description)
    }
}
