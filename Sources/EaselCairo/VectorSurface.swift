import CEaselCairo

/// A cairo SVG or PDF surface streamed into memory, owning its `cairo_surface_t`
/// (destroyed in `deinit`). Draw through `context()`, then `finish()` for the file's bytes.
public final class VectorSurface {
    /// The vector formats cairo writes.
    public enum Format: Sendable, CustomStringConvertible {
        case svg, pdf
        /// "SVG" or "PDF", for messages.
        public var description: String { self == .svg ? "SVG" : "PDF" }
    }

    /// Collects what cairo writes.
    private final class ByteSink {
        var bytes: [UInt8] = []
    }

    private static let writeToSink: cairo_write_func_t = { closure, data, length in
        let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }

    /// Whether the surface writes SVG or PDF.
    public let format: Format
    let surface: OpaquePointer
    private let sink = ByteSink()
    /// The stand-ins given to cairo for images, and the rows that replace them (PDF).
    private var flateImages: [(standIn: [UInt8], image: PDFImageStreams.FlateImage)] = []

    /// A one-page document of `width` x `height` points (SVG: pixels).
    public convenience init(format: Format, width: Int, height: Int) throws(CairoError) {
        try self.init(format: format, width: Double(width), height: Double(height), physical: false)
    }

    /// A one-page document `width` x `height` units: points for PDF; for SVG pixels, or
    /// points when `physical` (an SVG with a printed size, `width="…pt"`).
    public init(format: Format, width: Double, height: Double, physical: Bool) throws(CairoError) {
        self.format = format
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        switch format {
        case .svg:
            surface = cairo_svg_surface_create_for_stream(Self.writeToSink, closure, width, height)!
            cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
            cairo_svg_surface_set_document_unit(surface, physical ? CAIRO_SVG_UNIT_PT : CAIRO_SVG_UNIT_PX)
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(Self.writeToSink, closure, width, height)!
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Easel")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError.status(status, in: "creating the \(format) surface")
        }
    }

    deinit { cairo_surface_destroy(surface) }

    /// A new drawing context on the surface (it keeps the surface alive).
    public func context() throws(CairoError) -> CairoContext {
        try CairoContext(surface: surface, owner: self)
    }

    /// PDF: the file carries `image`, the deflated rows of `raster`'s pixels, as that image's
    /// stream, instead of cairo deflating the pixels itself (see `PDFImageStreams`). Call
    /// before `raster` is drawn; an SVG ignores it (it embeds the files themselves).
    public func embed(_ image: PDFImageStreams.FlateImage, for raster: RasterImage) throws(CairoError) {
        // The stand-in's JPEG header holds each side in 16 bits (Easel's images have at most
        // 32,767 pixels a side).
        guard format == .pdf, image.columns == raster.width, image.rows == raster.height, max(image.columns, image.rows) <= 0xFFFF
        else { return }
        let standIn = PDFImageStreams.standIn(width: raster.width, height: raster.height, token: PDFImageStreams.newToken())
        try raster.attachEncodedFile(standIn, mimeType: "image/jpeg")
        flateImages.append((standIn, image))
    }

    /// Finishes the document and returns its bytes. Draw nothing after this. Throws
    /// `.imagesNotEmbedded` when a PDF's images given to `embed` could not be put in (the
    /// file is then not usable: draw it again without them).
    public func finish() throws(CairoError) -> [UInt8] {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError.status(status, in: "finishing the \(format) file") }
        switch format {
        case .svg: return SVGPageClips.rewrite(SVGUniformMasks.rewrite(sink.bytes))
        case .pdf:
            guard !flateImages.isEmpty else { return sink.bytes }
            guard let rewritten = PDFImageStreams.rewrite(sink.bytes, replacing: flateImages) else {
                throw .imagesNotEmbedded
            }
            return rewritten
        }
    }
}
