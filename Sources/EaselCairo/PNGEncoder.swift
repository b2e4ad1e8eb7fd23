import CEaselPNG

/// How PNG output is compressed. The defaults come from the measurements in docs/rendering.md
/// and docs/performance.md (PNG settings): zlib level 1 with the UP filter encodes a card several times
/// faster than libpng's defaults, for files slightly larger.
public struct PNGEncodingOptions: Codable, Hashable, Sendable {
    /// Which channels the PNG file stores.
    public enum ColorMode: String, Codable, Sendable, CaseIterable {
        /// RGB when every pixel is opaque (a card always is), RGBA otherwise.
        case auto
        case rgba
        /// Drops alpha; for images known to be opaque.
        case rgb
    }

    /// The PNG row filters libpng may choose from; more choices can compress better but
    /// encode more slowly.
    public struct Filters: OptionSet, Codable, Hashable, Sendable {
        /// The shim's filter bit mask.
        public let rawValue: Int32
        /// A filter set from the shim's bit mask.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Rows stored as they are.
        public static let none = Filters(rawValue: Int32(EASEL_PNG_FILTER_NONE))
        /// Each byte stored as the difference from the pixel to its left.
        public static let sub = Filters(rawValue: Int32(EASEL_PNG_FILTER_SUB))
        /// Each byte stored as the difference from the pixel above; Easel's default.
        public static let up = Filters(rawValue: Int32(EASEL_PNG_FILTER_UP))
        /// Each byte stored as the difference from the average of the pixels left and above.
        public static let average = Filters(rawValue: Int32(EASEL_PNG_FILTER_AVG))
        /// Each byte predicted from the pixels left, above and above-left (Paeth's predictor).
        public static let paeth = Filters(rawValue: Int32(EASEL_PNG_FILTER_PAETH))
        /// libpng's adaptive choice among all five, row by row.
        public static let all: Filters = [.none, .sub, .up, .average, .paeth]
    }

    /// 1 (the default): Easel's own writer, deflating with ISA-L; 0 (store) and 2 to 9
    /// (smaller files, slower): zlib's levels through libpng.
    public var compressionLevel: Int
    /// The row filters libpng may use; must not be empty.
    public var filters: Filters
    /// Which channels are stored.
    public var colorMode: ColorMode

    /// Options; by default Easel's fast choice (level 1, the UP filter, alpha only when needed).
    public init(compressionLevel: Int = 1, filters: Filters = .up, colorMode: ColorMode = .auto) {
        self.compressionLevel = compressionLevel
        self.filters = filters
        self.colorMode = colorMode
    }

    /// Easel's fast defaults: zlib level 1, the UP filter, alpha only when needed.
    public static let `default` = PNGEncodingOptions()
    /// libpng's own defaults (level 6, adaptive filters), as cairo_surface_write_to_png uses.
    public static let libpngDefaults = PNGEncodingOptions(compressionLevel: 6, filters: .all, colorMode: .rgba)
}

/// Encodes a `RasterImage` as PNG (8 bits per channel, straight alpha) through the shim,
/// reading cairo's pixel memory directly.
public enum PNGEncoder {
    /// The PNG file bytes for `image`; throws `encodeFailed` for a level outside 0...9 or an
    /// empty filter set, `outOfMemory` when libpng runs out.
    public static func encode(_ image: RasterImage, options: PNGEncodingOptions = .default) throws(PNGError) -> [UInt8] {
        if let fast = try fastWriterAlpha(image, options: options) {
            return try FastPNGWriter.encode(image, keepAlpha: fast)
        }
        return try encodeWithLibpng(image, options: options)
    }

    /// Hands the PNG file's bytes to `emit` in order as they are made: Easel's own writer
    /// emits each band's chunk as soon as it is deflated (a file export writes while later
    /// bands deflate); libpng's levels emit the whole file at the end. The bytes are those
    /// `encode` returns.
    package static func encode(
        _ image: RasterImage, options: PNGEncodingOptions = .default, emit: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(PNGError) {
        if let fast = try fastWriterAlpha(image, options: options) {
            return try FastPNGWriter.encode(image, keepAlpha: fast, emit: emit)
        }
        try encodeWithLibpng(image, options: options).withUnsafeBytes { emit($0) }
    }

    /// Changes whenever Easel's own writer makes other bytes for the same pixels (2: a
    /// band's first row unfiltered; 3: bands of 256 rows), for what promises the same bytes
    /// for the same tag (the server's strong render ETags); the batch's renderer version
    /// follows pixels only.
    public static let writerVersion = "easel-png-3"

    /// Rows per band of Easel's own writer: the file's bytes depend on this cut, which is the
    /// same whatever the number of cores.
    package static let bandRows = FastPNGWriter.bandRows

    /// Draws a `width` x `height` image band by band and encodes each band as soon as it is
    /// drawn (`draw` fills the rows it is given, in an image whose first row is the first of
    /// them), handing the file's bytes to `emit` in order: the bytes of drawing the whole
    /// image in the same bands and calling `encode(_:options:emit:)`, without the whole
    /// image in memory. Returns false, having drawn nothing, when `options` need the whole
    /// image (libpng's levels), or when `.auto` colour is asked and the caller cannot promise
    /// an opaque image (`expectOpaque`); and false too when a band then turns out not opaque:
    /// whatever was emitted must be thrown away and the image encoded the usual way.
    package static func encodeDrawnInBands(
        width: Int, height: Int, options: PNGEncodingOptions, expectOpaque: Bool, threads: Int? = nil,
        draw: @escaping @Sendable (RasterImage, Range<Int>) throws -> Void,
        emit: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws -> Bool {
        guard encodesDrawnInBands(options: options, expectOpaque: expectOpaque) else { return false }
        let outcome = try BandedPNGExport.encode(
            width: width, height: height, keepAlpha: options.colorMode == .rgba, checkOpaque: options.colorMode == .auto,
            threads: threads, draw: draw, emit: emit)
        return outcome == .encoded
    }

    /// Whether `encodeDrawnInBands` takes an image with these `options` (Easel's own writer,
    /// and for `.auto` colour an image the caller expects to be opaque).
    package static func encodesDrawnInBands(options: PNGEncodingOptions, expectOpaque: Bool) -> Bool {
        options.compressionLevel == 1 && options.filters == .up && (options.colorMode != .auto || expectOpaque)
    }

    /// Whether the fast writer keeps alpha, or nil when `options` ask for libpng's path
    /// (another level or filter); throws for options no path takes.
    private static func fastWriterAlpha(_ image: RasterImage, options: PNGEncodingOptions) throws(PNGError) -> Bool? {
        guard (0...9).contains(options.compressionLevel) else {
            throw .encodeFailed("the compression level must be 0 to 9, not \(options.compressionLevel)")
        }
        guard !options.filters.isEmpty else { throw .encodeFailed("at least one PNG filter must be allowed") }
        // The default (level 1, UP): Easel's own writer with ISA-L, on idle cores too. Other
        // levels and filters ask for smaller files: libpng and zlib, as before.
        if options.compressionLevel == 1 && options.filters == .up {
            let keepAlpha: Bool
            switch options.colorMode {
            case .auto: keepAlpha = image.hasAlpha && !FastPNGWriter.isOpaque(image)
            case .rgba: keepAlpha = true
            case .rgb: keepAlpha = false
            }
            return keepAlpha
        }
        return nil
    }

    /// libpng and zlib at the options' level and filters.
    private static func encodeWithLibpng(_ image: RasterImage, options: PNGEncodingOptions) throws(PNGError) -> [UInt8] {
        var cOptions = easel_png_encode_options()
        cOptions.compression_level = Int32(options.compressionLevel)
        cOptions.filters = options.filters.rawValue
        switch options.colorMode {
        case .auto: cOptions.color_mode = image.hasAlpha ? EASEL_PNG_COLOR_AUTO : EASEL_PNG_COLOR_RGB
        case .rgba: cOptions.color_mode = EASEL_PNG_COLOR_RGBA
        case .rgb: cOptions.color_mode = EASEL_PNG_COLOR_RGB
        }
        var buffer = easel_png_buffer()
        defer { easel_png_buffer_free(&buffer) }
        var message = [CChar](repeating: 0, count: 256)
        let status = image.withUnsafePixels { pixels in
            easel_png_encode_argb32(
                pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width),
                UInt32(image.height), image.stride, &cOptions, &buffer, &message, message.count)
        }
        guard status == EASEL_PNG_OK else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw status == EASEL_PNG_OUT_OF_MEMORY ? .outOfMemory : .encodeFailed(text)
        }
        return Array(UnsafeBufferPointer(start: buffer.bytes, count: buffer.length))
    }
}
