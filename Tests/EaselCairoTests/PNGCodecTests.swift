import Testing
import Foundation
import EaselGeometry
import EaselCairo
import EaselTestSupport

@Suite("PNG shim")
struct PNGCodecTests {
    /// An image with opaque, translucent and fully transparent pixels.
    func translucentImage() throws -> RasterImage {
        let image = try RasterImage(width: 64, height: 48)
        let context = try CairoContext(image: image)
        var left = Path()
        left.addRect(Rect(x: 0, y: 0, width: 32, height: 48))
        try context.setSource(Color(red: 0.9, green: 0.2, blue: 0.1))
        try context.fill(left)
        var disc = Path()
        disc.addEllipse(in: Rect(x: 16, y: 4, width: 40, height: 40))
        try context.setSource(Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.37))
        try context.fill(disc)
        return image
    }

    func allPixels(_ image: RasterImage) -> [RGBA8] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image.premultipliedPixel(x: x, y: y) } }
    }

    @Test func encodedPNGReadsBackIdenticallyThroughTheShimAndThroughCairo() throws {
        let folder = TemporaryFolder()
        let image = try translucentImage()
        let bytes = try PNGEncoder.encode(image)
        let url = try folder.write(bytes, to: "round.png")

        let viaShim = try PNGDecoder.decode(bytes)
        let viaCairo = try RasterImage.readPNGWithCairo(at: url.path)
        #expect(viaShim.width == 64 && viaShim.height == 48)
        #expect(allPixels(viaShim) == allPixels(image), "premultiplied -> straight -> premultiplied must be lossless")
        #expect(allPixels(viaCairo) == allPixels(image), "cairo's reader must see the same pixels")
        // Spot checks: a transparent corner, an opaque pixel, a translucent one.
        #expect(viaShim.pixel(x: 63, y: 0) == RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(viaShim.pixel(x: 2, y: 2) == RGBA8(r: cairo8(0.9), g: cairo8(0.2), b: cairo8(0.1), a: 255))
        let translucent = viaShim.pixel(x: 50, y: 24)
        #expect(translucent.a == 94, "alpha 0.37 -> 94")
        #expect(translucent.maxChannelDifference(to: RGBA8(r: 26, g: 77, b: 204, a: 94)) <= 2)
    }

    @Test func cairosOwnPNGReadsBackIdenticallyThroughTheShim() throws {
        let folder = TemporaryFolder()
        let image = try translucentImage()
        let path = folder.file("cairo.png").path
        try image.writePNGWithCairo(to: path)
        let viaShim = try PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(allPixels(viaShim) == allPixels(image))
    }

    @Test func opaqueImagesAreWrittenAsRGBAndTranslucentOnesAsRGBA() throws {
        let translucent = try PNGEncoder.encode(translucentImage())
        #expect(translucent[25] == 6, "colour type RGBA")
        let opaque = try RasterImage(width: 8, height: 8)
        let context = try CairoContext(image: opaque)
        try context.setSource(.white)
        try context.paint()
        let bytes = try PNGEncoder.encode(opaque)
        #expect(bytes[25] == 2, "colour type RGB")
        #expect(try PNGDecoder.decode(bytes).pixel(x: 4, y: 4) == RGBA8(r: 255, g: 255, b: 255, a: 255))
        let forced = try PNGEncoder.encode(opaque, options: PNGEncodingOptions(colorMode: .rgba))
        #expect(forced[25] == 6)
    }

    @Test(arguments: [0, 1, 6, 9]) func everyCompressionLevelRoundTrips(level: Int) throws {
        let image = try translucentImage()
        for filters: PNGEncodingOptions.Filters in [.none, .sub, .up, .average, .paeth, .all] {
            let bytes = try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: level, filters: filters))
            #expect(allPixels(try PNGDecoder.decode(bytes)) == allPixels(image))
        }
    }

    @Test func invalidEncoderOptionsThrow() throws {
        let image = try RasterImage(width: 4, height: 4)
        #expect(throws: PNGError.self) { try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: 10)) }
        #expect(throws: PNGError.self) { try PNGEncoder.encode(image, options: PNGEncodingOptions(filters: [])) }
    }

    // MARK: Every colour type and bit depth, from an independent writer

    @Test(arguments: ReferencePNGWriter.ColorType.allCases, [false, true])
    func decodesEveryColorTypeAndBitDepth(colorType: ReferencePNGWriter.ColorType, interlaced: Bool) throws {
        for depth in colorType.allowedBitDepths {
            let maxValue = (1 << depth) - 1
            let (width, height) = (13, 11)  // odd sizes exercise partial bytes and every Adam7 pass
            // Level for pixel (x, y): spread over the whole range of the depth.
            func level(_ x: Int, _ y: Int, _ salt: Int) -> Int { ((x * 7 + y * 3 + salt * 5) % (maxValue + 1)) }
            func to8(_ value: Int) -> UInt8 {
                depth == 16 ? UInt8((value * 255 + 32895) >> 16) : UInt8(value * 255 / maxValue)
            }
            var palette: [(UInt8, UInt8, UInt8)] = []
            for index in 0...min(maxValue, 255) {
                palette.append((UInt8(index * 3 % 256), UInt8(255 - index), UInt8(index * 17 % 256)))
            }
            let bytes = ReferencePNGWriter.encode(
                width: width, height: height, colorType: colorType, bitDepth: depth,
                interlaced: interlaced, palette: palette
            ) { x, y in
                (0..<colorType.channels).map { level(x, y, $0) }
            }
            let image = try PNGDecoder.decode(bytes)
            #expect(image.width == width && image.height == height)
            for y in 0..<height {
                for x in 0..<width {
                    let expected: RGBA8
                    switch colorType {
                    case .grey:
                        let g = to8(level(x, y, 0))
                        expected = RGBA8(r: g, g: g, b: g, a: 255)
                    case .greyAlpha:
                        let g = to8(level(x, y, 0))
                        expected = RGBA8(r: g, g: g, b: g, a: to8(level(x, y, 1)))
                    case .rgb:
                        expected = RGBA8(r: to8(level(x, y, 0)), g: to8(level(x, y, 1)), b: to8(level(x, y, 2)), a: 255)
                    case .rgba:
                        expected = RGBA8(
                            r: to8(level(x, y, 0)), g: to8(level(x, y, 1)), b: to8(level(x, y, 2)), a: to8(level(x, y, 3)))
                    case .palette:
                        let entry = palette[level(x, y, 0)]
                        expected = RGBA8(r: entry.0, g: entry.1, b: entry.2, a: 255)
                    }
                    // Straight colour is recovered from premultiplied storage to within rounding.
                    let actual = image.pixel(x: x, y: y)
                    let tolerance = expected.a == 255 ? 0 : (expected.a == 0 ? 255 : 255 / Int(expected.a) + 1)
                    #expect(actual.a == expected.a, "\(colorType) \(depth)-bit interlaced=\(interlaced) at (\(x), \(y))")
                    #expect(
                        actual.maxChannelDifference(to: expected) <= tolerance,
                        "\(colorType) \(depth)-bit interlaced=\(interlaced) at (\(x), \(y)): \(actual) vs \(expected)")
                }
            }
        }
    }

    @Test func paletteTransparencyAndColorKeyBecomeAlpha() throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 0, 255)]
        let indexed = ReferencePNGWriter.encode(
            width: 2, height: 1, colorType: .palette, bitDepth: 8,
            palette: palette, transparency: [0, 255]
        ) { x, _ in [x] }
        let image = try PNGDecoder.decode(indexed)
        #expect(image.pixel(x: 0, y: 0).a == 0)
        #expect(image.pixel(x: 1, y: 0) == RGBA8(r: 0, g: 0, b: 255, a: 255))

        let keyed = ReferencePNGWriter.encode(
            width: 2, height: 1, colorType: .rgb, bitDepth: 8,
            transparency: [0, 10, 0, 20, 0, 30]
        ) { x, _ in x == 0 ? [10, 20, 30] : [1, 2, 3] }
        let keyedImage = try PNGDecoder.decode(keyed)
        #expect(keyedImage.pixel(x: 0, y: 0).a == 0)
        #expect(keyedImage.pixel(x: 1, y: 0) == RGBA8(r: 1, g: 2, b: 3, a: 255))
    }

    // MARK: Bad input gives typed errors

    func validPNG() -> [UInt8] {
        ReferencePNGWriter.encode(width: 40, height: 30, colorType: .rgb, bitDepth: 8) { x, y in [x, y, 7] }
    }

    @Test func nonPNGDataIsRefused() {
        #expect(throws: PNGError.notPNG("the data does not start with the PNG signature")) {
            try PNGDecoder.decode(Array("{\"id\": \"not an image\"}".utf8))
        }
        #expect(throws: PNGError.notPNG("the file is empty")) { try PNGDecoder.decode([]) }
    }

    @Test func truncatedDataIsReportedAsTruncated() {
        let bytes = validPNG()
        for cut in [4, 20, 40, bytes.count / 2, bytes.count - 13] {
            do {
                _ = try PNGDecoder.decode(Array(bytes.prefix(cut)))
                Issue.record("a PNG cut at \(cut) bytes decoded")
            } catch {
                guard case .truncated = error else {
                    Issue.record("cut at \(cut): \(error)")
                    continue
                }
            }
        }
    }

    @Test func corruptDataIsReportedAsCorrupt() {
        var bytes = validPNG()
        bytes[50] ^= 0xFF  // inside IDAT's data: zlib's check fails
        #expect { try PNGDecoder.decode(bytes) } throws: { error in
            guard case PNGError.corrupt(let message) = error else { return false }
            return message.contains("IDAT")
        }
        var badCRC = validPNG()
        badCRC[30] ^= 0xFF  // IHDR's CRC
        #expect { try PNGDecoder.decode(badCRC) } throws: { error in
            guard case PNGError.corrupt(let message) = error else { return false }
            return message.contains("CRC")
        }
        var badHeader = validPNG()
        badHeader[24] = 3  // bit depth 3 does not exist
        badHeader[29...32] = ArraySlice(ReferencePNGWriter.chunk("IHDR", Array(badHeader[16..<29])).suffix(4))
        #expect { try PNGDecoder.decode(badHeader) } throws: { error in
            if case PNGError.corrupt = error { return true } else { return false }
        }
    }

    @Test func aHugeHeaderIsRefusedBeforeAllocating() {
        // 100000 x 100000 pixels claimed by an otherwise tiny file.
        var header: [UInt8] = []
        header += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 6, 0, 0, 0]
        let bytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ReferencePNGWriter.chunk("IHDR", header)
            + ReferencePNGWriter.chunk("IEND", [])
        #expect { try PNGDecoder.decode(bytes) } throws: { error in
            guard case PNGError.tooLarge(let message) = error else { return false }
            return message.contains("100000x100000")
        }
        #expect(throws: PNGError.self) { try PNGDecoder.decode(validPNG(), maxPixels: 100) }
    }
}

/// A colour component as cairo stores it in 8 bits (through 16-bit quantisation).
private func cairo8(_ component: Double) -> UInt8 {
    UInt8((UInt32(component * 65535 + 0.5)) >> 8)
}

/// Ancillary chunks cost nothing, whatever they claim.
@Suite("PNG ancillary chunks")
struct PNGAncillaryChunkTests {
    /// A 1x1 RGB PNG with `extra` inserted after the header.
    func png(inserting extra: [UInt8]) -> [UInt8] {
        let plain = ReferencePNGWriter.encode(width: 1, height: 1, colorType: .rgb, bitDepth: 8) { _, _ in [10, 20, 30] }
        let headerEnd = 8 + 8 + 13 + 4  // signature, IHDR length+type, IHDR data, CRC
        return Array(plain[..<headerEnd]) + extra + Array(plain[headerEnd...])
    }

    func chunk(_ type: String, _ data: [UInt8], claimedLength: UInt32? = nil) -> [UInt8] {
        let length = claimedLength ?? UInt32(data.count)
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return bigEndian(length) + body + bigEndian(crc)
    }

    @Test func aTextChunkClaimingGigabytesIsNotAllocated() throws {
        // 40 bytes that claim a 2 GB tEXt chunk: libpng used to allocate it before noticing.
        let bytes = png(inserting: []).prefix(33) + [0x7F, 0xFF, 0x00, 0x00] + Array("tEXtabc".utf8)
        #expect(throws: PNGError.self) { try PNGDecoder.decodePixels(Array(bytes)) }
    }

    @Test func ancillaryChunksAreSkippedAndTheImageDecodes() throws {
        let text = chunk("tEXt", Array("Comment\u{0}hello".utf8))
        let compressed = chunk("zTXt", Array("Comment".utf8) + [0, 0] + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        let image = try PNGDecoder.decode(png(inserting: text + compressed))
        #expect(image.pixel(x: 0, y: 0) == RGBA8(r: 10, g: 20, b: 30, a: 255))
    }
}
