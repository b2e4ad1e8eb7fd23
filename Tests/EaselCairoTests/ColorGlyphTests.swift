import Testing
import EaselGeometry
@testable import EaselCairo
import CEaselCairo

/// Colour emoji drawn by Easel from their strike, against cairo's own glyph path drawing the
/// same glyphs on the same background: the same pixels to within 2 levels at any size text is
/// set in, angle and position (3 enlarged 27 times); nothing where cairo draws nothing; each
/// glyph resampled once per transform.
@Suite("Colour glyphs")
struct ColorGlyphTests {
    static let background = Color(red: 0.9, green: 0.95, blue: 1)

    static func emoji() throws -> (face: FontFace, glyphs: [UInt]) {
        let face = try FontLibrary.shared.face(for: FontMap.colorEmoji)
        let glyphs = ["🎉", "🌻", "🏆"].map { face.glyph(for: $0.unicodeScalars.first!) }
        #expect(glyphs.allSatisfy { $0 != 0 } && face.colorStrike != nil)
        return (face, glyphs)
    }

    static func run(_ glyphs: [UInt]) -> [(index: UInt, x: Double, y: Double)] {
        glyphs.enumerated().map { (index: $1, x: Double($0) * 1.3, y: 0) }
    }

    /// The glyphs drawn by cairo itself (`cairo_show_glyphs`), as Easel drew them before.
    static func drawnByCairo(
        _ face: FontFace, _ glyphs: [UInt], size: Double, transform: Transform2D, color: Color, canvas: Int
    ) throws -> RasterImage {
        let image = try drawnNothing(canvas: canvas)
        let context = try CairoContext(image: image)
        try context.concatenate(transform)
        try context.setSource(color)
        let options = FontLibrary.makeFontOptions()
        defer { cairo_font_options_destroy(options) }
        cairo_set_font_options(context.cr, options)
        cairo_set_font_size(context.cr, size)
        cairo_set_font_face(context.cr, face.face)
        let cairoGlyphs = run(glyphs).map { cairo_glyph_t(index: $0.index, x: $0.x * size, y: $0.y * size) }
        cairo_show_glyphs(context.cr, cairoGlyphs, Int32(cairoGlyphs.count))
        return image
    }

    static func drawnByEasel(
        _ face: FontFace, _ glyphs: [UInt], size: Double, transform: Transform2D, color: Color, canvas: Int
    ) throws -> RasterImage {
        let image = try drawnNothing(canvas: canvas)
        let context = try CairoContext(image: image)
        #expect(context.drawsOnPixels)
        try context.showGlyphs([(face, run(glyphs))], size: size, color: color, transform: transform)
        return image
    }

    /// The largest difference of any channel of any pixel, and how many pixels differ.
    static func difference(_ a: RasterImage, _ b: RasterImage) -> (largest: Int, pixels: Int) {
        a.withUnsafePixels { first in
            b.withUnsafePixels { second in
                var largest = 0, pixels = 0
                for offset in stride(from: 0, to: first.count, by: 4) {
                    let channels = (0..<4).map { abs(Int(first[offset + $0]) - Int(second[offset + $0])) }
                    largest = max(largest, channels.max()!)
                    pixels += channels.max()! > 0 ? 1 : 0
                }
                return (largest, pixels)
            }
        }
    }

    static func inked(_ image: RasterImage) -> Int {
        let background = try! drawnNothing(canvas: image.width)
        return difference(image, background).pixels
    }

    /// The background alone.
    static func drawnNothing(canvas: Int) throws -> RasterImage {
        let image = try RasterImage(width: canvas, height: canvas)
        let context = try CairoContext(image: image)
        try context.setSource(background)
        cairo_paint(context.cr)
        return image
    }

    @Test(arguments: [
        (10.0, 0.0), (24, -2), (33.3, 2), (57.3, 0), (80, -30), (120, 2), (181, 90),
    ])
    func easelsColourGlyphsAreCairosWithinTwoLevels(size: Double, degrees: Double) throws {
        let (face, glyphs) = try Self.emoji()
        for origin in [Point(x: 20, y: 200), Point(x: 20.3, y: 200.6), Point(x: 19.5, y: 199.5)] {
            let transform = Transform2D.translation(x: origin.x, y: origin.y).rotatedBy(degrees: degrees)
            let cairo = try Self.drawnByCairo(face, glyphs, size: size, transform: transform, color: .black, canvas: 520)
            let easel = try Self.drawnByEasel(face, glyphs, size: size, transform: transform, color: .black, canvas: 520)
            let difference = Self.difference(cairo, easel)
            #expect(difference.largest <= 2, "size \(size), \(degrees)°, at \(origin): \(difference)")
            #expect(Self.inked(easel) > Int(size * size) / 2, "size \(size): the emoji are drawn")
        }
    }

    @Test func theTextColourIsIgnoredAsCairoIgnoresItAndAClearOneDrawsNothing() throws {
        let (face, glyphs) = try Self.emoji()
        let transform = Transform2D.translation(x: 30, y: 120)
        for alpha in [1, 0.5, 0.0039, 0.0038, 0] {
            let color = Color(red: 0.8, green: 0.1, blue: 0.3, alpha: alpha)
            let cairo = try Self.drawnByCairo(face, glyphs, size: 60, transform: transform, color: color, canvas: 300)
            let easel = try Self.drawnByEasel(face, glyphs, size: 60, transform: transform, color: color, canvas: 300)
            #expect(Self.difference(cairo, easel).largest <= 2, "alpha \(alpha)")
            #expect((Self.inked(easel) > 0) == (alpha >= 0.0039), "alpha \(alpha)")
        }
    }

    @Test func aRepeatedEmojiIsResampledOnceAndAGiantOneOnlyWhereItShows() throws {
        let (face, glyphs) = try Self.emoji()
        let strike = try #require(face.colorStrike)
        let cache = ColorGlyphCache(maxBytes: 1 << 20)
        let image = try RasterImage(width: 400, height: 200)
        let context = try CairoContext(image: image)
        let repeated = Self.run([glyphs[0], glyphs[0], glyphs[0], glyphs[1]])
        cairo_translate(context.cr, 10, 100)
        try context.drawColorGlyphs(repeated, strike: strike, size: 50, cache: cache)
        try context.drawColorGlyphs(repeated, strike: strike, size: 50, cache: cache)
        #expect(cache.count == 2)
        // 3,000 pixels to the em: far larger than the image, drawn only where it shows, kept nowhere.
        try context.drawColorGlyphs([(glyphs[2], 0, 0)], strike: strike, size: 3000, cache: cache)
        #expect(cache.count == 2)
        let giant = try Self.drawnByEasel(
            face, [glyphs[2]], size: 3000, transform: .translation(x: -900, y: 1500), color: .black, canvas: 300)
        let cairo = try Self.drawnByCairo(
            face, [glyphs[2]], size: 3000, transform: .translation(x: -900, y: 1500), color: .black, canvas: 300)
        let giantDifference = Self.difference(giant, cairo)
        // Enlarged 27 times, a few levels of rounding more than at the sizes text is set in.
        #expect(giantDifference.largest <= 3, "\(giantDifference)")
        #expect(Self.inked(giant) > 300 * 300 / 2)
        // The cache keeps within its bytes: the oldest glyphs go first.
        let small = ColorGlyphCache(maxBytes: 40_000)
        for size in stride(from: 40.0, to: 60, by: 1) {
            try context.drawColorGlyphs(Self.run([glyphs[1]]), strike: strike, size: size, cache: small)
        }
        #expect(small.count > 0 && small.count < 20)
    }

    @Test func aGlyphOutsideTheClipIsNeitherDecodedNorResampledAndOneThatReachesInIs() throws {
        let (face, glyphs) = try Self.emoji()
        let strike = try #require(face.colorStrike)
        let cache = ColorGlyphCache(maxBytes: 1 << 20)
        let image = try Self.drawnNothing(canvas: 200)
        let context = try CairoContext(image: image)
        // A band's clip: rows 40 to 60. At 50 pixels to the em a glyph reaches about 46 above
        // its baseline and 13 below it.
        cairo_rectangle(context.cr, 0, 40, 200, 20)
        cairo_clip(context.cr)
        cairo_translate(context.cr, 0, 20)
        let above = [(index: glyphs[1], x: 0.2, y: 0.0)]
        try context.drawColorGlyphs(above, strike: strike, size: 50, cache: cache)
        #expect(cache.count == 0)
        #expect(Self.inked(image) == 0)
        // Its baseline 30 rows lower: the glyph's top reaches into the clip.
        cairo_translate(context.cr, 0, 30)
        try context.drawColorGlyphs(above, strike: strike, size: 50, cache: cache)
        #expect(cache.count == 1)
        #expect(Self.inked(image) > 0)
    }

    @Test func anOriginFarOffTheOutputDrawsNothingAndNeverTraps() throws {
        let (face, glyphs) = try Self.emoji()
        for transform in [
            Transform2D.translation(x: 1e12, y: 5), .translation(x: -1e300, y: 1e300), .translation(x: 5, y: -9e18),
        ] {
            let easel = try Self.drawnByEasel(face, glyphs, size: 40, transform: transform, color: .black, canvas: 100)
            #expect(Self.inked(easel) == 0)
        }
        // cairo inks nothing under half a pixel to the em, and failed the render below a hundredth.
        for size in [0.4, 1e-3, 1e-5] {
            let tiny = try Self.drawnByEasel(
                face, glyphs, size: size, transform: .translation(x: 10, y: 10), color: .black, canvas: 100)
            #expect(Self.inked(tiny) == 0)
        }
    }
}
