import CEaselCairo
import EaselSupport

/// Where in device pixels a drawing lands: what the clip shows, what a transformed
/// rectangle covers, and whether the target is pixels at all. Easel's own pixel work (colour
/// glyphs, turned photos) looks only at what these say is visible.
extension CairoContext {
    /// How far from the output a device coordinate may be and still be looked at: beyond
    /// it nothing can be visible, and whole-pixel arithmetic could overflow.
    static var deviceLimit: Double { 4 * Double(RenderLimits.maxOutputSide) }

    /// Whether this context draws into pixels (an image surface, or a group on one), not
    /// an SVG, a PDF or a shadow's recording, which keep cairo's own drawing.
    var drawsOnPixels: Bool { cairo_surface_get_type(cairo_get_group_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE }

    /// The whole device pixels the current clip shows, within `deviceLimit` of the origin.
    func visibleDevicePixels() -> PixelBox? {
        var clipLeft = 0.0, clipTop = 0.0, clipRight = 0.0, clipBottom = 0.0
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &clipLeft, &clipTop, &clipRight, &clipBottom)
        cairo_restore(cr)
        let limit = Self.deviceLimit
        return PixelBox.covering(
            minX: max(clipLeft, -limit), minY: max(clipTop, -limit), maxX: min(clipRight, limit),
            maxY: min(clipBottom, limit), limit: limit)
    }

    /// The whole device pixels the rectangle from (`left`, `top`) to (`right`, `bottom`)
    /// covers through `matrix`; nil beyond `deviceLimit`.
    static func devicePixels(
        coveringLeft left: Double, top: Double, right: Double, bottom: Double, through matrix: cairo_matrix_t
    ) -> PixelBox? {
        let corners = [(left, top), (right, top), (left, bottom), (right, bottom)].map { x, y in
            (matrix.xx * x + matrix.xy * y + matrix.x0, matrix.yx * x + matrix.yy * y + matrix.y0)
        }
        return PixelBox.covering(
            minX: corners.map(\.0).min()!, minY: corners.map(\.1).min()!, maxX: corners.map(\.0).max()!,
            maxY: corners.map(\.1).max()!, limit: deviceLimit)
    }
}
