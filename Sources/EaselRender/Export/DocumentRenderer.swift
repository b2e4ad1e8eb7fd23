import Foundation
import EaselGeometry
import EaselDocuments

/// Options for rendering a document to pixels.
public struct RenderOptions: Hashable, Sendable {
    public var size: OutputSize
    public var imageFilter: ImageFilter
    public var png: PNGEncodingOptions

    public init(size: OutputSize = .share, imageFilter: ImageFilter = .good, png: PNGEncodingOptions = .default) {
        self.size = size
        self.imageFilter = imageFilter
        self.png = png
    }
}

/// A rendered document: its pixels and what was noticed on the way.
public struct RenderedImage {
    public var image: RasterImage
    public var warnings: [DocumentWarning]
}

/// The library's front door for rendering: document in, pixels or PNG bytes out.
public enum DocumentRenderer {
    /// Lowers a document to a scene. `url` is where the document lives (its images are
    /// resolved next to it).
    public static func scene(for document: any FileDocument, at url: URL, images: ImageLoader = ImageLoader()) throws(RenderError) -> Scene {
        if let card = document as? Card {
            return CardLowering.scene(for: card, folder: url.deletingLastPathComponent(), images: images, file: url.path)
        }
        throw .invalidSize("\(url.path): Easel cannot render a \(type(of: document)) document")
    }

    public static func render(_ document: any FileDocument, at url: URL, options: RenderOptions = RenderOptions()) throws(RenderError) -> RenderedImage {
        let scene = try scene(for: document, at: url)
        let pixels = try options.size.pixelSize(for: scene.canvasSize)
        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: pixels.width, pixelHeight: pixels.height,
                                                     imageFilter: options.imageFilter)
        return RenderedImage(image: image, warnings: scene.warnings)
    }

    /// Renders and encodes as PNG bytes.
    public static func renderPNG(_ document: any FileDocument, at url: URL, options: RenderOptions = RenderOptions()) throws(RenderError) -> (png: [UInt8], warnings: [DocumentWarning]) {
        let rendered = try render(document, at: url, options: options)
        do {
            return (try PNGEncoder.encode(rendered.image, options: options.png), rendered.warnings)
        } catch {
            throw .png(error)
        }
    }
}

extension RasterImage {
    /// Encodes the image as PNG and writes it to `path` atomically (temporary file in the
    /// same folder, then rename), so a reader never sees half a file and a failure leaves
    /// any previous file intact. Throws when the folder does not exist.
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
