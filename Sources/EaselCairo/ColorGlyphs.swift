import CEaselCairo
import CEaselFreeType
import EaselSupport

/// A colour bitmap font's one strike (Noto Color Emoji's 109 ppem PNGs), read through a
/// FreeType face of its own, so that Easel can draw its glyphs without cairo's glyph path.
///
/// Why: cairo 1.16 decodes a colour glyph's PNG anew, and resamples it, for every size and
/// angle it is drawn at, holding the font face's lock while it does (about 0.8 ms an emoji,
/// and the bands of one render wait for each other). Easel makes each glyph's image at a
/// size and angle once per process, outside any lock but its cache's, the way cairo makes
/// it, so the pixels stay cairo's (`ColorGlyphTests` holds them to within 2 levels).
final class ColorGlyphStrike: @unchecked Sendable {
    /// A glyph of the strike: premultiplied BGRA rows (cairo's ARGB32 on little-endian
    /// machines) and where the bitmap sits from the pen, in strike pixels (y up).
    struct Bitmap {
        var image: RasterImage
        var left: Int
        var top: Int
    }

    /// The strike's pixels per em, across and down.
    let xPPEM: Double
    let yPPEM: Double
    // FreeType's library and face, used only under `lock`: a face serves one thread at a time.
    private let library: FT_Library
    private let face: FT_Face
    private let lock = Locked(())

    /// The strike of the font at `path`, or nil unless it is a colour bitmap font
    /// (`isColorBitmapFont`).
    init?(path: String, faceIndex: Int) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        var face: FT_Face?
        guard FT_New_Face(library, path, faceIndex, &face) == 0, let face else {
            FT_Done_FreeType(library)
            return nil
        }
        guard Self.isColorBitmapFont(face), FT_Select_Size(face, 0) == 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            return nil
        }
        self.library = library
        self.face = face
        xPPEM = Double(face.pointee.size.pointee.metrics.x_ppem)
        yPPEM = Double(face.pointee.size.pointee.metrics.y_ppem)
        guard xPPEM > 0, yPPEM > 0 else { return nil }
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Whether `face` is a font whose glyphs Easel draws from a strike: colour bitmaps, no
    /// outlines, exactly one strike (cairo picks among several by its own rule).
    static func isColorBitmapFont(_ face: FT_Face) -> Bool {
        let flags = face.pointee.face_flags
        return flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0
            && face.pointee.num_fixed_sizes == 1
    }

    /// Where a glyph's bitmap lies from the pen, in strike pixels (y up): its left and top
    /// edges and its size.
    struct Extent {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
    }

    /// The glyph's extent, read from the strike's metrics without decoding its PNG (nil when
    /// the glyph has no bitmap).
    func extent(of glyph: UInt) -> Extent? {
        guard let index = FT_UInt(exactly: glyph) else { return nil }
        return lock.withLock { _ -> Extent? in
            guard FT_Load_Glyph(face, index, Int32(FT_LOAD_COLOR) | Int32(FT_LOAD_BITMAP_METRICS_ONLY)) == 0,
                let slot = face.pointee.glyph
            else { return nil }
            let bitmap = slot.pointee.bitmap
            return Extent(
                left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: Int(bitmap.width),
                height: Int(bitmap.rows))
        }
    }

    /// The glyph's bitmap, decoded now (nil when the glyph has no colour bitmap).
    func bitmap(for glyph: UInt) -> Bitmap? {
        guard let index = FT_UInt(exactly: glyph) else { return nil }
        return lock.withLock { _ -> Bitmap? in
            guard FT_Load_Glyph(face, index, Int32(FT_LOAD_COLOR)) == 0, let slot = face.pointee.glyph else { return nil }
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), width > 0, height > 0, pitch >= width * 4,
                let source = bitmap.buffer, let image = try? RasterImage(width: width, height: height)
            else { return nil }
            image.withUnsafeMutablePixels { pixels in
                for row in 0..<height {
                    let target = pixels.baseAddress! + row * image.stride
                    target.copyMemory(from: source + row * pitch, byteCount: width * 4)
                }
            }
            return Bitmap(image: image, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
        }
    }
}

/// Colour glyphs resampled to a device transform, kept for the process within a byte
/// budget (oldest out first, a quarter of the budget at a time): a text that repeats an
/// emoji resamples it once.
final class ColorGlyphCache: Sendable {
    /// The process's cache.
    static let shared = ColorGlyphCache(maxBytes: 16 << 20)

    /// A glyph of a strike through a device transform (the font size folded in).
    struct Key: Hashable {
        var strike: ObjectIdentifier
        var glyph: UInt
        var xx: Double, yx: Double, xy: Double, yy: Double
    }

    /// A resampled glyph: its pixels, whose top-left corner is `(x, y)` device pixels from
    /// the glyph's origin rounded to a whole pixel. Immutable, so that renders on several
    /// threads draw it at once, each through a cairo surface of its own.
    struct Placed: Sendable {
        var pixels: PixelBuffer
        var x: Int
        var y: Int
    }

    /// The largest glyph image kept (a side in pixels); larger ones are made for each draw,
    /// only as far as they are visible.
    static let largestKeptSide = 512

    private let maxBytes: Int
    private struct State {
        var entries: [Key: Placed] = [:]
        var order: [Key] = []
        var bytes = 0
    }
    private let state = Locked(State())

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func placed(for key: Key) -> Placed? { state.withLock { $0.entries[key] } }

    func keep(_ placed: Placed, for key: Key) {
        let size = placed.pixels.stride * placed.pixels.height
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = placed
            state.order.append(key)
            state.bytes += size
            guard state.bytes > maxBytes else { return }
            // Down to three quarters at once: each glyph is dropped in one pass over the order.
            var dropped = 0
            while state.bytes > maxBytes / 4 * 3, dropped < state.order.count {
                if let gone = state.entries.removeValue(forKey: state.order[dropped]) {
                    state.bytes -= gone.pixels.stride * gone.pixels.height
                }
                dropped += 1
            }
            state.order.removeFirst(dropped)
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}

/// A rectangle of whole device pixels.
struct PixelBox: Equatable {
    var minX: Int, minY: Int, maxX: Int, maxY: Int
    var width: Int { maxX - minX }
    var height: Int { maxY - minY }
    var isEmpty: Bool { maxX <= minX || maxY <= minY }

    func intersection(_ other: PixelBox) -> PixelBox {
        PixelBox(
            minX: max(minX, other.minX), minY: max(minY, other.minY), maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
    }

    func offsetBy(x: Int, y: Int) -> PixelBox { PixelBox(minX: minX + x, minY: minY + y, maxX: maxX + x, maxY: maxY + y) }

    /// The whole pixels covering `minX...maxX` by `minY...maxY`, or nil when a bound is not
    /// finite or beyond `limit` (nothing so far out can be on an output).
    static func covering(minX: Double, minY: Double, maxX: Double, maxY: Double, limit: Double) -> PixelBox? {
        let bounds = [minX, minY, maxX, maxY]
        guard bounds.allSatisfy({ $0.isFinite && abs($0) <= limit }) else { return nil }
        return PixelBox(
            minX: Int(minX.rounded(.down)), minY: Int(minY.rounded(.down)), maxX: Int(maxX.rounded(.up)),
            maxY: Int(maxY.rounded(.up)))
    }
}

extension CairoContext {
    /// Draws `glyphs` of a colour bitmap strike at `size`, pen positions given at size 1 in
    /// the current user space, as cairo would: each glyph's strike bitmap resampled with
    /// the GOOD filter through the glyph's device transform and placed at its origin rounded
    /// to a whole device pixel, in its own colours (cairo ignores the text colour for colour
    /// glyphs, and draws nothing when that colour is transparent).
    func drawColorGlyphs(
        _ glyphs: [(index: UInt, x: Double, y: Double)], strike: ColorGlyphStrike, size: Double, cache: ColorGlyphCache = .shared
    )
        throws(CairoError)
    {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        // The glyph's strike pixels to device pixels, about its origin.
        let sx = size / strike.xPPEM, sy = size / strike.yPPEM
        let linear = (xx: matrix.xx * sx, yx: matrix.yx * sx, xy: matrix.xy * sy, yy: matrix.yy * sy)
        guard [linear.xx, linear.yx, linear.xy, linear.yy].allSatisfy(\.isFinite) else { return }
        // Under half a device pixel to the em cairo inks nothing (and below a hundredth its
        // resampling fails for want of memory): nothing is drawn.
        guard size * abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx).squareRoot() >= 0.5 else { return }
        guard let visible = visibleDevicePixels() else { return }
        for glyph in glyphs {
            let penX = glyph.x * size, penY = glyph.y * size
            let originX = matrix.xx * penX + matrix.xy * penY + matrix.x0
            let originY = matrix.yx * penX + matrix.yy * penY + matrix.y0
            guard originX.isFinite, originY.isFinite, abs(originX) <= Self.deviceLimit, abs(originY) <= Self.deviceLimit else {
                continue
            }
            // As cairo places glyph images (`_cairo_lround`): halves round up.
            let roundedX = Int((originX + 0.5).rounded(.down)), roundedY = Int((originY + 0.5).rounded(.down))
            let key = ColorGlyphCache.Key(
                strike: ObjectIdentifier(strike), glyph: glyph.index, xx: linear.xx, yx: linear.yx, xy: linear.xy, yy: linear.yy)
            let placed: ColorGlyphCache.Placed
            if let kept = cache.placed(for: key) {
                placed = kept
            } else {
                // A glyph outside what this drawing shows (the rest of a line that crosses into
                // another band) is neither decoded nor resampled: none of it would be drawn.
                let onOutput = visible.offsetBy(x: -roundedX, y: -roundedY)
                // (FreeType refuses a glyph whose PNG is not the size its metrics say, so the
                // decoded bitmap covers exactly this box.)
                guard let extent = strike.extent(of: glyph.index),
                    let whole = Self.deviceBox(of: extent, through: linear),
                    !whole.intersection(onOutput).isEmpty,
                    let bitmap = strike.bitmap(for: glyph.index)
                else { continue }
                let kept = whole.width <= ColorGlyphCache.largestKeptSide && whole.height <= ColorGlyphCache.largestKeptSide
                let region = kept ? whole : whole.intersection(onOutput)
                guard !region.isEmpty, let pixels = try Self.resample(bitmap, through: linear, into: region) else { continue }
                placed = ColorGlyphCache.Placed(pixels: pixels, x: region.minX, y: region.minY)
                if kept { cache.keep(placed, for: key) }
            }
            let image = try RasterImage(sharing: placed.pixels)
            cairo_save(cr)
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, image.surface, Double(roundedX + placed.x), Double(roundedY + placed.y))
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
            cairo_paint(cr)
            cairo_restore(cr)
            try check("drawing a colour glyph")
        }
    }

    /// The whole device pixels a strike bitmap of `extent` covers through `linear`, about the
    /// glyph origin.
    private static func deviceBox(
        of extent: ColorGlyphStrike.Extent, through linear: (xx: Double, yx: Double, xy: Double, yy: Double)
    ) -> PixelBox? {
        let left = Double(extent.left), top = Double(-extent.top)
        return devicePixels(
            coveringLeft: left, top: top, right: left + Double(extent.width), bottom: top + Double(extent.height),
            through: cairo_matrix_t(xx: linear.xx, yx: linear.yx, xy: linear.xy, yy: linear.yy, x0: 0, y0: 0))
    }

    /// The part `region` (device pixels about the glyph origin) of the bitmap resampled
    /// through `linear` with the GOOD filter.
    private static func resample(
        _ bitmap: ColorGlyphStrike.Bitmap, through linear: (xx: Double, yx: Double, xy: Double, yy: Double), into region: PixelBox
    ) throws(CairoError) -> PixelBuffer? {
        guard let pixels = try? PixelBuffer.forOutput(width: region.width, height: region.height) else { return nil }
        let context = try CairoContext(image: RasterImage(sharing: pixels))
        var placement = cairo_matrix_t(
            xx: linear.xx, yx: linear.yx, xy: linear.xy, yy: linear.yy, x0: Double(-region.minX), y0: Double(-region.minY))
        cairo_set_matrix(context.cr, &placement)
        cairo_translate(context.cr, Double(bitmap.left), Double(-bitmap.top))
        // As cairo transforms a glyph's bitmap: painted whole, transparent beyond its edges.
        cairo_set_source_surface(context.cr, bitmap.image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context.cr), CAIRO_FILTER_GOOD)
        cairo_set_operator(context.cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(context.cr)
        try context.check("resampling a colour glyph")
        return pixels
    }
}
