import CEaselPNG
import CEaselCairo

/// Decodes PNG data of any colour type and bit depth (palette, grey, grey+alpha, RGB,
/// RGBA, 16-bit, interlaced) into a premultiplied ARGB32 `RasterImage`, through the libpng
/// shim. The header's size is checked against `maxPixels` before any pixel memory exists.
public enum PNGDecoder {
    public struct Header: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var bitDepth: Int
        public var colorType: Int
        public var interlaced: Bool
    }

    public static func decode(_ bytes: [UInt8], maxPixels: Int = RenderLimits.maxImagePixels) throws(PNGError) -> RasterImage {
        let result: Result<RasterImage, PNGError> = bytes.withUnsafeBufferPointer { buffer in
            guard let reader = easel_png_reader_create(buffer.baseAddress, buffer.count) else {
                return .failure(.outOfMemory)
            }
            defer { easel_png_reader_destroy(reader) }
            var header = easel_png_header()
            var status = easel_png_reader_read_header(reader, UInt64(max(0, maxPixels)), &header)
            guard status == EASEL_PNG_OK else { return .failure(error(status, reader)) }

            let width = Int(header.width), height = Int(header.height)
            guard width > 0, height > 0, width <= RenderLimits.maxOutputSide, height <= RenderLimits.maxOutputSide else {
                return .failure(.tooLarge("the image is \(width)x\(height) pixels; the longest side allowed is \(RenderLimits.maxOutputSide)"))
            }
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(surface)
                return .failure(.outOfMemory)
            }
            let image = RasterImage(adopting: surface)
            status = image.withUnsafeMutablePixels { pixels in
                easel_png_reader_read_argb32(reader, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), image.stride)
            }
            guard status == EASEL_PNG_OK else { return .failure(error(status, reader)) }
            return .success(image)
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
            return .success(Header(width: Int(header.width), height: Int(header.height), bitDepth: Int(header.bit_depth),
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
        default: return .corrupt(message.isEmpty ? "libpng status \(status.rawValue)" : message)
        }
    }
}
