import CEaselPNG
import CEaselCairo

/// Decodes PNG data of any colour type and bit depth (palette, grey, grey+alpha, RGB,
/// RGBA, 16-bit, interlaced) into a premultiplied ARGB32 `RasterImage`, through the libpng
/// shim. The header's size is checked against `maxPixels` before any pixel memory exists.
public enum PNGDecoder {
    /// What a PNG's header says about the image, read without decoding any pixels.
    public struct Header: Equatable, Sendable {
        /// The image's width in pixels.
        public var width: Int
        /// The image's height in pixels.
        public var height: Int
        /// Bits per channel (or per palette index): 1, 2, 4, 8 or 16.
        public var bitDepth: Int
        /// The PNG colour type code: 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
        public var colorType: Int
        /// True for an Adam7-interlaced image.
        public var interlaced: Bool

        /// Whether Easel's own reader takes the file as far as its header says (8-bit RGB or
        /// RGBA, not interlaced: `easel_png_fast_read`'s test), so a reduced decode never holds
        /// the whole image. It still declines a file with a transparent colour (tRNS) or a
        /// damaged stream, which libpng then decodes whole.
        public var isReadStreaming: Bool { bitDepth == 8 && (colorType == 2 || colorType == 6) && !interlaced }
    }

    /// Decodes into a cairo image of its own (for comparing, compositing and re-encoding).
    public static func decode(_ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels) throws(PNGError) -> RasterImage {
        let pixels = try decodePixels(bytes, maxPixels: maxPixels)
        do {
            return try RasterImage(copying: pixels)
        } catch {
            throw .outOfMemory
        }
    }

    /// Decodes into Swift-owned memory, with no cairo object (what a scene holds).
    /// With a `deadline` (`DispatchTime` uptime nanoseconds, as `Scene.deadline`), the decode
    /// stops with `.pastDeadline` once it has passed (checked every 16 rows).
    /// 8-bit RGB and RGBA files that are not interlaced (what photos are saved as) are read by
    /// Easel's own reader, at about twice libpng's speed; every other file, and any file that
    /// reader finds anything wrong with, by libpng (`libpngOnly` for libpng alone).
    public static func decodePixels(
        _ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels, deadline: UInt64? = nil
    ) throws(PNGError) -> PixelBuffer {
        try decodePixels(bytes, maxPixels: maxPixels, deadline: deadline, libpngOnly: false)
    }

    /// Easel's own reader alone on `bytes` (of at most `maxPixels` pixels), on one thread or
    /// two: the premultiplied pixels, or nil when it declines the file (the fuzzer checks
    /// that both ways agree, whatever the file).
    package static func ownReaderPixels(_ bytes: [UInt8], maxPixels: Int, twoThreads: Bool) -> [UInt8]? {
        guard let header = try? header(of: bytes), header.width <= RenderLimits.maxOutputSide,
            header.height <= RenderLimits.maxOutputSide, header.width * header.height <= maxPixels
        else { return nil }
        var out = [UInt8](repeating: 0, count: header.width * header.height * 4)
        let status = out.withUnsafeMutableBufferPointer { destination in
            easel_png_fast_read(bytes, bytes.count, destination.baseAddress, header.width * 4, 0, twoThreads ? 1 : 0)
        }
        return status == EASEL_PNG_FAST_OK ? out : nil
    }

    /// Whether Easel's own reader inflates an image on one core while another makes pixels of
    /// what is inflated: for a camera photo (two megapixels or more), when a core is idle (a
    /// card's several photos already decode on the cores at once).
    static func usesTwoThreads(width: Int, height: Int) -> Bool {
        width * height >= PixelBuffer.cameraPhotoPixels && EncoderParallelism.threads() > 1
    }

    /// With `reducedBy` a whole factor of 2 or more, the image reduced as `PixelBuffer.reduced`
    /// reduces it, to the same pixels: on Easel's own reader's files the rows are reduced as
    /// they are decoded, so the whole image is never held; any other is decoded whole by
    /// libpng first. `libpngOnly`: libpng alone, never Easel's own reader.
    package static func decodePixels(
        _ bytes: [UInt8], maxPixels: Int, deadline: UInt64?, libpngOnly: Bool = false, reducedBy factor: Int = 1
    ) throws(PNGError) -> PixelBuffer {
        let timeAllowed = try DecodeDeadline.nanosecondsLeft(before: deadline) ?? 0
        let result: Result<PixelBuffer, PNGError> = bytes.withUnsafeBufferPointer { buffer in
            guard let reader = easel_png_reader_create(buffer.baseAddress, buffer.count) else { return .failure(.outOfMemory) }
            defer { easel_png_reader_destroy(reader) }
            if libpngOnly { easel_png_reader_use_libpng_only(reader) }
            easel_png_reader_set_time_allowed(reader, timeAllowed)
            var header = easel_png_header()
            var status = easel_png_reader_read_header(reader, UInt64(max(0, maxPixels)), &header)
            guard status == EASEL_PNG_OK else { return .failure(error(status, reader)) }
            let width = Int(header.width), height = Int(header.height)
            guard width > 0, height > 0, width <= RenderLimits.maxOutputSide, height <= RenderLimits.maxOutputSide else {
                return .failure(
                    .tooLarge("the image is \(width)x\(height) pixels; the longest side allowed is \(RenderLimits.maxOutputSide)")
                )
            }
            let twoThreads = usesTwoThreads(width: width, height: height)
            if factor > 1 && !libpngOnly {
                let small = PixelBuffer(width: (width + factor - 1) / factor, height: (height + factor - 1) / factor)
                switch easel_png_fast_read_reduced(
                    buffer.baseAddress, buffer.count, small.bytes.assumingMemoryBound(to: UInt8.self), small.stride,
                    timeAllowed, UInt32(factor), twoThreads ? 1 : 0)
                {
                case EASEL_PNG_FAST_OK:
                    small.reducedFrom = (width, height)
                    return .success(small)
                case EASEL_PNG_FAST_DEADLINE: return .failure(.pastDeadline)
                default:
                    // Not a file Easel's reader takes, or a damaged one: libpng decodes it
                    // whole (or says why not) in the time left, and it is reduced after.
                    easel_png_reader_use_libpng_only(reader)
                    do throws(PNGError) {
                        easel_png_reader_set_time_allowed(reader, try DecodeDeadline.nanosecondsLeft(before: deadline) ?? 0)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            let pixels = PixelBuffer(width: width, height: height)
            if twoThreads { easel_png_reader_allow_two_threads(reader) }
            status = easel_png_reader_read_argb32(reader, pixels.bytes.assumingMemoryBound(to: UInt8.self), pixels.stride)
            guard status == EASEL_PNG_OK else { return .failure(error(status, reader)) }
            return .success(factor > 1 ? pixels.reduced(by: factor) : pixels)
        }
        return try result.get()
    }

    /// Reads only the header: the image's size and format, without decoding pixels.
    public static func header(of bytes: [UInt8]) throws(PNGError) -> Header {
        let result: Result<Header, PNGError> = bytes.withUnsafeBufferPointer { buffer in
            guard let reader = easel_png_reader_create(buffer.baseAddress, buffer.count) else { return .failure(.outOfMemory) }
            defer { easel_png_reader_destroy(reader) }
            var header = easel_png_header()
            let status = easel_png_reader_read_header(reader, UInt64.max, &header)
            guard status == EASEL_PNG_OK else { return .failure(error(status, reader)) }
            return .success(
                Header(
                    width: Int(header.width), height: Int(header.height), bitDepth: Int(header.bit_depth),
                    colorType: Int(header.color_type), interlaced: header.interlaced != 0))
        }
        return try result.get()
    }

    private static func error(_ status: easel_png_status, _ reader: OpaquePointer) -> PNGError {
        let message = String(cString: easel_png_reader_message(reader))
        switch status {
        case EASEL_PNG_NOT_PNG: return .notPNG(message)
        case EASEL_PNG_TRUNCATED: return .truncated(message)
        case EASEL_PNG_TOO_LARGE: return .tooLarge(message)
        case EASEL_PNG_OUT_OF_MEMORY: return .outOfMemory
        case EASEL_PNG_DEADLINE: return .pastDeadline
        default: return .corrupt(message.isEmpty ? "libpng status \(status.rawValue)" : message)
        }
    }
}
