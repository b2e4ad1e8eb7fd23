import CEaselCairo
import EaselGeometry

extension CairoContext {
    /// The most pixels one shadow's mask may have: a larger one is drawn at a coarser
    /// resolution (as it is for a wide blur), so a shadow costs at most about 16 MB.
    static let maxShadowMaskPixels = 16 << 20
    /// The widest blur, in mask pixels, drawn at full resolution; a wider one is drawn on a
    /// coarser mask (halved as often as needed) and scaled up, which looks the same.
    static let maxShadowSigma = 24.0

    /// Draws the drop shadow of what `content` draws into the context it is given: the
    /// content's silhouette (its coverage; colours ignored), blurred with a Gaussian of
    /// standard deviation `blurRadius / 2` (as CSS and SwiftUI read a shadow's radius),
    /// moved by `offset` and painted in `color`. `offset` and `blurRadius` are in user units.
    /// The blur is three box blurs in each direction, the approximation the SVG
    /// specification gives for `feGaussianBlur`. Only the part of the shadow that can reach
    /// the clip is drawn, on pixels aligned to the device, so a strip of an image draws
    /// exactly the pixels the whole image would.
    public func drawShadow(
        color: Color, offset: Point, blurRadius: Double, content: (CairoContext) throws -> Void
    ) throws {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        let scale = abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx).squareRoot()
        let sigma = max(0, blurRadius / 2 * scale)
        guard scale.isFinite, scale > 0, sigma.isFinite else { return }

        // The silhouette, recorded in device space.
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)!
        defer { cairo_surface_destroy(recording) }
        let recorder = try CairoContext(surface: recording, owner: nil)
        cairo_set_matrix(recorder.cr, &matrix)
        try content(recorder)
        var ink = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
        cairo_recording_surface_ink_extents(recording, &ink.x, &ink.y, &ink.width, &ink.height)
        guard ink.width > 0, ink.height > 0 else { return }

        // Where the shadow lands, in device pixels: the ink moved by the offset, widened by
        // the blur's reach, kept to the clip (widened as much, so the blur near its edges
        // is the same as the whole image's).
        let dx = offset.x * matrix.xx + offset.y * matrix.xy
        let dy = offset.x * matrix.yx + offset.y * matrix.yy
        let reach = (3 * sigma).rounded(.up) + 2
        var clip = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &clip.x1, &clip.y1, &clip.x2, &clip.y2)
        cairo_restore(cr)
        // The mask, in the silhouette's own (unmoved) device space.
        let left = max(ink.x - reach, clip.x1 - dx - reach), right = min(ink.x + ink.width + reach, clip.x2 - dx + reach)
        let top = max(ink.y - reach, clip.y1 - dy - reach), bottom = min(ink.y + ink.height + reach, clip.y2 - dy + reach)
        guard left.isFinite, top.isFinite, right > left, bottom > top else { return }

        // A coarser mask for a wide blur or a large area; aligned to its own pixels
        // (multiples of `step` in device space), so strips compute the same mask pixels.
        var step = 1.0
        while sigma / step > Self.maxShadowSigma
            || ((right - left) / step) * ((bottom - top) / step) > Double(Self.maxShadowMaskPixels)
        {
            step *= 2
        }
        guard step <= 512 else { return }
        let x0 = (left / step).rounded(.down) * step, y0 = (top / step).rounded(.down) * step
        let width = Int(((right - x0) / step).rounded(.up)), height = Int(((bottom - y0) / step).rounded(.up))

        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(mask) }
        let painter = try CairoContext(surface: mask, owner: nil)
        cairo_scale(painter.cr, 1 / step, 1 / step)
        cairo_translate(painter.cr, -x0, -y0)
        cairo_set_source_surface(painter.cr, recording, 0, 0)
        cairo_paint(painter.cr)
        try painter.check("drawing a shadow's silhouette")
        cairo_surface_flush(mask)
        guard let pixels = cairo_image_surface_get_data(mask) else {
            throw CairoError.status(cairo_surface_status(mask), in: "a shadow's mask")
        }
        let stride = Int(cairo_image_surface_get_stride(mask))
        BoxBlur.gaussian(pixels, width: width, height: height, stride: stride, sigma: sigma / step)
        cairo_surface_mark_dirty(mask)

        try withSavedState { () throws(CairoError) in
            cairo_identity_matrix(cr)
            cairo_translate(cr, x0 + dx, y0 + dy)
            cairo_scale(cr, step, step)
            try setSource(color)
            cairo_mask_surface(cr, mask, 0, 0)
            try check("painting a shadow")
        }
    }
}

/// Blurs an 8-bit mask in place with three box blurs in each direction, which together
/// approximate a Gaussian (the SVG specification's recipe for `feGaussianBlur`).
enum BoxBlur {
    static func gaussian(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        // The box width the specification gives for this deviation, made odd so each box
        // is centred on its pixel.
        let box = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)) | 1
        guard box > 1 else { return }
        let radius = box / 2
        var line = [Int](repeating: 0, count: max(width, height))
        for _ in 0..<3 {
            for y in 0..<height { blur(data + y * stride, count: width, step: 1, radius: radius, scratch: &line) }
            for x in 0..<width { blur(data + x, count: height, step: stride, radius: radius, scratch: &line) }
        }
    }

    /// One box blur of `count` values `step` apart (outside them: 0), by a running sum.
    private static func blur(
        _ start: UnsafeMutablePointer<UInt8>, count: Int, step: Int, radius: Int, scratch: inout [Int]
    ) {
        for i in 0..<count { scratch[i] = Int(start[i * step]) }
        let box = 2 * radius + 1
        var sum = 0
        for i in 0..<min(radius, count) { sum += scratch[i] }
        for i in 0..<count {
            if i + radius < count { sum += scratch[i + radius] }
            if i - radius - 1 >= 0 { sum -= scratch[i - radius - 1] }
            start[i * step] = UInt8((sum + box / 2) / box)
        }
    }
}
