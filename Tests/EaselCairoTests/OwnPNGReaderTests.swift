import CEaselPNG
import EaselGeometry
import Foundation
import Testing

@testable import EaselCairo

/// Easel's own PNG reader (8-bit RGB and RGBA, not interlaced) gives exactly libpng's pixels
/// on every file it takes, and leaves every other file, and every damaged one, to libpng.
@Suite("Easel's own PNG reader")
struct OwnPNGReaderTests {
    /// An image with gradients, grain and, with `alpha`, every kind of transparency.
    static func image(width: Int, height: Int, alpha: Bool) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var state: UInt32 = 12345
        image.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let a: UInt32 = alpha ? [255, 0, 128, 37, 255, 200][Int(state >> 29) % 6] : 255
                    func channel(_ base: Int) -> UInt32 {
                        UInt32(max(0, min(255, base + Int(state >> 27) - 16))) * a / 255  // premultiplied
                    }
                    let value =
                        a << 24 | channel(x * 255 / max(1, width)) << 16 | channel(y * 255 / max(1, height)) << 8
                        | channel((x + y) % 256)
                    pixels.storeBytes(of: value, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
                }
            }
        }
        return image
    }

    static func pixels(_ buffer: PixelBuffer) -> [UInt8] { buffer.withUnsafeBytes { Array($0) } }

    static func ownRead(_ png: [UInt8], width: Int, height: Int, twoThreads: Bool = false) -> (easel_png_fast_status, [UInt8]) {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let status = out.withUnsafeMutableBufferPointer { destination in
            easel_png_fast_read(png, png.count, destination.baseAddress, width * 4, 0, twoThreads ? 1 : 0)
        }
        return (status, out)
    }

    @Test func twoThreadsGiveOneThreadsPixelsAndStopAlikeOnDamage() throws {
        for (width, height, alpha) in [(257, 300, true), (100, 33, false), (640, 480, false)] {
            let options = PNGEncodingOptions(compressionLevel: 6, filters: .all, colorMode: alpha ? .rgba : .rgb)
            let png = try PNGEncoder.encode(try Self.image(width: width, height: height, alpha: alpha), options: options)
            let one = Self.ownRead(png, width: width, height: height)
            let two = Self.ownRead(png, width: width, height: height, twoThreads: true)
            #expect(one.0 == EASEL_PNG_FAST_OK && two.0 == EASEL_PNG_FAST_OK, "\(width)x\(height)")
            #expect(one.1 == two.1, "\(width)x\(height)")
            // Cut inside the pixels: declined, as on one thread.
            let cut = Array(png.prefix(png.count / 2))
            #expect(Self.ownRead(cut, width: width, height: height, twoThreads: true).0 == EASEL_PNG_FAST_DECLINED)
            let whole = try PNGDecoder.decodePixels(png, maxPixels: 1 << 20, deadline: nil, libpngOnly: true)
            #expect(Self.pixels(whole) == two.1)
        }
    }

    @Test(arguments: [
        PNGEncodingOptions.Filters.none, .sub, .up, .average, .paeth, .all,
    ])
    func everyFilterAndBothColourTypesGiveLibpngsPixels(filters: PNGEncodingOptions.Filters) throws {
        for (width, height) in [(1, 1), (2, 3), (257, 41)] {
            for alpha in [false, true] {
                let options = PNGEncodingOptions(compressionLevel: 6, filters: filters, colorMode: alpha ? .rgba : .rgb)
                let png = try PNGEncoder.encode(try Self.image(width: width, height: height, alpha: alpha), options: options)
                let (status, own) = Self.ownRead(png, width: width, height: height)
                #expect(status == EASEL_PNG_FAST_OK, "\(width)x\(height) alpha \(alpha) filters \(filters.rawValue)")
                let libpng = try PNGDecoder.decodePixels(png, maxPixels: 1 << 20, deadline: nil, libpngOnly: true)
                #expect(own == Self.pixels(libpng), "\(width)x\(height) alpha \(alpha) filters \(filters.rawValue)")
                #expect(Self.pixels(try PNGDecoder.decodePixels(png)) == own)
            }
        }
    }

    @Test func filesOfOtherKindsAreLeftToLibpng() throws {
        // Palette, grey, 16-bit and interlaced files, from the test images' own corpus of kinds.
        let image = try Self.image(width: 20, height: 10, alpha: false)
        var palette = try PNGEncoder.encode(
            image, options: PNGEncodingOptions(compressionLevel: 6, filters: .none, colorMode: .rgb))
        palette[8 + 8 + 9] = 3  // colour type 3 in the IHDR (its CRC now wrong too): declined either way
        #expect(Self.ownRead(palette, width: 20, height: 10).0 == EASEL_PNG_FAST_DECLINED)
        // A transparent colour (tRNS) changes the pixels: declined, and libpng applies it.
        let rgb = try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: 6, filters: .none, colorMode: .rgb))
        let withTRNS = Self.inserting(chunk: "tRNS", data: [0, 0, 0, 0, 0, 0], before: "IDAT", in: rgb)
        #expect(Self.ownRead(withTRNS, width: 20, height: 10).0 == EASEL_PNG_FAST_DECLINED)
        #expect(try PNGDecoder.decodePixels(withTRNS).width == 20)
    }

    @Test func aDamagedFileIsLeftToLibpngWhichSaysWhatIsWrong() throws {
        let png = try PNGEncoder.encode(
            try Self.image(width: 64, height: 64, alpha: true),
            options: PNGEncodingOptions(compressionLevel: 6, filters: .all, colorMode: .rgba))
        // A byte of the pixel stream changed: its chunk's CRC no longer holds.
        var flipped = png
        let idat = Self.offset(of: "IDAT", in: png)!
        flipped[idat + 8 + 20] ^= 0x55
        #expect(Self.ownRead(flipped, width: 64, height: 64).0 == EASEL_PNG_FAST_DECLINED)
        #expect(
            Self.message { try PNGDecoder.decodePixels(flipped) }
                == Self.message {
                    try PNGDecoder.decodePixels(flipped, maxPixels: 1 << 20, deadline: nil, libpngOnly: true)
                })
        // Cut short: too few rows.
        let cut = Array(png.prefix(idat + 8 + 40))
        #expect(Self.ownRead(cut, width: 64, height: 64).0 == EASEL_PNG_FAST_DECLINED)
        #expect(Self.message { try PNGDecoder.decodePixels(cut) } != nil)
    }

    static func message(_ body: () throws -> PixelBuffer) -> String? {
        do {
            _ = try body()
            return nil
        } catch { return "\(error)" }
    }

    /// The offset of the first chunk of `type`.
    static func offset(of type: String, in png: [UInt8]) -> Int? {
        var at = 8
        while at + 8 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            if String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self) == type { return at }
            at += 12 + length
        }
        return nil
    }

    /// `png` with a chunk (CRC right) put in before the first chunk of type `before`.
    static func inserting(chunk type: String, data: [UInt8], before: String, in png: [UInt8]) -> [UInt8] {
        let at = offset(of: before, in: png)!
        let body = Array(type.utf8) + data
        let crc = easel_png_crc32(0, body, body.count)
        let length = UInt32(data.count)
        let chunk =
            [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return Array(png[..<at]) + chunk + Array(png[at...])
    }

    @Test func aReductionAsTheRowsGoByHasTheWholeImagesReducedPixels() throws {
        for (width, height, factor) in [(257, 41, 2), (100, 100, 3), (64, 33, 64), (5, 7, 4), (1, 1, 2)] {
            for alpha in [false, true] {
                let options = PNGEncodingOptions(compressionLevel: 6, filters: .all, colorMode: alpha ? .rgba : .rgb)
                let png = try PNGEncoder.encode(try Self.image(width: width, height: height, alpha: alpha), options: options)
                let whole = try PNGDecoder.decodePixels(png, maxPixels: 1 << 20, deadline: nil, libpngOnly: true)
                let expected = whole.reduced(by: factor)
                let reduced = try PNGDecoder.decodePixels(png, maxPixels: 1 << 20, deadline: nil, reducedBy: factor)
                let label = "\(width)x\(height) by \(factor), alpha \(alpha)"
                #expect((reduced.width, reduced.height) == (expected.width, expected.height), "\(label)")
                #expect(Self.pixels(reduced) == Self.pixels(expected), "\(label)")
                #expect(reduced.fullSize == (width, height), "\(label)")
            }
        }
        // A file the reader leaves to libpng (a transparent colour) is decoded whole, then
        // reduced alike.
        let rgb = try PNGEncoder.encode(
            try Self.image(width: 30, height: 20, alpha: false), options: PNGEncodingOptions(colorMode: .rgb))
        let transparent = Self.inserting(chunk: "tRNS", data: [0, 0, 0, 0, 0, 0], before: "IDAT", in: rgb)
        let whole = try PNGDecoder.decodePixels(transparent, maxPixels: 1 << 20, deadline: nil, libpngOnly: true)
        let reduced = try PNGDecoder.decodePixels(transparent, maxPixels: 1 << 20, deadline: nil, reducedBy: 3)
        #expect(Self.pixels(reduced) == Self.pixels(whole.reduced(by: 3)))
        #expect(reduced.fullSize == (30, 20))
    }
}
