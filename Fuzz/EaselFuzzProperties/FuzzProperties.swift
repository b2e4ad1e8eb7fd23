import Foundation
import EaselDocuments
import EaselCairo
import EaselRender
import EaselServer

/// The properties the fuzz targets check on every input, shared with the regression test
/// that runs every committed seed and finding (Fuzz/seeds) in the ordinary suite.
/// Each returns a description of the violation, or nil.
public enum FuzzProperties {
    /// Whatever decodes as a card or a drawing encodes and decodes back to an equal document.
    public static func documentRoundTrip(_ bytes: [UInt8]) -> String? {
        var warnings: [DocumentWarning] = []
        if let card = try? Card(decoding: bytes, file: "fuzz.rwcard", warnings: &warnings) {
            guard let encoded = try? CardEncoder.encode(card, file: "fuzz.rwcard") else {
                return "a decoded card cannot be encoded"
            }
            if (try? Card(decoding: encoded, file: "fuzz.rwcard", warnings: &warnings)) != card {
                return "card round trip changed the card"
            }
        }
        if let drawing = try? Drawing(decoding: bytes, file: "fuzz.drawing", warnings: &warnings) {
            if (try? Drawing(decoding: DrawingEncoder.encode(drawing), file: "fuzz.drawing", warnings: &warnings)) != drawing {
                return "drawing round trip changed the drawing"
            }
        }
        return nil
    }

    /// Whatever decodes as an image (PNG, JPEG with its EXIF orientation, or WebP, under a
    /// small pixel limit) re-encodes as PNG to the same pixels.
    public static func pngRoundTrip(_ bytes: [UInt8]) -> String? {
        guard let image = try? ImageDecoder.decode(bytes, maxPixels: 1 << 20) else { return nil }
        guard let encoded = try? PNGEncoder.encode(image, options: PNGEncodingOptions(colorMode: .rgba)),
            let again = try? PNGDecoder.decode(encoded)
        else { return "a decoded image cannot be re-encoded" }
        guard again.width == image.width, again.height == image.height else { return "re-encoding changed the size" }
        for y in 0..<image.height {
            for x in 0..<image.width where again.premultipliedPixel(x: x, y: y) != image.premultipliedPixel(x: x, y: y) {
                return "re-encoding changed pixel (\(x), \(y))"
            }
        }
        return nil
    }

    /// Easel's own PNG reader and libpng agree: with every chunk's CRC made right (so that
    /// mutations reach the pixel stream and the row filters instead of stopping at the
    /// first CRC), a file either decodes to the same pixels both ways or fails both ways;
    /// one that decodes also decodes reduced as its rows go by (by 2, 3 and 5), to the pixels
    /// of the whole image's reduction.
    public static func ownPNGReaderAgreesWithLibpng(_ bytes: [UInt8]) -> String? {
        let fixed = withChunkCRCsFixed(bytes)
        // Its two-thread way (for camera photos) takes and declines the same files, to the same pixels.
        if PNGDecoder.ownReaderPixels(fixed, maxPixels: 1 << 20, twoThreads: true)
            != PNGDecoder.ownReaderPixels(fixed, maxPixels: 1 << 20, twoThreads: false)
        {
            return "Easel's reader on two threads and on one disagree"
        }
        let own = try? PNGDecoder.decodePixels(fixed, maxPixels: 1 << 20, deadline: nil, libpngOnly: false)
        let libpng = try? PNGDecoder.decodePixels(fixed, maxPixels: 1 << 20, deadline: nil, libpngOnly: true)
        func same(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
            a.width == b.width && a.height == b.height
                && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.elementsEqual(y) } }
        }
        switch (own, libpng) {
        case (nil, nil): return nil
        case (let a?, let b?):
            guard same(a, b) else { return "Easel's reader and libpng gave other pixels" }
            // Reduced as the rows go by, to the pixels of the whole image's reduction.
            for factor in [2, 3, 5] {
                guard let small = try? PNGDecoder.decodePixels(fixed, maxPixels: 1 << 20, deadline: nil, reducedBy: factor)
                else { return "the decode reduced by \(factor) fails where the whole one does not" }
                guard same(small, a.reduced(by: factor)) else { return "the decode reduced by \(factor) gave other pixels" }
            }
            return nil
        case (nil, _?): return "libpng decodes a file Easel's reader path fails on"
        case (_?, nil): return "Easel's reader decodes a file libpng fails on"
        }
    }

    /// `bytes` with the CRC of every whole chunk after the signature set to its content's.
    static func withChunkCRCsFixed(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var offset = 8
        while offset + 12 <= result.count {
            let length =
                Int(result[offset]) << 24 | Int(result[offset + 1]) << 16 | Int(result[offset + 2]) << 8
                | Int(result[offset + 3])
            guard length <= result.count - offset - 12 else { break }
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in result[(offset + 4)..<(offset + 8 + length)] {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc = ~crc
            let at = offset + 8 + length
            (result[at], result[at + 1], result[at + 2], result[at + 3]) =
                (UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF))
            offset = at + 4
        }
        return result
    }

    /// A zip body reads as `POST /api/render` reads it (the structure check, then
    /// ZIPFoundation, under small limits) to a document and images, or is refused with a
    /// 400 or 413 that says why. A trap or a hang inside ZIPFoundation is the failure
    /// libFuzzer reports (Easel issue 36).
    public static func zipReads(_ bytes: [UInt8]) -> String? {
        let limits = ZipBody.Limits(maxEntries: 64, maxFileBytes: 1 << 20, maxTotalBytes: 4 << 20)
        do {
            let contents = try ZipBody.read(bytes, registry: .standard, limits: limits)
            if contents.documentPath.isEmpty { return "a zip read to a document without a path" }
        } catch {
            // `description` is the status code and the detail.
            guard error.description.hasPrefix("400 ") || error.description.hasPrefix("413 "), !error.detail.isEmpty else {
                return "a zip refused as \(error.description)"
            }
        }
        return nil
    }

    /// Whatever decodes as a drawing lowers and rasterises (64 pixels wide), or fails with a
    /// typed render error that says something: the budgets keep every input cheap.
    public static func drawingRenders(_ bytes: [UInt8]) -> String? {
        var warnings: [DocumentWarning] = []
        guard let drawing = try? Drawing(decoding: bytes, file: "fuzz.drawing", warnings: &warnings) else { return nil }
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/nonexistent-easel-fuzz/fuzz.drawing"))
        do {
            _ = try DocumentRenderer.render(located, options: RenderOptions(size: .width(64)))
        } catch {
            if "\(error)".isEmpty { return "a render error without a message" }
        }
        return nil
    }
}
