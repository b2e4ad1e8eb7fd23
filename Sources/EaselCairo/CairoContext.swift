import CEaselCairo
import EaselGeometry

/// A cairo drawing context that owns its `cairo_t` (destroyed in `deinit`) and checks
/// cairo's status after every call, throwing a typed error instead of drawing on silently
/// in an error state. One context belongs to one render on one thread.
public final class CairoContext {
    let cr: OpaquePointer
    /// Keeps the target alive as long as the context.
    private let target: AnyObject?

    /// A context that draws into `image` (and keeps it alive); throws when cairo cannot make one.
    public convenience init(image: RasterImage) throws(CairoError) {
        try self.init(surface: image.surface, owner: image)
    }

    init(surface: OpaquePointer, owner: AnyObject?) throws(CairoError) {
        let cr = cairo_create(surface)!
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            throw CairoError.status(status, in: "cairo_create")
        }
        self.cr = cr
        self.target = owner
        // Fixed, deterministic rendering settings.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY)
    }

    deinit { cairo_destroy(cr) }

    /// Throws when the context is in an error state; called after every operation.
    func check(_ operation: @autoclosure () -> String) throws(CairoError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError.status(status, in: operation()) }
    }

    // MARK: State

    /// Pushes the transform, clip and source onto cairo's state stack (`cairo_save`).
    public func save() throws(CairoError) {
        cairo_save(cr)
        try check("cairo_save")
    }
    /// Returns to the state of the matching `save()`; throws when there is none to restore.
    public func restore() throws(CairoError) {
        cairo_restore(cr)
        try check("cairo_restore")
    }

    /// Runs `body` between save and restore.
    public func withSavedState<R>(_ body: () throws(CairoError) -> R) throws(CairoError) -> R {
        try save()
        do {
            let result = try body()
            try restore()
            return result
        } catch {
            cairo_restore(cr)
            throw error
        }
    }

    /// Multiplies the current transformation matrix by `transform`, as `concatenate` does,
    /// unless the result would flatten everything to a line or a point (a frame of 1e-300, a
    /// scale of 0: the determinant is 0 or underflows to it). Cairo refuses such a matrix as
    /// an error, though it only means nothing drawn through it can be seen; false then, and
    /// the matrix is unchanged.
    public func concatenateIfVisible(_ transform: Transform2D) throws(CairoError) -> Bool {
        var current = cairo_matrix_t()
        cairo_get_matrix(cr, &current)
        var matrix = cairo_matrix_t(
            xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d,
            x0: transform.tx, y0: transform.ty)
        var product = cairo_matrix_t()
        cairo_matrix_multiply(&product, &matrix, &current)
        // As cairo judges it (`_cairo_matrix_is_invertible`).
        let determinant = product.xx * product.yy - product.yx * product.xy
        guard determinant.isFinite, determinant != 0 else { return false }
        try concatenate(transform)
        return true
    }

    /// The widest a stroke is drawn, in device pixels (`stroke`).
    static let widestDeviceStroke = 4 * Double(RenderLimits.maxOutputSide)

    /// How much the current transformation stretches lengths along its longest and its
    /// shortest axis (its singular values; both zero for a matrix that is not finite).
    func deviceScales() -> (largest: Double, smallest: Double) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let sum = m.xx * m.xx + m.yx * m.yx + m.xy * m.xy + m.yy * m.yy
        let determinant = abs(m.xx * m.yy - m.xy * m.yx)
        guard sum.isFinite, determinant.isFinite else { return (0, 0) }
        let largest = ((sum + max(0, sum * sum - 4 * determinant * determinant).squareRoot()) / 2).squareRoot()
        return largest > 0 ? (largest, determinant / largest) : (0, 0)
    }

    /// Multiplies the current transformation matrix by `transform` (applied first).
    public func concatenate(_ transform: Transform2D) throws(CairoError) {
        var matrix = cairo_matrix_t(
            xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d,
            x0: transform.tx, y0: transform.ty)
        cairo_transform(cr, &matrix)
        try check("cairo_transform \(transform)")
    }

    /// Makes `color`, clamped to 0...1, the paint for later fills and paints.
    public func setSource(_ color: Color) throws(CairoError) {
        let c = color.clamped
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        try check("cairo_set_source_rgba")
    }

    // MARK: Paths

    /// Replaces the current path with `path`.
    public func setPath(_ path: Path) throws(CairoError) {
        cairo_new_path(cr)
        var current = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                cairo_move_to(cr, p.x, p.y)
                current = p
            case .line(let p):
                cairo_line_to(cr, p.x, p.y)
                current = p
            case .quadCurve(let p, let c):
                let (c1, c2) = Path.cubicControls(start: current, control: c, end: p)
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .curve(let p, let c1, let c2):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .closeSubpath:
                cairo_close_path(cr)
                var x = 0.0, y = 0.0
                cairo_get_current_point(cr, &x, &y)
                current = Point(x: x, y: y)
            }
        }
        try check("building a path of \(path.elements.count) elements")
    }

    /// Fills `path` with the current source; the nonzero winding rule unless `evenOdd`.
    public func fill(_ path: Path, evenOdd: Bool = false) throws(CairoError) {
        try setPath(path)
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
        try check("cairo_fill")
    }

    /// Intersects the clip with `path`.
    public func clip(_ path: Path) throws(CairoError) {
        try setPath(path)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
        try check("cairo_clip")
    }

    /// Paints the current source over the whole clip region.
    public func paint() throws(CairoError) {
        cairo_paint(cr)
        try check("cairo_paint")
    }

    /// How the ends of an open stroke are drawn.
    public enum LineCap: Sendable { case butt, round, square }
    /// How the corners of a stroke are drawn.
    public enum LineJoin: Sendable { case miter, round, bevel }

    /// Strokes `path` in `color`, `width` units wide, with `dash` lengths (none: solid). A
    /// zero width draws nothing.
    public func stroke(
        _ path: Path, color: Color, width: Double, dash: [Double] = [], cap: LineCap = .butt,
        join: LineJoin = .miter
    ) throws(CairoError) {
        guard width > 0 else { return }
        try setPath(path)
        try setSource(color)
        // cairo's stroker works in fixed point: a pen millions of pixels wide (a wide stroke
        // at a deep zoom) wraps its coordinates and can run for hours. Beyond a few outputs'
        // width a stroke covers all it could show, so it is drawn that wide.
        let largest = deviceScales().largest
        cairo_set_line_width(cr, largest > 0 ? min(width, Self.widestDeviceStroke / largest) : width)
        cairo_set_line_cap(
            cr, cap == .round ? CAIRO_LINE_CAP_ROUND : (cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT))
        cairo_set_line_join(
            cr, join == .round ? CAIRO_LINE_JOIN_ROUND : (join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER))
        cairo_set_dash(cr, dash, Int32(dash.count), 0)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
        try check("cairo_stroke")
    }

    /// Starts drawing into an offscreen layer (see `popGroupAndPaint`).
    public func pushGroup() throws(CairoError) {
        cairo_push_group(cr)
        try check("cairo_push_group")
    }

    /// Intersects the clip with the whole device pixels (or points) covering `rect`, given in
    /// user units, and one more all round: a group started next (`pushGroup`) is then only as
    /// large as what it holds, and its edges, on whole pixels, change no pixel inside.
    /// On an SVG or PDF surface nothing is clipped: a group there is as large as what it
    /// holds anyway, and the clip would become a clip path that viewers draw as one more
    /// layer (resvg took 2.7 times as long over 100 faded shapes).
    public func clipToPixels(around rect: Rect) throws(CairoError) {
        guard cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE else { return }
        let corners = [
            (rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY),
        ].map { corner -> (Double, Double) in
            var (x, y) = corner
            cairo_user_to_device(cr, &x, &y)
            return (x, y)
        }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
            [minX, maxX, minY, maxY].allSatisfy(\.isFinite)
        else { return }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        cairo_identity_matrix(cr)
        cairo_new_path(cr)
        let left = (minX - 1).rounded(.down), top = (minY - 1).rounded(.down)
        cairo_rectangle(cr, left, top, (maxX + 1).rounded(.up) - left, (maxY + 1).rounded(.up) - top)
        cairo_clip(cr)
        cairo_set_matrix(cr, &matrix)
        try check("clipping a group to its bounds")
    }

    /// Composites the layer started by `pushGroup` at `opacity`.
    public func popGroupAndPaint(opacity: Double) throws(CairoError) {
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, min(1, max(0, opacity)))
        try check("compositing a group at opacity \(opacity)")
    }

    /// Draws glyphs on one baseline: each run's glyphs in its face at `size`, with pen
    /// positions given at size 1; `transform` maps the text's own space (baseline at y = 0)
    /// onto the current user space.
    public func showGlyphs(
        _ runs: [(face: FontFace, glyphs: [(index: UInt, x: Double, y: Double)])], size: Double, color: Color,
        transform: Transform2D
    ) throws(CairoError) {
        guard size > 0, !runs.isEmpty else { return }
        try withSavedState { () throws(CairoError) in
            guard try concatenateIfVisible(transform) else { return }
            // FreeType refuses glyphs much larger than an output's longest side; such a glyph
            // could not be seen whole anyway, so it is not drawn rather than failing the render.
            // Nor is one far smaller than a pixel (its font matrix could not be inverted).
            // Judged along the transform's longest and shortest axes: a text stretched along
            // one axis only has glyphs as large as that axis makes them (FreeType's error on a
            // glyph too large stays with the font's face, and failed every later render of it).
            let scales = deviceScales()
            guard size * scales.largest <= Double(RenderLimits.maxOutputSide), size * scales.smallest >= 1e-6 else { return }
            try setSource(color)
            let options = FontLibrary.makeFontOptions()
            defer { cairo_font_options_destroy(options) }
            cairo_set_font_options(cr, options)
            cairo_set_font_size(cr, size)
            // Colour glyphs are drawn by Easel on pixels only (SVG and PDF keep cairo's glyphs; a
            // shadow's recording replays cairo's).
            let colorGlyphsHere = drawsOnPixels
            for run in runs {
                if let strike = run.face.colorStrike, colorGlyphsHere {
                    // cairo draws no glyph, colour or not, in a colour it counts as clear: alpha
                    // at most 255 in 16 bits (`CAIRO_ALPHA_SHORT_IS_CLEAR`).
                    if color.clamped.alpha * 65535 + 0.5 >= 256 { try drawColorGlyphs(run.glyphs, strike: strike, size: size) }
                    continue
                }
                cairo_set_font_face(cr, run.face.face)
                let glyphs = run.glyphs.map { cairo_glyph_t(index: $0.index, x: $0.x * size, y: $0.y * size) }
                cairo_show_glyphs(cr, glyphs, Int32(glyphs.count))
                try check("drawing \(glyphs.count) glyphs of \(run.face)")
            }
        }
    }

    // MARK: Images

    /// Fills `image`'s own rectangle (0, 0, width, height) in the current user space with
    /// the image, sampled with `filter`, at `opacity`. Except on an SVG or PDF surface, the
    /// pattern is padded at its edges so that edge pixels are not blended with transparency;
    /// the rectangle's antialiased outline alone decides the image's edge.
    public func drawImage(_ image: RasterImage, filter: ImageFilter, opacity: Double = 1) throws(CairoError) {
        // A turned image's samples, made by Easel (`turnedImageSamples`), are the source in
        // device space, locked there before the user space comes back for the rectangle.
        let turned = try turnedImageSamples(image, filter: filter)
        // The samples are this thread's scratch memory: the source they were is put back after.
        let previousSource = turned == nil ? nil : cairo_pattern_reference(cairo_get_source(cr))
        defer {
            if let previousSource {
                cairo_set_source(cr, previousSource)
                cairo_pattern_destroy(previousSource)
            }
        }
        if let turned {
            var user = cairo_matrix_t()
            cairo_get_matrix(cr, &user)
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, turned.samples.surface, Double(turned.x), Double(turned.y))
            cairo_set_matrix(cr, &user)
        } else {
            cairo_set_source_surface(cr, image.surface, 0, 0)
        }
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, turned == nil ? filter.cairoFilter : CAIRO_FILTER_NEAREST)
        // Pixels (an image, or a shadow's recording): the edge pixels repeat outward, so that
        // the filter blends no transparent black into the edges. SVG and PDF: viewers sample
        // inside the image anyway, and a padded image is one cairo's PDF makes anew from the
        // pixels — it then drops the JPEG file given for the image
        // (`RasterImage.attachEncodedFile`) and deflates the pixels instead (a 4000x3000
        // photo's PDF was 17.9 MB for its 1.9 MB JPEG).
        let target = cairo_surface_get_type(cairo_get_target(cr))
        let vector = target == CAIRO_SURFACE_TYPE_PDF || target == CAIRO_SURFACE_TYPE_SVG
        cairo_pattern_set_extend(pattern, vector ? CAIRO_EXTEND_NONE : CAIRO_EXTEND_PAD)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        if opacity < 1 {
            // The image's rectangle as the clip, painted at the opacity: one layer, no group.
            cairo_save(cr)
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, max(0, opacity))
            cairo_restore(cr)
        } else {
            cairo_fill(cr)
        }
        try check("drawing a \(image.width)x\(image.height) image")
    }
}

/// How images are resampled when scaled.
public enum ImageFilter: String, Codable, Sendable, CaseIterable {
    /// cairo's GOOD filter: bilinear when enlarging, box-filtered when shrinking (no aliasing
    /// when a large photo is drawn small). Easel's default.
    case good
    /// cairo's BEST filter: a higher-order kernel; slower.
    case best
    /// Nearest neighbour: pixel art stays sharp.
    case nearest

    var cairoFilter: cairo_filter_t {
        switch self {
        case .good: return CAIRO_FILTER_GOOD
        case .best: return CAIRO_FILTER_BEST
        case .nearest: return CAIRO_FILTER_NEAREST
        }
    }
}
