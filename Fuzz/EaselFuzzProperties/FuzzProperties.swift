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
