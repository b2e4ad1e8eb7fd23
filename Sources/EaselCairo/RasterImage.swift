import CEaselCairo

/// A bitmap in cairo's ARGB32 format (premultiplied alpha, native-endian 32-bit pixels),
/// owning its cairo image surface: `deinit` destroys it. Rendering draws into one; PNG
/// decoding fills one; the golden comparator reads them.
///
/// Not thread-safe: each render owns its own images.
public final class RasterImage {
    let surface: OpaquePointer

    /// The image's width in pixels.
    public let width: Int
    /// The image's height in pixels.
    public let height: Int
    /// Bytes from one row of pixels to the next (at least `width * 4`; cairo may pad rows).
    public var stride: Int { Int(cairo_image_surface_get_stride(surface)) }
    /// False for RGB24 surfaces, whose top byte is padding.
    var hasAlpha: Bool { cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 }
    /// True for RGB24 surfaces (cairo's reader makes them for opaque PNGs): the top byte of
    /// each pixel is padding and must be read as opaque.
    public var isOpaqueFormat: Bool { !hasAlpha }

    /// A transparent image. Throws instead of allocating when the size is over the limits.
    public init(width: Int, height: Int) throws(CairoError) {
        try RenderLimits.checkOutput(width: width, height: height)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError.status(status, in: "cairo_image_surface_create(\(width)x\(height))")
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(surface) }

    /// Read access to the pixel rows, after pending drawing is flushed.
    public func withUnsafePixels<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height))
    }

    /// Write access to the pixel rows; cairo is told afterwards that they changed.
    public func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        defer { cairo_surface_mark_dirty(surface) }
        return try body(UnsafeMutableRawBufferPointer(start: data, count: stride * height))
    }

    /// The pixel at (x, y) as premultiplied components.
    public func premultipliedPixel(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return withUnsafePixels { pixels in
            let value = pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
            // RGB24 surfaces (cairo's reader makes them for opaque PNGs) leave the top byte undefined.
            return RGBA8(argb32: hasAlpha ? value : value | 0xFF00_0000)
        }
    }

    /// The pixel at (x, y) with straight (un-premultiplied) colour, as a PNG stores it.
    public func pixel(x: Int, y: Int) -> RGBA8 {
        premultipliedPixel(x: x, y: y).unpremultiplied
    }

    /// Writes the image as PNG through cairo's own writer (used to cross-check the shim).
    public func writePNGWithCairo(to path: String) throws(CairoError) {
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .io(path: path, message: "cairo could not write the PNG: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// Reads a PNG through cairo's own reader (used to cross-check the shim).
    public static func readPNGWithCairo(at path: String) throws(CairoError) -> RasterImage {
        let surface = cairo_image_surface_create_from_png(path)!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError.status(status, in: "cairo_image_surface_create_from_png(\(path))")
        }
        return RasterImage(adopting: surface)
    }

    /// A new image holding a copy of `pixels`.
    public convenience init(copying pixels: PixelBuffer) throws(CairoError) {
        try self.init(width: pixels.width, height: pixels.height)
        withUnsafeMutablePixels { destination in
            pixels.withUnsafeBytes { source in
                for row in 0..<height {
                    let target = destination.baseAddress! + row * stride
                    target.copyMemory(from: source.baseAddress! + row * pixels.stride, byteCount: width * 4)
                }
            }
        }
    }

    /// Rows `rows` of this image as an image of their own, drawing into the same memory (for
    /// rasterising bands on several cores). Call `markDirty()` on this image once the strips
    /// are drawn.
    public func strip(rows: Range<Int>) throws(CairoError) -> RasterImage {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height && !rows.isEmpty, "rows outside the image")
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)! + rows.lowerBound * stride
        let strip = cairo_image_surface_create_for_data(
            data, cairo_image_surface_get_format(surface), Int32(width), Int32(rows.count), Int32(stride))!
        let status = cairo_surface_status(strip)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(strip)
            throw CairoError.status(status, in: "cairo_image_surface_create_for_data(strip \(rows))")
        }
        // The strip keeps the whole image's memory alive.
        let parent = UnsafeMutableRawPointer(cairo_surface_reference(surface))
        let attached = cairo_surface_set_user_data(strip, &RasterImage.parentKey, parent) { parent in
            cairo_surface_destroy(OpaquePointer(parent))
        }
        guard attached == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            cairo_surface_destroy(strip)
            throw CairoError.status(attached, in: "cairo_surface_set_user_data")
        }
        return RasterImage(adopting: strip)
    }

    /// Tells cairo the pixels changed behind its back (after strips were drawn).
    public func markDirty() { cairo_surface_mark_dirty(surface) }

    nonisolated(unsafe) static var parentKey = cairo_user_data_key_t()

    /// The MIME type of the file given with `attachEncodedFile`, if any.
    public private(set) var attachedFileType: String?

    /// Gives cairo the file the pixels were decoded from (`mimeType` "image/png" or
    /// "image/jpeg"), so an SVG embeds the file itself, and a PDF a JPEG as it is, instead
    /// of encoding the pixels again. Only for bytes that decode to exactly these pixels
    /// (`ImageDecoder.embeddableMIMEType`).
    public func attachEncodedFile(_ bytes: [UInt8], mimeType: String) throws(CairoError) {
        guard !bytes.isEmpty, let copy = malloc(bytes.count) else { return }
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let status = cairo_surface_set_mime_data(
            surface, mimeType, copy.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), { free($0) }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            throw CairoError.status(status, in: "cairo_surface_set_mime_data")
        }
        attachedFileType = mimeType
    }

    /// An image drawing from `pixels` without copying them: the cairo surface points at the
    /// buffer's memory and keeps the buffer alive for as long as cairo holds the surface
    /// (a PDF or SVG surface may hold it until it is finished).
    public convenience init(sharing pixels: PixelBuffer) throws(CairoError) {
        try self.init(over: pixels.bytes, width: pixels.width, height: pixels.height, stride: pixels.stride, keeping: pixels)
    }

    /// A `width` x `height` image over the first `width * height` pixels of `buffer`'s memory
    /// (rows `width * 4` bytes apart), whatever the buffer's own shape: scratch memory reused
    /// for images of different sizes. Nil when the buffer holds fewer bytes.
    convenience init?(reusing buffer: PixelBuffer, width: Int, height: Int) throws(CairoError) {
        guard width > 0, height > 0, width * 4 * height <= buffer.stride * buffer.height else { return nil }
        try self.init(over: buffer.bytes, width: width, height: height, stride: width * 4, keeping: buffer)
    }

    /// An ARGB32 image over memory that is not cairo's (rows `stride` bytes apart), whose
    /// surface keeps `owner`, the memory's owner, alive until cairo lets the surface go.
    private convenience init(
        over bytes: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, keeping owner: AnyObject
    ) throws(CairoError) {
        let surface = cairo_image_surface_create_for_data(
            bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError.status(status, in: "cairo_image_surface_create_for_data(\(width)x\(height))")
        }
        let retained = Unmanaged.passRetained(owner).toOpaque()
        let attached = cairo_surface_set_user_data(surface, &RasterImage.ownerKey, retained) { owner in
            Unmanaged<AnyObject>.fromOpaque(owner!).release()
        }
        guard attached == CAIRO_STATUS_SUCCESS else {
            Unmanaged<AnyObject>.fromOpaque(retained).release()
            cairo_surface_destroy(surface)
            throw CairoError.status(attached, in: "cairo_surface_set_user_data")
        }
        self.init(adopting: surface)
    }

    /// The key under which a surface over outside memory holds that memory's owner.
    nonisolated(unsafe) private static var ownerKey = cairo_user_data_key_t()

    /// Takes ownership of an ARGB32 or RGB24 image surface (they share the pixel layout).
    init(adopting surface: OpaquePointer) {
        self.surface = surface
        self.width = Int(cairo_image_surface_get_width(surface))
        self.height = Int(cairo_image_surface_get_height(surface))
    }
}

/// One pixel's four 8-bit channels.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    /// The channels, 0 to 255 each: premultiplied or straight, as the method returning it says.
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    /// A pixel with these channel values (0 to 255).
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        (self.r, self.g, self.b, self.a) = (r, g, b, a)
    }

    init(argb32 value: UInt32) {
        self.init(
            r: UInt8(truncatingIfNeeded: value >> 16), g: UInt8(truncatingIfNeeded: value >> 8),
            b: UInt8(truncatingIfNeeded: value), a: UInt8(truncatingIfNeeded: value >> 24))
    }

    /// Straight colour from premultiplied, rounding as cairo and the PNG shim do.
    public var unpremultiplied: RGBA8 {
        guard a != 0 else { return RGBA8(r: 0, g: 0, b: 0, a: 0) }
        guard a != 255 else { return self }
        func u(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a))) }
        return RGBA8(r: u(r), g: u(g), b: u(b), a: a)
    }

    /// The largest difference between any two corresponding channels.
    public func maxChannelDifference(to other: RGBA8) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)), abs(Int(a) - Int(other.a)))
    }

    /// `rgba(r, g, b, a)` with channels 0 to 255, for messages.
    public var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}
