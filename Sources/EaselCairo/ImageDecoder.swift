import CEaselTurboJPEG
import CEaselWebP

/// The image formats Easel reads, told apart by their first bytes (never by a file's name:
/// the Cards app stores photos under extension-less UUIDs, and `UIImage(data:)` shows any of
/// these).
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"

    /// The format the bytes start like, or nil.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}

/// Why a JPEG or WebP image could not be read (PNG has `PNGError`).
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The format the bytes looked like.
    public var format: ImageFormat
    /// What the decoder said.
    public var message: String

    /// `JPEG: Premature end of JPEG file`, naming the format and what its decoder said.
    public var description: String { "\(format.rawValue): \(message)" }
}

/// Decodes PNG, JPEG (libjpeg-turbo) and WebP (libwebp) by content into premultiplied ARGB32
/// pixels, under the same pixel limits as PNG, checked from the header before any pixel
/// memory exists. A JPEG's EXIF orientation is applied, so photos stand as they were taken.
public enum ImageDecoder {
    /// An image's size and format, read without decoding pixels (for budgets).
    public struct Header: Equatable, Sendable {
        /// The format the bytes are in.
        public var format: ImageFormat
        /// The width and height as stored (before an EXIF orientation turns them).
        public var width: Int, height: Int
    }

    /// Opens the library that decodes `format` (on first use: CEaselOnDemand), or throws
    /// saying why it cannot be opened and which package provides it.
    static func openLibrary(for format: ImageFormat) throws(ImageError) {
        let (opened, error, library, package): (Bool, UnsafePointer<CChar>?, String, String)
        switch format {
        case .png: return
        case .jpeg:
            (opened, error, library, package) = (
                easel_turbojpeg_open() != 0, easel_turbojpeg_error(), "libjpeg-turbo", "libturbojpeg0"
            )
        case .webp: (opened, error, library, package) = (easel_webp_open() != 0, easel_webp_error(), "libwebp", "libwebp7")
        }
        guard !opened else { return }
        throw ImageError(
            format: format,
            message:
                "\(library) cannot be loaded: \(OnDemandLibrary.failure(error)) (on Debian or Ubuntu: apt-get install \(package))"
        )
    }

    /// The header of PNG, JPEG or WebP bytes. Bytes of no known format are reported as PNG's
    /// "not a PNG image" error.
    public static func header(of bytes: [UInt8]) throws -> Header {
        switch ImageFormat.sniff(bytes) {
        case .jpeg:
            let (width, height) = try jpegSize(bytes)
            return Header(format: .jpeg, width: width, height: height)
        case .webp:
            try openLibrary(for: .webp)
            var width: Int32 = 0, height: Int32 = 0
            guard easel_WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else {
                throw ImageError(format: .webp, message: "not a still WebP image libwebp can read")
            }
            return Header(format: .webp, width: Int(width), height: Int(height))
        case .png, nil:
            let header = try PNGDecoder.header(of: bytes)
            return Header(format: .png, width: header.width, height: header.height)
        }
    }

    /// Decodes PNG, JPEG or WebP bytes into Swift-owned pixels.
    public static func decodePixels(_ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels) throws -> PixelBuffer {
        switch ImageFormat.sniff(bytes) {
        case .jpeg: return try decodeJPEG(bytes, maxPixels: maxPixels)
        case .webp: return try decodeWebP(bytes, maxPixels: maxPixels)
        case .png, nil: return try PNGDecoder.decodePixels(bytes, maxPixels: maxPixels)
        }
    }

    /// Decodes into a cairo image of its own.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels) throws -> RasterImage {
        try RasterImage(copying: try decodePixels(bytes, maxPixels: maxPixels))
    }

    static func check(_ width: Int, _ height: Int, maxPixels: Int, format: ImageFormat) throws {
        guard width > 0, height > 0 else { throw ImageError(format: format, message: "the image is \(width)x\(height) pixels") }
        let pixels = width.multipliedReportingOverflow(by: height)
        guard width <= RenderLimits.maxOutputSide, height <= RenderLimits.maxOutputSide, !pixels.overflow,
            pixels.partialValue <= maxPixels
        else {
            throw ImageError(
                format: format,
                message:
                    "the image is \(width)x\(height) pixels; at most \(maxPixels) pixels and \(RenderLimits.maxOutputSide) a side"
            )
        }
    }

    // MARK: JPEG

    static func jpegSize(_ bytes: [UInt8]) throws -> (Int, Int) {
        try openLibrary(for: .jpeg)
        guard let handle = easel_tjInitDecompress() else { throw ImageError(format: .jpeg, message: "out of memory") }
        defer { easel_tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard easel_tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw ImageError(format: .jpeg, message: String(cString: easel_tjGetErrorStr2(handle)))
        }
        return (Int(width), Int(height))
    }

    static func decodeJPEG(_ bytes: [UInt8], maxPixels: Int) throws -> PixelBuffer {
        try openLibrary(for: .jpeg)
        guard let handle = easel_tjInitDecompress() else { throw ImageError(format: .jpeg, message: "out of memory") }
        defer { easel_tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard easel_tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw ImageError(format: .jpeg, message: String(cString: easel_tjGetErrorStr2(handle)))
        }
        try check(Int(width), Int(height), maxPixels: maxPixels, format: .jpeg)
        let pixels = PixelBuffer(width: Int(width), height: Int(height))
        // BGRA in memory is cairo's native-endian ARGB32 on little-endian machines; JPEG is
        // opaque, so premultiplying changes nothing.
        let status = easel_tjDecompress2(
            handle, bytes, UInt(bytes.count), pixels.bytes.assumingMemoryBound(to: UInt8.self), width, Int32(pixels.stride),
            height, Int32(TJPF_BGRA.rawValue), TJFLAG_ACCURATEDCT)
        // A warning (a truncated file) still gives an image, as the app shows one; an error
        // gives none.
        if status != 0 && easel_tjGetErrorCode(handle) == TJERR_FATAL.rawValue {
            throw ImageError(format: .jpeg, message: String(cString: easel_tjGetErrorStr2(handle)))
        }
        let oriented = Orientation(exifOf: bytes).apply(to: pixels)
        if status != 0 { oriented.damage = String(cString: easel_tjGetErrorStr2(handle)) }
        return oriented
    }

    // MARK: WebP

    static func decodeWebP(_ bytes: [UInt8], maxPixels: Int) throws -> PixelBuffer {
        try openLibrary(for: .webp)
        var width: Int32 = 0, height: Int32 = 0
        guard easel_WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else {
            throw ImageError(format: .webp, message: "not a still WebP image libwebp can read")
        }
        try check(Int(width), Int(height), maxPixels: maxPixels, format: .webp)
        let pixels = PixelBuffer(width: Int(width), height: Int(height))
        let size = pixels.stride * pixels.height
        guard
            easel_WebPDecodeBGRAInto(
                bytes, bytes.count, pixels.bytes.assumingMemoryBound(to: UInt8.self), size, Int32(pixels.stride))
                != nil
        else { throw ImageError(format: .webp, message: "libwebp cannot decode it") }
        // libwebp gives straight alpha; cairo wants it premultiplied.
        let words = pixels.bytes.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(pixels.width * pixels.height) {
            let value = words[index]
            let alpha = value >> 24
            guard alpha != 255 else { continue }
            func channel(_ shift: UInt32) -> UInt32 { (((value >> shift) & 0xFF) * alpha + 127) / 255 }
            words[index] = alpha << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
        }
        return pixels
    }
}

/// An EXIF orientation (1 to 8): how the stored pixels must be turned to stand upright.
struct Orientation: Equatable {
    var value: Int

    /// The orientation a JPEG's EXIF block (APP1) records, or 1 (upright) when there is none
    /// or it cannot be read. Every offset is checked against the bytes.
    init(exifOf bytes: [UInt8]) {
        value = Self.read(bytes) ?? 1
    }

    static func read(_ bytes: [UInt8]) -> Int? {
        var index = 2  // after SOI
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data or end: no EXIF before
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { return nil }
            let start = index + 4
            if marker == 0xE1, length >= 8, Array(bytes[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return tiffOrientation(Array(bytes[(start + 6)..<(index + 2 + length)]))
            }
            index += 2 + length
        }
        return nil
    }

    /// Tag 0x0112 of IFD0 in a TIFF block.
    static func tiffOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }

    /// The pixels turned upright (the same buffer when already upright).
    func apply(to source: PixelBuffer) -> PixelBuffer {
        guard value != 1 else { return source }
        let (w, h) = (source.width, source.height)
        let swaps = value >= 5
        let result = PixelBuffer(width: swaps ? h : w, height: swaps ? w : h)
        let from = source.bytes.assumingMemoryBound(to: UInt32.self)
        let to = result.bytes.assumingMemoryBound(to: UInt32.self)
        for oy in 0..<result.height {
            for ox in 0..<result.width {
                let (x, y): (Int, Int)
                switch value {
                case 2: (x, y) = (w - 1 - ox, oy)
                case 3: (x, y) = (w - 1 - ox, h - 1 - oy)
                case 4: (x, y) = (ox, h - 1 - oy)
                case 5: (x, y) = (oy, ox)
                case 6: (x, y) = (oy, h - 1 - ox)
                case 7: (x, y) = (w - 1 - oy, h - 1 - ox)
                default: (x, y) = (w - 1 - oy, ox)  // 8
                }
                to[oy * result.width + ox] = from[y * w + x]
            }
        }
        return result
    }
}
