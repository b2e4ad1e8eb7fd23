import CEaselCairo
import EaselGeometry
import EaselDocuments

/// A cairo drawing context that owns its `cairo_t` (destroyed in `deinit`) and checks
/// cairo's status after every call, throwing a typed error instead of drawing on silently
/// in an error state. One context belongs to one render on one thread.
public final class CairoContext {
    let cr: OpaquePointer
    /// Keeps the target alive as long as the context.
    private let target: AnyObject?

    public convenience init(image: RasterImage) throws(RenderError) {
        try self.init(surface: image.surface, owner: image)
    }

    init(surface: OpaquePointer, owner: AnyObject?) throws(RenderError) {
        let cr = cairo_create(surface)!
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            throw RenderError.cairo(status, in: "cairo_create")
        }
        self.cr = cr
        self.target = owner
        // Fixed, deterministic rendering settings.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY)
    }

    deinit { cairo_destroy(cr) }

    /// Throws when the context is in an error state; called after every operation.
    func check(_ operation: @autoclosure () -> String) throws(RenderError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError.cairo(status, in: operation()) }
    }

    // MARK: State

    public func save() throws(RenderError) { cairo_save(cr); try check("cairo_save") }
    public func restore() throws(RenderError) { cairo_restore(cr); try check("cairo_restore") }

    /// Runs `body` between save and restore.
    public func withSavedState<R>(_ body: () throws(RenderError) -> R) throws(RenderError) -> R {
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

    /// Multiplies the current transformation matrix by `transform` (applied first).
    public func concatenate(_ transform: Transform2D) throws(RenderError) {
        var matrix = cairo_matrix_t(xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d,
                                    x0: transform.tx, y0: transform.ty)
        cairo_transform(cr, &matrix)
        try check("cairo_transform \(transform)")
    }

    public func setSource(_ color: Color) throws(RenderError) {
        let c = color.clamped
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        try check("cairo_set_source_rgba")
    }

    // MARK: Paths

    /// Replaces the current path with `path`.
    public func setPath(_ path: Path) throws(RenderError) {
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

    public func fill(_ path: Path, evenOdd: Bool = false) throws(RenderError) {
        try setPath(path)
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
        try check("cairo_fill")
    }

    /// Intersects the clip with `path`.
    public func clip(_ path: Path) throws(RenderError) {
        try setPath(path)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
        try check("cairo_clip")
    }

    public func paint() throws(RenderError) {
        cairo_paint(cr)
        try check("cairo_paint")
    }

    /// Strokes `path` with `style`. A zero width draws nothing.
    public func stroke(_ path: Path, style: StrokeStyle) throws(RenderError) {
        guard style.width > 0 else { return }
        try setPath(path)
        try setSource(style.color)
        cairo_set_line_width(cr, style.width)
        cairo_set_line_cap(cr, style.cap == .round ? CAIRO_LINE_CAP_ROUND : (style.cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT))
        cairo_set_line_join(cr, style.join == .round ? CAIRO_LINE_JOIN_ROUND : (style.join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER))
        cairo_set_dash(cr, style.dash, Int32(style.dash.count), 0)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
        try check("cairo_stroke")
    }

    /// Starts drawing into an offscreen layer (see `popGroupAndPaint`).
    public func pushGroup() throws(RenderError) {
        cairo_push_group(cr)
        try check("cairo_push_group")
    }

    /// Composites the layer started by `pushGroup` at `opacity`.
    public func popGroupAndPaint(opacity: Double) throws(RenderError) {
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, min(1, max(0, opacity)))
        try check("compositing a group at opacity \(opacity)")
    }

    /// Draws a line of text: each run's glyphs in its face at the text's size.
    public func drawText(_ text: SceneText) throws(RenderError) {
        guard text.fontSize > 0, !text.line.runs.isEmpty else { return }
        try withSavedState { () throws(RenderError) in
            try concatenate(text.transform)
            try setSource(text.color)
            let options = FontLibrary.makeFontOptions()
            defer { cairo_font_options_destroy(options) }
            cairo_set_font_options(cr, options)
            cairo_set_font_size(cr, text.fontSize)
            for run in text.line.runs {
                cairo_set_font_face(cr, run.face.face)
                let glyphs = run.glyphs.map { cairo_glyph_t(index: $0.index, x: $0.x * text.fontSize, y: 0) }
                cairo_show_glyphs(cr, glyphs, Int32(glyphs.count))
                try check("drawing \(glyphs.count) glyphs of \(run.face)")
            }
        }
    }

    // MARK: Images

    /// Fills `image`'s own rectangle (0, 0, width, height) in the current user space with
    /// the image, sampled with `filter`. The pattern is padded at its edges so that edge
    /// pixels are not blended with transparency; the rectangle's antialiased outline alone
    /// decides the image's edge.
    public func drawImage(_ image: RasterImage, filter: ImageFilter) throws(RenderError) {
        cairo_set_source_surface(cr, image.surface, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, filter.cairoFilter)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        cairo_fill(cr)
        try check("drawing a \(image.width)x\(image.height) image")
    }
}

/// How images are resampled when scaled.
public enum ImageFilter: String, Sendable, CaseIterable {
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
