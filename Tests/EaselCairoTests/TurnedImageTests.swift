import Testing
import EaselGeometry
@testable import EaselCairo
import CEaselCairo

/// Photos drawn turned are sampled by Easel (`turnedImageSamples`) and composited by cairo
/// untransformed: against cairo sampling the same photo itself, the same pixels to within 3
/// levels (a hundredth of a level on average) at any angle, scale in cairo's bilinear range, sub-pixel position and
/// opacity; the same bytes whichever band draws a pixel; cairo's own sampling wherever its
/// filter is not bilinear, and no trap for a photo placed anywhere.
@Suite("Turned photos")
struct TurnedImageTests {
    /// A photo-like test image: smooth gradients with one-pixel grain, a hard-edged disc,
    /// opaque (RGB24, as cairo reads opaque PNGs) or with translucent pixels.
    static func photo(width: Int = 240, height: Int = 180, opaque: Bool = true) throws -> RasterImage {
        let pixels = try PixelBuffer.forOutput(width: width, height: height)
        var state: UInt32 = 0x2545_F491
        for y in 0..<height {
            let row = (pixels.bytes + y * pixels.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                let grain = Int(state % 24)
                let inDisc = (x - 150) * (x - 150) + (y - 70) * (y - 70) < 40 * 40
                var (r, g, b) = (x * 200 / width + grain, y * 220 / height + grain, inDisc ? 250 : 40 + grain)
                let a = opaque ? 255 : (x + y) % 3 == 0 ? 128 : 255
                (r, g, b) = (min(r, 255) * a / 255, min(g, 255) * a / 255, min(b, 255) * a / 255)
                row[x] = UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | UInt32(a) << 24
            }
        }
        let image = try RasterImage(copying: pixels)
        guard opaque else { return image }
        // The same pixels in an RGB24 surface whose padding byte is garbage: it must read as opaque.
        let rgb = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        let stride = Int(cairo_image_surface_get_stride(rgb))
        image.withUnsafePixels { source in
            let target = cairo_image_surface_get_data(rgb)!
            for y in 0..<height {
                for x in 0..<width {
                    let value = source.load(fromByteOffset: y * image.stride + x * 4, as: UInt32.self)
                    (target + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
                        $0.pointee = value & 0x00FF_FFFF | 0x3700_0000
                    }
                }
            }
        }
        cairo_surface_mark_dirty(rgb)
        return RasterImage(adopting: rgb)
    }

    static func canvas() throws -> RasterImage {
        let image = try RasterImage(width: 400, height: 400)
        let context = try CairoContext(image: image)
        cairo_set_source_rgb(context.cr, 0.9, 0.95, 1)
        cairo_paint(context.cr)
        return image
    }

    /// The photo drawn by cairo itself, as `drawImage` drew it before.
    static func drawnByCairo(_ photo: RasterImage, _ transform: Transform2D, opacity: Double = 1) throws -> RasterImage {
        let image = try canvas()
        let context = try CairoContext(image: image)
        try context.concatenate(transform)
        cairo_set_source_surface(context.cr, photo.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context.cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(context.cr), CAIRO_EXTEND_PAD)
        cairo_rectangle(context.cr, 0, 0, Double(photo.width), Double(photo.height))
        if opacity < 1 {
            cairo_clip(context.cr)
            cairo_paint_with_alpha(context.cr, opacity)
        } else {
            cairo_fill(context.cr)
        }
        return image
    }

    /// The photo drawn by Easel, within `rows` of the canvas only (a band's clip) when given.
    static func drawnByEasel(
        _ photo: RasterImage, _ transform: Transform2D, opacity: Double = 1, rows: Range<Int>? = nil, onto: RasterImage? = nil
    ) throws -> RasterImage {
        let image = try onto ?? canvas()
        let context = try CairoContext(image: image)
        if let rows {
            cairo_rectangle(context.cr, 0, Double(rows.lowerBound), 400, Double(rows.count))
            cairo_clip(context.cr)
        }
        try context.concatenate(transform)
        try context.drawImage(photo, filter: .good, opacity: opacity)
        return image
    }

    static func samplesEasel(_ photo: RasterImage, _ transform: Transform2D) throws -> Bool {
        let context = try CairoContext(image: try canvas())
        try context.concatenate(transform)
        return try context.turnedImageSamples(photo, filter: .good) != nil
    }

    /// The largest difference of any channel, and the mean over all channels of all pixels.
    static func difference(_ a: RasterImage, _ b: RasterImage) -> (largest: Int, mean: Double) {
        a.withUnsafePixels { first in
            b.withUnsafePixels { second in
                var largest = 0, sum = 0
                for offset in 0..<first.count {
                    let d = abs(Int(first[offset]) - Int(second[offset]))
                    largest = max(largest, d)
                    sum += d
                }
                return (largest, Double(sum) / Double(first.count))
            }
        }
    }

    static let turns: [Transform2D] = [
        .translation(x: 90, y: 60).rotatedBy(degrees: 4),
        .translation(x: 120.3, y: 40.7).rotatedBy(degrees: -3),
        .translation(x: 200, y: 20.5).rotatedBy(degrees: 37),
        .translation(x: 300.25, y: 30).rotatedBy(degrees: 97),
        .translation(x: 100, y: 120).rotatedBy(degrees: 10).scaledBy(x: 0.8, y: 0.8),
        .translation(x: 60, y: 50).rotatedBy(degrees: -8).scaledBy(x: 1.4, y: 1.2),
        .translation(x: 210, y: 200).rotatedBy(degrees: 179.5),
    ]

    @Test(arguments: [true, false])
    func aTurnedPhotoIsCairosWithinThreeLevels(opaque: Bool) throws {
        let photo = try Self.photo(opaque: opaque)
        for transform in Self.turns {
            #expect(try Self.samplesEasel(photo, transform), "Easel samples \(transform)")
            for opacity in [1, 0.6] {
                let cairo = try Self.drawnByCairo(photo, transform, opacity: opacity)
                let easel = try Self.drawnByEasel(photo, transform, opacity: opacity)
                let difference = Self.difference(cairo, easel)
                #expect(difference.largest <= 3 && difference.mean < 0.05, "\(transform), opacity \(opacity): \(difference)")
            }
        }
    }

    /// A render draws in bands, each clipped to its rows: a pixel's sample depends on where
    /// it is, never on the band (where a band starts, its first row's position is computed
    /// from the device origin, not stepped from elsewhere).
    @Test func everyBandSamplesAPixelAlike() throws {
        let photo = try Self.photo()
        /// The samples by device pixel (copied: they are scratch memory the next drawing reuses).
        func samples(_ transform: Transform2D, rows: Range<Int>) throws -> [PixelPoint: RGBA8] {
            let context = try CairoContext(image: try Self.canvas())
            cairo_rectangle(context.cr, 0, Double(rows.lowerBound), 400, Double(rows.count))
            cairo_clip(context.cr)
            try context.concatenate(transform)
            guard let made = try context.turnedImageSamples(photo, filter: .good) else { return [:] }
            var byPixel: [PixelPoint: RGBA8] = [:]
            for y in 0..<made.samples.height {
                #expect(rows.contains(made.y + y))
                for x in 0..<made.samples.width {
                    byPixel[PixelPoint(x: made.x + x, y: made.y + y)] = made.samples.premultipliedPixel(x: x, y: y)
                }
            }
            return byPixel
        }
        for transform in Self.turns {
            let whole = try samples(transform, rows: 0..<400)
            #expect(!whole.isEmpty)
            var banded: [PixelPoint: RGBA8] = [:]
            for rows in [0..<37, 37..<150, 150..<151, 151..<400] {
                banded.merge(try samples(transform, rows: rows)) { first, _ in first }
            }
            let differing = whole.filter { banded[$0.key] != $0.value }.count
            #expect(banded.count == whole.count && differing == 0, "\(transform): \(differing) pixels differ")
        }
    }

    struct PixelPoint: Hashable {
        var x: Int, y: Int
    }

    @Test func cairoSamplesWhereItsFilterIsNotBilinearOrNothingTurns() throws {
        let photo = try Self.photo()
        for transform in [
            Transform2D.translation(x: 10, y: 10),  // not turned
            .translation(x: 10, y: 10).scaledBy(x: 0.5, y: 0.5),
            .translation(x: 210, y: 200).rotatedBy(degrees: 180),  // upside down, not turned askew
            .translation(x: 100, y: 10).rotatedBy(degrees: 5).scaledBy(x: 0.7, y: 0.7),  // a box filter
        ] {
            #expect(try !Self.samplesEasel(photo, transform), "\(transform)")
        }
        let context = try CairoContext(image: try Self.canvas())
        try context.concatenate(.translation(x: 90, y: 60).rotatedBy(degrees: 4))
        #expect(try context.turnedImageSamples(photo, filter: .nearest) == nil)
        #expect(try context.turnedImageSamples(photo, filter: .best) == nil)
    }

    @Test func aPhotoPlacedAnywhereNeverTraps() throws {
        let photo = try Self.photo(width: 40, height: 30)
        for transform in [
            Transform2D.translation(x: 1e12, y: 5).rotatedBy(degrees: 3),
            .translation(x: -1e300, y: 1e300).rotatedBy(degrees: 3),
            .translation(x: 5, y: -9e18).rotatedBy(degrees: 45),
            .translation(x: 131_000, y: -131_000).rotatedBy(degrees: 1),
            .translation(x: 50, y: 50).rotatedBy(degrees: 30).scaledBy(x: 1e-9, y: 1e-9),
            .translation(x: 50, y: 50).rotatedBy(degrees: 30).scaledBy(x: 1e9, y: 1e9),
        ] {
            let easel = try Self.drawnByEasel(photo, transform)
            let cairo = try Self.drawnByCairo(photo, transform)
            #expect(Self.difference(easel, cairo).largest <= 2, "\(transform)")
        }
    }
}
