import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo

/// Small images with an unmistakable orientation, drawn with Easel's own cairo wrapper.
enum TestImages {
    /// A 300x200 image split in four coloured quadrants with a white marker in the top-left,
    /// so any flip, rotation or crop shows.
    static func quadrants(width: Int = 300, height: Int = 200) throws -> [UInt8] {
        let image = try RasterImage(width: width, height: height)
        let context = try CairoContext(image: image)
        let (w, h) = (Double(width), Double(height))
        let colors = [Color(rgb: 0xE63946), Color(rgb: 0x2A9D8F), Color(rgb: 0xE9C46A), Color(rgb: 0x264653)]
        for (i, color) in colors.enumerated() {
            var quad = Path()
            quad.addRect(Rect(x: Double(i % 2) * w / 2, y: Double(i / 2) * h / 2, width: w / 2, height: h / 2))
            try context.setSource(color)
            try context.fill(quad)
        }
        var marker = Path()
        marker.addEllipse(in: Rect(x: w * 0.08, y: h * 0.1, width: w * 0.15, height: w * 0.15))
        try context.setSource(.white)
        try context.fill(marker)
        return try PNGEncoder.encode(image)
    }

    /// An opaque 24x16 image (smaller than any frame it is drawn in).
    static func small() throws -> [UInt8] { try quadrants(width: 24, height: 16) }
}
