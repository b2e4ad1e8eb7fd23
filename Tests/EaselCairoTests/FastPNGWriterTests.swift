import Testing
import Foundation
import EaselGeometry
@testable import EaselCairo
import EaselTestSupport

/// Easel's own PNG writer against libpng (the reference) and cairo's reader: every file it
/// writes, in any number of bands, decodes to the very pixels libpng's encoding of the same
/// image decodes to.
@Suite("Fast PNG writer")
struct FastPNGWriterTests {
    /// Noise with every alpha, so rounding and transparency are all exercised.
    static func image(width: Int, height: Int, opaque: Bool, seed: UInt32) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var state = seed
        image.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let a = opaque ? 255 : (state >> 24) & 0xFF
                    func channel(_ shift: UInt32) -> UInt32 { (((state >> shift) & 0xFF) * a) / 255 }
                    let value = a << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
                    pixels.storeBytes(of: value, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
                }
            }
        }
        return image
    }

    static func pixels(_ image: RasterImage) -> [RGBA8] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image.premultipliedPixel(x: x, y: y) } }
    }

    @Test(arguments: [(1, 1), (3, 2), (17, 1025), (257, 300), (1001, 777)])
    func everySizeAndBandCountDecodesAsLibpngsDoes(size: (Int, Int)) throws {
        let folder = TemporaryFolder()
        for opaque in [true, false] {
            let image = try Self.image(width: size.0, height: size.1, opaque: opaque, seed: UInt32(size.0 * 31 + size.1))
            // libpng's encoding of the same image (zlib level 2 takes libpng's path).
            let reference = Self.pixels(
                try PNGDecoder.decode(try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: 2))))
            for bandRows in [1, 2, 100, 512, 2000] {
                let bytes = try FastPNGWriter.encode(image, keepAlpha: !opaque, bandRows: bandRows, threads: 2)
                let bands = (size.1 + bandRows - 1) / bandRows
                let header = try PNGDecoder.header(of: bytes)
                #expect(header.colorType == (opaque ? 2 : 6), "RGB when opaque, RGBA otherwise")
                #expect(
                    Self.pixels(try PNGDecoder.decode(bytes)) == reference, "\(size) opaque \(opaque), \(bands) bands: libpng")
                let url = try folder.write(bytes, to: "fast.png")
                #expect(
                    Self.pixels(try RasterImage.readPNGWithCairo(at: url.path)) == reference,
                    "\(size) opaque \(opaque), \(bands) bands: cairo")
            }
        }
    }

    @Test func theDefaultEncodingUsesTheFastWriterAndStaysCloseToZlibsSize() throws {
        let image = try Self.image(width: 600, height: 900, opaque: true, seed: 7)
        // A photo-like gradient with grain compresses; pure noise does not: use a drawn one.
        let context = try CairoContext(image: image)
        var band = Path()
        band.addRect(Rect(x: 0, y: 0, width: 600, height: 450))
        try context.setSource(Color(red: 0.2, green: 0.5, blue: 0.7))
        try context.fill(band)
        let fast = try PNGEncoder.encode(image)
        let zlib = try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: 1, filters: .sub))
        #expect(Self.pixels(try PNGDecoder.decode(fast)) == Self.pixels(try PNGDecoder.decode(zlib)))
        #expect(Double(fast.count) <= Double(zlib.count) * 1.15 + 1024, "fast \(fast.count) vs zlib \(zlib.count)")
        // The same bytes whatever the number of cores that deflate.
        for threads in [1, 2, 5] {
            #expect(try FastPNGWriter.encode(image, keepAlpha: false, threads: threads) == fast, "\(threads) threads")
        }
    }
}
