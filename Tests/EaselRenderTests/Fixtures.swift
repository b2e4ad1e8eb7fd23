import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport

/// Builders for the documents and images the render tests use.
enum Fixtures {
    /// A PNG of one solid colour (straight alpha), made by Easel's own encoder.
    static func solidPNG(width: Int, height: Int, color: Color) throws -> [UInt8] {
        let image = try RasterImage(width: width, height: height)
        let context = try CairoContext(image: image)
        try context.setSource(color)
        try context.paint()
        return try PNGEncoder.encode(image)
    }

    /// Writes `card` into `folder` under its app file name and returns the file's URL.
    @discardableResult
    static func write(_ card: Card, in folder: TemporaryFolder) throws -> URL {
        try folder.write(try CardEncoder.encode(card, file: card.appFileName), to: card.appFileName)
    }

    /// The 8-bit value cairo stores for a colour component: it rounds to 16 bits first,
    /// then keeps the high byte (0.942 -> 241, where rounding straight to 8 bits gives 240).
    static func cairo8(_ component: Double) -> UInt8 {
        UInt8((UInt32(component * 65535 + 0.5)) >> 8)
    }

    static func decodePNG(_ bytes: [UInt8]) throws -> RasterImage { try PNGDecoder.decode(bytes) }
}
