import CEaselJPEG
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

/// Bytes of an image format Easel does not read (a phone's HEIC, a GIF): named, so the
/// message says what the file is rather than that it is not a PNG.
public struct UnsupportedImageFormat: Error, Equatable, Sendable, CustomStringConvertible {
    /// The format's name ("HEIC").
    public var name: String

    /// The format the bytes start like, among those Easel knows of and does not read; nil
    /// for any other bytes.
    public static func of(_ bytes: [UInt8]) -> UnsupportedImageFormat? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return bytes.count >= offset + expected.count && Array(bytes[offset..<offset + expected.count]) == expected
        }
        if at(0, "GIF87a") || at(0, "GIF89a") { return Self(name: "GIF") }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return Self(name: "TIFF")
        }
        // BMP: "BM", then a DIB header of one of its known sizes at byte 14.
        if at(0, "BM"), bytes.count >= 18, [12, 40, 52, 56, 64, 108, 124].contains(Int(bytes[14]) | Int(bytes[15]) << 8) {
            return Self(name: "BMP")
        }
        // ISO base media files: the brand says HEIC (phones' photos), HEIF or AVIF.
        if at(4, "ftyp"), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis"].contains(brand) { return Self(name: "HEIC") }
            if ["mif1", "msf1"].contains(brand) { return Self(name: "HEIF") }
            if ["avif", "avis"].contains(brand) { return Self(name: "AVIF") }
        }
        if bytes.starts(with: [0xFF, 0x0A]) || at(4, "JXL ") { return Self(name: "JPEG XL") }
        // A WebP of several frames (VP8X with its animation flag).
        if ImageFormat.sniff(bytes) == .webp, at(12, "VP8X"), bytes.count > 20, bytes[20] & 0x02 != 0 {
            return Self(name: "animated WebP")
        }
        return nil
    }

    /// "it is a HEIC image; Easel reads PNG, JPEG and WebP (convert it to one of them)".
    public var description: String {
        "it is a\(name.first.map { "AEIOU".contains($0) } == true ? "n" : "") \(name) image; Easel reads PNG, JPEG and still WebP images (convert it to one of them)"
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
        /// Bytes the decoder itself allocates besides the decoded pixels (a progressive
        /// JPEG's coefficient buffers: 2 bytes per sample of each colour component).
        public var workBytes = 0
        /// True when the image stands turned a quarter once decoded (a JPEG's EXIF
        /// orientation 5 to 8): it is drawn `height` wide and `width` tall.
        public var turned = false
        /// True when a reduced decode holds the whole image before reducing it: a WebP, and
        /// a PNG Easel's own reader does not take (`PNGDecoder.Header.isReadStreaming`).
        public var reducedOnlyWhole = false

        /// The most memory decoding the image reduced by `factor` holds at once, in pixels of
        /// 4 bytes: `cost(reducedBy:)`, and the whole image's pixels too when it is decoded
        /// whole first (`reducedOnlyWhole`). Budgets check this before a decode, and count
        /// `cost(reducedBy:)` after it.
        public func peakCost(reducedBy factor: Int) -> Int {
            let kept = cost(reducedBy: factor)
            guard factor > 1, reducedOnlyWhole else { return kept }
            let total = kept.addingReportingOverflow(keptPixels(reducedBy: 1))
            return total.overflow ? .max : total.partialValue
        }

        /// The size the decoded image stands at, an EXIF orientation applied.
        public var uprightSize: (width: Int, height: Int) { turned ? (height, width) : (width, height) }

        /// The width, height and format of an image whose decoder needs no memory of its own.
        public init(format: ImageFormat, width: Int, height: Int, workBytes: Int = 0) {
            (self.format, self.width, self.height, self.workBytes) = (format, width, height, workBytes)
        }

        /// What decoding the image costs in memory, in pixels of 4 bytes: its own pixels and
        /// the decoder's work memory. Budgets count this, not the pixels alone, so a small
        /// progressive file cannot make the decoder hold more than the budget allows.
        public var costInPixels: Int { cost(reducedBy: 1) }

        /// What the image costs, as `costInPixels`, once decoded reduced by `factor`
        /// (`decodePixels(reducedBy:)`): the pixels it keeps — a JPEG's at its DCT scale, any
        /// other's reduced — and the decoder's work memory, which a reduction does not shrink
        /// (a progressive JPEG's coefficients are the whole image's).
        public func cost(reducedBy factor: Int) -> Int {
            let total = keptPixels(reducedBy: factor).addingReportingOverflow((workBytes + 3) / 4)
            return total.overflow ? .max : total.partialValue
        }

        /// The size the image is decoded at, reduced by `factor`: a JPEG's at its DCT scale
        /// (`jpegEighths`), any other's each side divided, rounded up.
        package func keptSize(reducedBy factor: Int) -> (width: Int, height: Int) {
            let factor = min(max(1, factor), 64)
            // (Sides are at most 2^31 − 1 in any of the formats: no product here overflows.)
            if format == .jpeg {
                let eighths = ImageDecoder.jpegEighths(reducedBy: factor)
                return ((width * eighths + 7) / 8, (height * eighths + 7) / 8)
            }
            return ((width + factor - 1) / factor, (height + factor - 1) / factor)
        }

        /// The pixels of `keptSize(reducedBy:)`; `Int.max` past what an `Int` holds.
        func keptPixels(reducedBy factor: Int) -> Int {
            let size = keptSize(reducedBy: factor)
            let pixels = size.width.multipliedReportingOverflow(by: size.height)
            return pixels.overflow ? .max : pixels.partialValue
        }
    }

    /// The DCT scale, in eighths, a JPEG reduced by `factor` is decoded at: the fewest that
    /// keep at least 1/factor of its pixels (a photo drawn at a third is decoded at 3/8), at
    /// least 1/8.
    static func jpegEighths(reducedBy factor: Int) -> Int {
        factor > 1 ? max(1, (8 + factor - 1) / factor) : 8
    }

    /// The most scans a JPEG may have. Encoders write at most a few dozen (a progressive
    /// file of libjpeg's default script has 10); a file of thousands of empty scans makes
    /// the decoder pass over the whole image for each (a decoder bomb).
    public static let maxJPEGScans = 100

    /// The header of PNG, JPEG or WebP bytes. Bytes of no known format are reported as PNG's
    /// "not a PNG image" error.
    public static func header(of bytes: [UInt8]) throws -> Header {
        if let unsupported = UnsupportedImageFormat.of(bytes) { throw unsupported }
        switch ImageFormat.sniff(bytes) {
        case .jpeg:
            var header = try jpegHeader(bytes)
            header.turned = Orientation(exifOf: bytes).swapsSides
            return header
        case .webp:
            var width: Int32 = 0, height: Int32 = 0
            guard WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else {
                throw ImageError(format: .webp, message: "not a still WebP image libwebp can read")
            }
            var header = Header(format: .webp, width: Int(width), height: Int(height))
            header.reducedOnlyWhole = true
            return header
        case .png, nil:
            let png = try PNGDecoder.header(of: bytes)
            var header = Header(format: .png, width: png.width, height: png.height)
            header.reducedOnlyWhole = !png.isReadStreaming
            return header
        }
    }

    /// Decodes PNG, JPEG or WebP bytes into Swift-owned pixels. An image that would cost more
    /// than `maxPixels` (its pixels and the decoder's work memory, `Header.costInPixels`) is
    /// refused from its header; with a `deadline` (`DispatchTime` uptime nanoseconds, as
    /// `Scene.deadline`; by default the thread's, `DecodeDeadline.applying`), a PNG or JPEG
    /// decode stops between rows once it has passed.
    ///
    /// With `reducedBy` a whole factor of 2 or more, the image comes out at about that
    /// fraction of its size (`PixelBuffer.reducedFrom` keeps the whole size): a PNG reduced
    /// as `PixelBuffer.reduced` reduces it, to the same pixels, without holding the whole
    /// image when Easel's own reader takes the file; a JPEG decoded at 1/2, 1/4 or 1/8 of its
    /// size by libjpeg-turbo's DCT scaling (in eighths: the fewest that keep 1/factor of its
    /// pixels), then past an eighth reduced by what remains; a WebP decoded whole, then reduced.
    public static func decodePixels(
        _ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels, deadline: UInt64? = nil, reducedBy factor: Int = 1
    ) throws -> PixelBuffer {
        let deadline = deadline ?? DecodeDeadline.current
        let factor = min(max(1, factor), 64)
        if let unsupported = UnsupportedImageFormat.of(bytes) { throw unsupported }
        switch ImageFormat.sniff(bytes) {
        case .jpeg: return try decodeJPEG(bytes, maxPixels: maxPixels, deadline: deadline, reducedBy: factor)
        case .webp:
            let whole = try decodeWebP(bytes, maxPixels: maxPixels, deadline: deadline)
            return factor > 1 ? whole.reduced(by: factor) : whole
        case .png, nil:
            return try PNGDecoder.decodePixels(bytes, maxPixels: maxPixels, deadline: deadline, reducedBy: factor)
        }
    }

    /// Runs `work`, whose decodes are one of several at once on the cores when `several` (a
    /// document's photos decoded side by side): a camera JPEG in it is then decoded on its
    /// own thread rather than split between two (`JPEGRowSplit`), which only pays on an idle
    /// core.
    package static func decoding<T>(oneOfSeveral several: Bool, _ work: () throws -> T) rethrows -> T {
        try JPEGRowSplit.decodingOneOfSeveral(several, work)
    }

    /// Decodes into a cairo image of its own (within the thread's deadline, if any).
    public static func decode(_ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels) throws -> RasterImage {
        try RasterImage(copying: try decodePixels(bytes, maxPixels: maxPixels))
    }

    /// Throws when `header` is empty, longer than a side may be, or would cost more than
    /// `maxPixels` decoded reduced by `factor` (`Header.cost(reducedBy:)`).
    static func check(_ header: Header, maxPixels: Int, reducedBy factor: Int = 1) throws {
        let (width, height, format) = (header.width, header.height, header.format)
        guard width > 0, height > 0 else { throw ImageError(format: format, message: "the image is \(width)x\(height) pixels") }
        guard width <= RenderLimits.maxOutputSide, height <= RenderLimits.maxOutputSide,
            header.keptPixels(reducedBy: factor) <= maxPixels
        else {
            throw ImageError(
                format: format,
                message:
                    "the image is \(width)x\(height) pixels; at most \(maxPixels) pixels and \(RenderLimits.maxOutputSide) a side"
            )
        }
        guard header.cost(reducedBy: factor) <= maxPixels else {
            throw ImageError(
                format: format,
                message:
                    "decoding the \(width)x\(height) image takes \(header.workBytes >> 20) MiB of the decoder's own memory besides its pixels, over the limit of \((maxPixels * 4) >> 20) MiB in all"
            )
        }
    }

    /// Nanoseconds left before `deadline` (nil: no limit); throws as PNG's decoder does when
    /// none are left, so that a decode that could not finish in time is not started.
    @discardableResult
    static func timeLeft(before deadline: UInt64?, format: ImageFormat) throws -> UInt64? {
        do {
            return try DecodeDeadline.nanosecondsLeft(before: deadline)
        } catch {
            throw ImageError(format: format, message: "the decode ran past its deadline and was stopped")
        }
    }

    /// The MIME type under which `bytes` can stand for their decoded pixels in an SVG or
    /// PDF, or nil when a viewer could show them otherwise than Easel draws them: a PNG
    /// with a gamma, chromaticities, an ICC profile or EXIF data (an orientation: Easel
    /// ignores them, viewers apply them) or animation frames; a JPEG turned by its EXIF
    /// orientation, with an ICC profile, of other than 1 or 3 components (CMYK), or cut
    /// short; WebP never (neither format embeds it). `inSVG`: for an SVG, not a greyscale or
    /// arithmetic-coded JPEG either (resvg draws nothing for them; a PDF viewer decodes them).
    public static func embeddableMIMEType(of bytes: [UInt8], inSVG: Bool = false) -> String? {
        switch ImageFormat.sniff(bytes) {
        case .png:
            var offset = 8
            // Up to the first IDAT, where every chunk that changes how a viewer shows it is.
            while offset + 8 <= bytes.count {
                let length =
                    Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                    | Int(bytes[offset + 3])
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                if type == "IDAT" { return "image/png" }
                if ["gAMA", "cHRM", "iCCP", "acTL", "eXIf"].contains(type) { return nil }
                guard length >= 0, length <= bytes.count else { return nil }
                offset += 12 + length
            }
            return nil
        case .jpeg:
            guard Orientation(exifOf: bytes).value == 1, (try? jpegHeader(bytes)) != nil,
                bytes.suffix(2) == [0xFF, 0xD9]
            else { return nil }
            var index = 2
            while index + 4 <= bytes.count, bytes[index] == 0xFF {
                let marker = bytes[index + 1]
                let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                guard length >= 2, index + 2 + length <= bytes.count else { return nil }
                let start = index + 4
                if marker == 0xE2, length >= 14, Array(bytes[start..<start + 12]) == Array("ICC_PROFILE\u{0}".utf8) {
                    return nil
                }
                // A frame header (SOF0…SOF15 but DHT, JPG and DAC): its number of components.
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), length >= 8 {
                    let components = Int(bytes[start + 5])
                    if inSVG { return components == 3 && marker < 0xC8 ? "image/jpeg" : nil }
                    return [1, 3].contains(components) ? "image/jpeg" : nil
                }
                if marker == 0xDA { return nil }
                index += 2 + length
            }
            return nil
        case .webp, nil:
            return nil
        }
    }

    // MARK: JPEG

    /// The size and work memory libjpeg-turbo reads; not `turned` (`header(of:)` adds it, and
    /// a decode reads the orientation once for itself).
    static func jpegHeader(_ bytes: [UInt8]) throws -> Header {
        var header = easel_jpeg_header()
        var message = [CChar](repeating: 0, count: 200)
        let status = easel_jpeg_read_header(bytes, bytes.count, &header, &message, message.count)
        guard status == EASEL_JPEG_OK else { throw ImageError(format: .jpeg, message: Self.text(message)) }
        return Header(
            format: .jpeg, width: Int(header.width), height: Int(header.height),
            workBytes: Int(clamping: header.work_bytes))
    }

    static func decodeJPEG(_ bytes: [UInt8], maxPixels: Int, deadline: UInt64?, reducedBy factor: Int = 1) throws
        -> PixelBuffer
    {
        let header = try jpegHeader(bytes)
        // What the decode holds is the image at its DCT scale (and the decoder's work memory):
        // a 48-megapixel photo drawn small is within the limit the whole of it is over.
        try check(header, maxPixels: maxPixels, reducedBy: factor)
        let eighths = jpegEighths(reducedBy: factor)
        let size = header.keptSize(reducedBy: factor)
        let pixels = PixelBuffer(width: size.width, height: size.height)
        if let split = JPEGRowSplit.row(for: header, eighths: eighths, outputHeight: pixels.height),
            JPEGRowSplit.decode(bytes, into: pixels, eighths: eighths, splitAt: split, deadline: deadline)
        {
            return finishJPEG(pixels, bytes: bytes, header: header, eighths: eighths, factor: factor, damage: nil)
        }
        var limits = easel_jpeg_limits()
        limits.max_scans = Int32(Self.maxJPEGScans)
        limits.time_allowed_ns = try timeLeft(before: deadline, format: .jpeg) ?? 0
        var message = [CChar](repeating: 0, count: 200)
        // B, G, R, A in memory is cairo's native-endian ARGB32 on little-endian machines; JPEG
        // is opaque, so premultiplying changes nothing.
        let status = easel_jpeg_decode(
            bytes, bytes.count, pixels.bytes.assumingMemoryBound(to: UInt8.self), pixels.stride, &limits, UInt32(eighths),
            &message, message.count)
        // A truncated file still gives an image, as the app shows one; anything else gives none.
        guard status == EASEL_JPEG_OK || status == EASEL_JPEG_TRUNCATED else {
            throw ImageError(format: .jpeg, message: Self.text(message))
        }
        return finishJPEG(
            pixels, bytes: bytes, header: header, eighths: eighths, factor: factor,
            damage: status == EASEL_JPEG_TRUNCATED ? Self.text(message) : nil)
    }

    /// A decoded JPEG turned upright by its EXIF orientation, past an eighth reduced by the
    /// rest of `factor`, with the size it was reduced from and its `damage`.
    private static func finishJPEG(
        _ pixels: PixelBuffer, bytes: [UInt8], header: Header, eighths: Int, factor: Int, damage: String?
    ) -> PixelBuffer {
        let orientation = Orientation(exifOf: bytes)
        var oriented = orientation.apply(to: pixels)
        if eighths < 8 {
            oriented.reducedFrom = orientation.swapsSides ? (header.height, header.width) : (header.width, header.height)
            // Past an eighth, the rest of the factor by whole blocks.
            if factor >= 16 { oriented = oriented.reduced(by: factor / 8) }
        }
        oriented.damage = damage
        return oriented
    }

    private static func text(_ message: [CChar]) -> String {
        message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    // MARK: WebP

    static func decodeWebP(_ bytes: [UInt8], maxPixels: Int, deadline: UInt64?) throws -> PixelBuffer {
        var width: Int32 = 0, height: Int32 = 0
        guard WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else {
            throw ImageError(format: .webp, message: "not a still WebP image libwebp can read")
        }
        try check(Header(format: .webp, width: Int(width), height: Int(height)), maxPixels: maxPixels)
        try timeLeft(before: deadline, format: .webp)
        let pixels = PixelBuffer(width: Int(width), height: Int(height))
        let size = pixels.stride * pixels.height
        guard
            WebPDecodeBGRAInto(bytes, bytes.count, pixels.bytes.assumingMemoryBound(to: UInt8.self), size, Int32(pixels.stride))
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
    /// Whether the orientation turns the image a quarter: its width becomes its height.
    var swapsSides: Bool { value >= 5 }

    func apply(to source: PixelBuffer) -> PixelBuffer {
        guard value != 1 else { return source }
        let (w, h) = (source.width, source.height)
        let swaps = swapsSides
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
