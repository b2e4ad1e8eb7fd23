import Foundation
import EaselDocuments
import EaselCairo
import EaselRender

/// The properties the fuzz targets check on every input, shared with the regression test
/// that runs every committed seed and finding (Fuzz/seeds) in the ordinary suite.
/// Each returns a description of the violation, or nil.
public enum FuzzProperties {
    /// Whatever decodes as a card or a drawing encodes and decodes back to an equal document.
    public static func documentRoundTrip(_ bytes: [UInt8]) -> String? {
        var warnings: [DocumentWarning] = []
        if let card = try? CardDecoder.decode(bytes, file: "fuzz.rwcard", warnings: &warnings) {
            guard let encoded = try? CardEncoder.encode(card, file: "fuzz.rwcard") else {
                return "a decoded card cannot be encoded"
            }
            if (try? CardDecoder.decode(encoded, file: "fuzz.rwcard", warnings: &warnings)) != card {
                return "card round trip changed the card"
            }
        }
        if let drawing = try? DrawingDecoder.decode(bytes, file: "fuzz.drawing", warnings: &warnings) {
            if (try? DrawingDecoder.decode(DrawingEncoder.encode(drawing), file: "fuzz.drawing", warnings: &warnings)) != drawing
            {
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

    /// Whatever decodes as a drawing lowers and rasterises (64 pixels wide), or fails with a
    /// typed render error that says something: the budgets keep every input cheap.
    public static func drawingRenders(_ bytes: [UInt8]) -> String? {
        var warnings: [DocumentWarning] = []
        guard let drawing = try? DrawingDecoder.decode(bytes, file: "fuzz.drawing", warnings: &warnings) else { return nil }
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/nonexistent-easel-fuzz/fuzz.drawing"))
        do {
            _ = try DocumentRenderer.render(located, options: RenderOptions(size: .width(64)))
        } catch {
            if "\(error)".isEmpty { return "a render error without a message" }
        }
        return nil
    }
}
