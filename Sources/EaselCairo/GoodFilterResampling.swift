import CEaselCairo
import EaselSupport
import Foundation

/// An ARGB image painted with `CAIRO_FILTER_GOOD` and `CAIRO_OPERATOR_SOURCE` through an
/// affine transform onto a new, clear ARGB image, computed here with exactly the arithmetic
/// cairo 1.16 and pixman 0.42 use for it, so the pixels are theirs, byte for byte.
///
/// Why not cairo itself: pixman draws such a picture through its generic per-pixel fetcher
/// (`bits_image_fetch_separable_convolution_affine`: a function call per tap, its bounds
/// checked, the image's repeat mode asked), about a third of a millisecond for one emoji at
/// text sizes, and a card of text and emoji spends most of its first drawing there. The same
/// sums over the same fixed-point weights, with the window's bounds checked once a pixel,
/// take a fraction of that (`GoodFilterResamplingTests` holds both to the same bytes).
///
/// What it copies: the pattern matrix cairo's gstate makes (`cairo_set_matrix`, then
/// `cairo_translate`, then the source set at the origin); cairo's conversion of that matrix
/// to pixman's 16.16 transform (`_cairo_matrix_to_pixman_matrix_offset`: the translation
/// split off as whole pixels, then corrected at the middle of the image); cairo's box kernel
/// for GOOD (`create_separable_convolution`); pixman's convolution of a pixel (its phase,
/// its window, the weights' product rounded, the sums rounded and clamped). Whatever falls
/// outside what this covers (a matrix pixman cannot hold, a point it cannot transform) is
/// left to cairo (`nil`).
enum GoodFilterResampling {
    /// The `width` x `height` pixels of `source` (premultiplied ARGB32) painted with the CTM
    /// `placement` then translated by `offset`, as `cairo_set_matrix`, `cairo_translate`,
    /// `cairo_set_source_surface(…, 0, 0)` with the GOOD filter, and `cairo_paint` with
    /// `CAIRO_OPERATOR_SOURCE` on a new image would draw them; nil when cairo must.
    static func resample(
        _ source: RasterImage, placement: cairo_matrix_t, offset: (x: Double, y: Double), width: Int, height: Int
    ) -> PixelBuffer? {
        guard width > 0, height > 0, (try? RenderLimits.checkOutput(width: width, height: height)) != nil,
            let plan = Plan(placement: placement, offset: offset, width: width, height: height)
        else { return nil }
        let pixels = PixelBuffer(width: width, height: height)
        let drawn = source.withUnsafePixels { sourcePixels in
            plan.draw(
                from: sourcePixels.baseAddress!, width: source.width, height: source.height, stride: source.stride,
                into: pixels.bytes, stride: pixels.stride)
        }
        return drawn ? pixels : nil
    }

    /// What cairo hands pixman for one paint: the transform, the whole-pixel offset of the
    /// source, and the filter's weights.
    struct Plan {
        var transform: PixmanTransform
        var sourceX: Int32
        var sourceY: Int32
        var kernel: SeparableKernel
        var width: Int
        var height: Int

        init?(placement: cairo_matrix_t, offset: (x: Double, y: Double), width: Int, height: Int) {
            // The gstate: the CTM's inverse, then the translation's inverse after it.
            var ctmInverse = placement
            var identity = cairo_matrix_t()
            cairo_matrix_init_identity(&identity)
            if !Self.sameMatrix(placement, identity) {
                guard cairo_matrix_invert(&ctmInverse) == CAIRO_STATUS_SUCCESS else { return nil }
            }
            var step = cairo_matrix_t()
            cairo_matrix_init_translate(&step, -offset.x, -offset.y)
            var before = ctmInverse
            cairo_matrix_multiply(&ctmInverse, &before, &step)
            // The pattern's own matrix (the source set at 0, 0), transformed at the paint.
            var patternMatrix = cairo_matrix_t()
            cairo_matrix_init_translate(&patternMatrix, -0.0, -0.0)
            var sourceMatrix = patternMatrix
            cairo_matrix_multiply(&patternMatrix, &ctmInverse, &sourceMatrix)
            self.width = width
            self.height = height
            // `_cairo_composite_reduce_pattern`: cairo draws with NEAREST when pixels map one
            // to one and with BILINEAR when the picture shrinks by less than 4/3 (or by half
            // along an axis, at a whole-pixel offset). Those are cairo's to draw; GOOD's
            // convolution is what remains (which also leaves out every pure translation).
            if Self.isPixelExact(patternMatrix)
                || (Self.usesBilinear(patternMatrix.xx, patternMatrix.xy, patternMatrix.x0)
                    && Self.usesBilinear(patternMatrix.yx, patternMatrix.yy, patternMatrix.y0))
            {
                return nil
            }
            guard
                let (transform, x, y) = Self.pixmanTransform(
                    of: patternMatrix, centre: (Double(width) / 2, Double(height) / 2))
            else { return nil }
            self.transform = transform
            (sourceX, sourceY) = (x, y)
            kernel = SeparableKernel(goodFilterFor: patternMatrix)
        }

        /// Fills the target's rows (zeroed) as pixman does; false when a row's first point
        /// cannot be transformed (pixman would leave that row's buffer as it was).
        func draw(
            from source: UnsafeRawPointer, width sourceWidth: Int, height sourceHeight: Int, stride sourceStride: Int,
            into target: UnsafeMutableRawPointer, stride targetStride: Int
        ) -> Bool {
            let image = SourceImage(pixels: source, width: sourceWidth, height: sourceHeight, stride: sourceStride)
            // Each row's first point, checked before any pixel is written.
            var starts: [(x: Int32, y: Int32)] = []
            starts.reserveCapacity(height)
            for row in 0..<height {
                let line = Int32(truncatingIfNeeded: row) &+ sourceY
                let point = transform.apply(
                    x: Int64(sourceX) << 16 + 0x8000, y: Int64(line) << 16 + 0x8000, w: 1 << 16)
                guard let point, Self.fitsComfortably(point, transform: transform, count: width) else { return false }
                starts.append(point)
            }
            for row in 0..<height {
                let out = (target + row * targetStride).assumingMemoryBound(to: UInt32.self)
                kernel.convolveRow(
                    image, from: starts[row], step: (transform.xx, transform.yx), count: width, into: out)
            }
            return true
        }

        /// `_cairo_matrix_is_pixel_exact`: a scale of one along the axes (or across them) and
        /// a translation of whole pixels in cairo's 24.8 fixed point.
        static func isPixelExact(_ m: cairo_matrix_t) -> Bool {
            PixmanTransform.hasUnityScale(m) && CairoRounding.fixed24(m.x0) & 0xFF == 0
                && CairoRounding.fixed24(m.y0) & 0xFF == 0
        }

        /// `use_bilinear` for one row of the pattern matrix (the inverse of the drawing's):
        /// a scale above 0.75, or exactly a half along an axis at a whole-pixel offset.
        static func usesBilinear(_ x: Double, _ y: Double, _ t: Double) -> Bool {
            let h = x * x + y * y
            if h < 1.0 / (0.75 * 0.75) { return true }
            return h > 3.99 && h < 4.01 && CairoRounding.fixed24(x * y) == 0 && CairoRounding.fixed24(t) & 0xFF == 0
        }

        /// Whether the row's points stay far inside 32 bits (pixman's fixed-point sums wrap
        /// beyond; such a picture is cairo's to draw).
        static func fitsComfortably(_ start: (x: Int32, y: Int32), transform: PixmanTransform, count: Int) -> Bool {
            let limit = Int64(1) << 29
            let endX = Int64(start.x) + Int64(transform.xx) * Int64(count)
            let endY = Int64(start.y) + Int64(transform.yx) * Int64(count)
            return [Int64(start.x), Int64(start.y), endX, endY].allSatisfy { abs($0) < limit }
        }

        /// cairo's `PIXMAN_MAX_INT` (`(pixman_fixed_1 >> 1) - pixman_fixed_e`, an integer):
        /// the largest matrix entry or offset it hands pixman.
        static let maxInt = Double((65536 >> 1) - 1)

        static func sameMatrix(_ a: cairo_matrix_t, _ b: cairo_matrix_t) -> Bool {
            a.xx == b.xx && a.yx == b.yx && a.xy == b.xy && a.yy == b.yy && a.x0 == b.x0 && a.y0 == b.y0
        }

        /// `_cairo_matrix_to_pixman_matrix_offset`: the translation split between whole pixels
        /// of source offset and the transform, then `_cairo_matrix_to_pixman_matrix`.
        static func pixmanTransform(of matrix: cairo_matrix_t, centre: (x: Double, y: Double)) -> (
            PixmanTransform, Int32, Int32
        )? {
            var m = matrix
            cairo_matrix_translate(&m, 0, 0)
            var offsetX: Int32 = 0, offsetY: Int32 = 0
            if m.x0 != 0.0 || m.y0 != 0.0 {
                var tx = m.x0, ty = m.y0
                var norm = max(abs(tx), abs(ty))
                for i in stride(from: -1.0, to: 2.0, by: 2.0) {
                    for j in stride(from: -1.0, to: 2.0, by: 2.0) {
                        var den = (m.xx + i) * (m.yy + j) - m.xy * m.yx
                        if abs(den) < Double.ulpOfOne { continue }
                        var x = m.y0 * m.xy - m.x0 * (m.yy + j)
                        var y = m.x0 * m.yx - m.y0 * (m.xx + i)
                        den = 1 / den
                        x *= den
                        y *= den
                        let newNorm = max(abs(x), abs(y))
                        if norm > newNorm {
                            norm = newNorm
                            tx = x
                            ty = y
                        }
                    }
                }
                tx = tx.rounded(.down)
                ty = ty.rounded(.down)
                guard let x = Int32(exactly: -tx), let y = Int32(exactly: -ty) else { return nil }
                (offsetX, offsetY) = (x, y)
                cairo_matrix_translate(&m, tx, ty)
            }
            guard let transform = PixmanTransform(cairo: m, centre: centre) else { return nil }
            return (transform, offsetX, offsetY)
        }
    }

    /// A source image read as pixman reads one with no repeat: transparent outside.
    struct SourceImage {
        let pixels: UnsafeRawPointer
        let width: Int
        let height: Int
        let stride: Int

        @inline(__always)
        func pixel(x: Int, y: Int) -> UInt32 {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            return (pixels + y * stride).assumingMemoryBound(to: UInt32.self)[x]
        }
    }
}

/// pixman's 16.16 affine transform (its last row is always 0, 0, 1).
struct PixmanTransform {
    var xx: Int32, xy: Int32, x0: Int32
    var yx: Int32, yy: Int32, y0: Int32

    /// `_cairo_matrix_to_pixman_matrix`: each entry rounded to 16.16, then the translation
    /// corrected (up to five times) so that the point at `centre` lands where cairo's own
    /// matrix puts it. Nil where cairo fails (an entry beyond `PIXMAN_MAX_INT`).
    init?(cairo matrix: cairo_matrix_t, centre: (x: Double, y: Double)) {
        xx = CairoRounding.fixed16(matrix.xx)
        xy = CairoRounding.fixed16(matrix.xy)
        x0 = CairoRounding.fixed16(matrix.x0)
        yx = CairoRounding.fixed16(matrix.yx)
        yy = CairoRounding.fixed16(matrix.yy)
        y0 = CairoRounding.fixed16(matrix.y0)
        if Self.hasUnityScale(matrix) { return }
        let limit = GoodFilterResampling.Plan.maxInt
        guard
            [matrix.xx, matrix.xy, matrix.x0, matrix.yx, matrix.yy, matrix.y0].allSatisfy({ abs($0) <= limit })
        else { return nil }
        var inverse = matrix
        guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return }
        for _ in 0..<5 {
            guard
                let point = apply(
                    x: Int64(CairoRounding.fixed16(centre.x)), y: Int64(CairoRounding.fixed16(centre.y)), w: 1 << 16)
            else { return }
            var x = Double(point.x) / 65536, y = Double(point.y) / 65536
            cairo_matrix_transform_point(&inverse, &x, &y)
            x -= centre.x
            y -= centre.y
            var fixed = matrix
            cairo_matrix_transform_distance(&fixed, &x, &y)
            let dx = CairoRounding.fixed16(x), dy = CairoRounding.fixed16(y)
            x0 = x0 &- dx
            y0 = y0 &- dy
            if dx == 0 && dy == 0 { return }
        }
    }

    /// `_cairo_matrix_has_unity_scale`: a determinant of ±1 (within cairo's epsilon) and an
    /// axis along x or y.
    static func hasUnityScale(_ m: cairo_matrix_t) -> Bool {
        let epsilon = 1.0 / 256
        let det = m.xx * m.yy - m.yx * m.xy
        guard abs(det * det - 1.0) < epsilon else { return false }
        if abs(m.xy) < epsilon && abs(m.yx) < epsilon { return true }
        if abs(m.xx) < epsilon && abs(m.yy) < epsilon { return true }
        return false
    }

    /// `pixman_transform_point_3d`: the point (48.16) through the transform, nil unless the
    /// result fits pixman's 16.16.
    func apply(x: Int64, y: Int64, w: Int64) -> (x: Int32, y: Int32)? {
        func row(_ a: Int32, _ b: Int32, _ c: Int32) -> Int64 {
            let whole = Int64(a) &* (x >> 16) &+ Int64(b) &* (y >> 16) &+ Int64(c) &* (w >> 16)
            let fraction = Int64(a) &* (x & 0xFFFF) &+ Int64(b) &* (y & 0xFFFF) &+ Int64(c) &* (w & 0xFFFF)
            return whole &+ ((fraction &+ 0x8000) >> 16)
        }
        guard let rx = Int32(exactly: row(xx, xy, x0)), let ry = Int32(exactly: row(yx, yy, y0)) else { return nil }
        return (rx, ry)
    }
}

/// cairo's rounding of doubles to its fixed-point and whole numbers.
enum CairoRounding {
    /// `_cairo_fixed_16_16_from_double`: rounded to nearest (ties to even) through the
    /// magic number 1.5 × 2^36, the low 32 bits of the sum.
    static func fixed16(_ value: Double) -> Int32 {
        Int32(truncatingIfNeeded: (value + 103_079_215_104.0).bitPattern)
    }

    /// `_cairo_fixed_from_double`: cairo's 24.8 fixed point, through the magic number
    /// 1.5 × 2^44.
    static func fixed24(_ value: Double) -> Int32 {
        Int32(truncatingIfNeeded: (value + 26_388_279_066_624.0).bitPattern)
    }
}

/// cairo's separable box kernel for the GOOD filter (`create_separable_convolution` with
/// `KERNEL_BOX`), and pixman's convolution with it.
struct SeparableKernel {
    let width: Int
    let height: Int
    let xPhaseBits: Int
    let yPhaseBits: Int
    /// Each phase's weights across, then each phase's down, in 16.16.
    let xWeights: [Int32]
    let yWeights: [Int32]

    /// The kernel cairo sets for a pattern matrix with the GOOD filter: its scales the sides
    /// of the square a pixel maps to, clipped to 16 and, under 4/3, taken as 1.
    init(goodFilterFor matrix: cairo_matrix_t) {
        func clipped(_ scale: Double) -> Double {
            var scale = scale < 0x7FFF ? scale : 0x7FFF
            if scale > 16.0 { scale = 16.0 }
            if scale < 1.0 / 0.75 { scale = 1.0 }
            return scale
        }
        let dx = clipped(hypot(matrix.xx, matrix.xy)), dy = clipped(hypot(matrix.yx, matrix.yy))
        (width, xPhaseBits, xWeights) = Self.weights(scale: dx)
        (height, yPhaseBits, yWeights) = Self.weights(scale: dy)
    }

    /// `box_width`, the subsample bits and `get_filter` for one axis.
    static func weights(scale r: Double) -> (width: Int, phaseBits: Int, weights: [Int32]) {
        let width = r < 1.0 ? 2 : Int((r + 1).rounded(.up))
        var subsample = 0
        if width > 1 {
            while r * Double(1 << subsample) <= 128.0 { subsample += 1 }
        }
        let phases = 1 << subsample
        let step = 1.0 / Double(phases)
        var weights = [Int32](repeating: 0, count: phases * width)
        for phase in 0..<phases {
            let frac = (Double(phase) + 0.5) * step
            let x1 = (frac - Double(width) / 2.0 - 0.5).rounded(.up) - frac + 0.5
            var total = 0.0
            var newTotal: Int32 = 0
            for j in 0..<width {
                let v = boxKernel(x1 + Double(j), r)
                total += v
                weights[phase * width + j] = truncated(v * 65536.0)
            }
            total = 1 / total
            for j in 0..<width {
                let scaled = truncated(Double(weights[phase * width + j]) * total)
                weights[phase * width + j] = scaled
                newTotal = newTotal &+ scaled
            }
            weights[phase * width + width / 2] = weights[phase * width + width / 2] &+ (65536 &- newTotal)
        }
        return (width, subsample, weights)
    }

    /// `box_kernel`: a box of width `r` against a square pixel (cairo's MIN and MAX macros).
    static func boxKernel(_ x: Double, _ r: Double) -> Double {
        func minimum(_ a: Double, _ b: Double) -> Double { a < b ? a : b }
        func maximum(_ a: Double, _ b: Double) -> Double { a > b ? a : b }
        return maximum(0.0, minimum(minimum(r, 1.0), minimum((r + 1) / 2 - x, (r + 1) / 2 + x)))
    }

    /// C's conversion of a double to `pixman_fixed_t` (toward zero), without a trap.
    static func truncated(_ value: Double) -> Int32 {
        guard value.isFinite, value > -2_147_483_649, value < 2_147_483_648 else { return Int32.min }
        return Int32(value.rounded(.towardZero))
    }

    /// pixman's separable convolution (`bits_image_fetch_separable_convolution_affine`, no
    /// repeat, ARGB32) of `count` pixels from the point `start`, stepping by `step`. A tap
    /// whose weight is zero adds nothing (its product rounds to 0), so every tap is summed;
    /// a window inside the image is read without bounds checks.
    func convolveRow(
        _ image: GoodFilterResampling.SourceImage, from start: (x: Int32, y: Int32), step: (x: Int32, y: Int32), count: Int,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        let xShift = Int32(16 - xPhaseBits), yShift = Int32(16 - yPhaseBits)
        let xOff = (Int32(width) << 16 &- 65536) >> 1, yOff = (Int32(height) << 16 &- 65536) >> 1
        let (width, height, stride) = (self.width, self.height, image.stride)
        let lastX = image.width - width, lastY = image.height - height
        var vx = start.x, vy = start.y
        xWeights.withUnsafeBufferPointer { xWeights in
            yWeights.withUnsafeBufferPointer { yWeights in
                for k in 0..<count {
                    let x = ((vx >> xShift) << xShift) &+ ((1 << xShift) >> 1)
                    let y = ((vy >> yShift) << yShift) &+ ((1 << yShift) >> 1)
                    let px = Int((x & 0xFFFF) >> xShift), py = Int((y & 0xFFFF) >> yShift)
                    let x1 = Int((x &- 1 &- xOff) >> 16), y1 = Int((y &- 1 &- yOff) >> 16)
                    let xw = xWeights.baseAddress! + px * width, yw = yWeights.baseAddress! + py * height
                    var sum = SIMD4<Int32>(repeating: 0)
                    if x1 >= 0, y1 >= 0, x1 <= lastX, y1 <= lastY {
                        var row = image.pixels + y1 * stride + x1 * 4
                        for i in 0..<height {
                            let fy = Int64(yw[i])
                            let pixels = row.assumingMemoryBound(to: UInt32.self)
                            for j in 0..<width {
                                let f = Int32(truncatingIfNeeded: (Int64(xw[j]) &* fy &+ 0x8000) >> 16)
                                sum &+= Self.channels(pixels[j]) &* f
                            }
                            row += stride
                        }
                    } else {
                        for i in 0..<height {
                            let fy = Int64(yw[i])
                            for j in 0..<width {
                                let f = Int32(truncatingIfNeeded: (Int64(xw[j]) &* fy &+ 0x8000) >> 16)
                                sum &+= Self.channels(image.pixel(x: x1 + j, y: y1 + i)) &* f
                            }
                        }
                    }
                    let rounded = (sum &+ 0x8000) &>> 16
                    let clamped = rounded.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
                    out[k] = unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: clamped), to: UInt32.self)
                    vx = vx &+ step.x
                    vy = vy &+ step.y
                }
            }
        }
    }

    /// An ARGB32 pixel's four channels in memory order (blue, green, red, alpha on the
    /// little-endian machines Easel runs on), each widened to 32 bits.
    @inline(__always)
    static func channels(_ pixel: UInt32) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(pixel, to: SIMD4<UInt8>.self))
    }
}
