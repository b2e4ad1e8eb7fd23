import EaselDocuments
import EaselGeometry

/// A line's arrowheads: at each end that has one, a filled triangle pointing along the line,
/// its tip at the line's end, as long as four stroke widths (at least 10 units) and as wide
/// as three, and the stroked line cut back to its base, so that no cap shows past the tip.
enum ArrowheadShape {
    /// The line from `start` to `end` cut back where heads go, and the heads' outlines (in
    /// the same space as the points). A line too short for its heads keeps its length and
    /// gets heads that fit it.
    static func shapes(from start: Point, to end: Point, width: Double, ends: Stroke.Arrowheads)
        -> (line: Path, heads: [Path])
    {
        var line = Path()
        let dx = end.x - start.x, dy = end.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        let atStart = ends == .start || ends == .both, atEnd = ends == .end || ends == .both
        guard length > 0, atStart || atEnd, width.isFinite else {
            line.move(to: start)
            line.addLine(to: end)
            return (line, [])
        }
        let count = Double((atStart ? 1 : 0) + (atEnd ? 1 : 0))
        let headLength = min(max(10, width * 4), length / count)
        let halfWidth = max(width * 1.5, headLength * 0.375)
        let (ux, uy) = (dx / length, dy / length)
        func head(tip: Point, pointing sign: Double) -> (base: Point, outline: Path) {
            let base = Point(x: tip.x - sign * ux * headLength, y: tip.y - sign * uy * headLength)
            var outline = Path()
            outline.addPolygon([
                tip, Point(x: base.x - uy * halfWidth, y: base.y + ux * halfWidth),
                Point(x: base.x + uy * halfWidth, y: base.y - ux * halfWidth),
            ])
            return (base, outline)
        }
        var heads: [Path] = []
        var from = start, to = end
        if atStart {
            let made = head(tip: start, pointing: -1)
            from = made.base
            heads.append(made.outline)
        }
        if atEnd {
            let made = head(tip: end, pointing: 1)
            to = made.base
            heads.append(made.outline)
        }
        line.move(to: from)
        line.addLine(to: to)
        return (line, heads)
    }
}
