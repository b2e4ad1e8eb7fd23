import EaselDocuments
import EaselGeometry

// What the property table asks of a graphic or a card element: its kind, and the parts
// it edits in place (a stroke made when the first stroke property is set, and so on).

extension Graphic {
    var isLine: Bool { if case .line = kind { true } else { false } }
    var isImage: Bool { if case .image = kind { true } else { false } }
    var isGroup: Bool { if case .group = kind { true } else { false } }
    var isText: Bool { if case .text = kind { true } else { false } }
    /// Shapes and lines: what the renderer strokes.
    var isStrokable: Bool { !isText && !isImage && !isGroup }
    var textContent: TextContent? { if case .text(let content) = kind { content } else { nil } }

    /// Changes the stroke, made (black, 1 unit wide) when the graphic has none.
    mutating func editStroke(_ change: (inout Stroke) -> Void) {
        var stroke = self.stroke ?? Stroke()
        change(&stroke)
        self.stroke = stroke
    }

    /// Changes the shadow, made with `Shadow`'s defaults when the graphic has none.
    mutating func editShadow(_ change: (inout Shadow) -> Void) {
        var shadow = self.shadow ?? Shadow()
        change(&shadow)
        self.shadow = shadow
    }

    /// Changes a text's content; nothing for other kinds.
    mutating func editText(_ change: (inout TextContent) -> Void) {
        guard case .text(var content) = kind else { return }
        change(&content)
        kind = .text(content)
    }

    /// A line's ends on its parent's canvas (the frame's unit-square points, placed as the
    /// frame is), without a transform's rounding noise; nil for other kinds.
    var lineEnds: (from: Point, to: Point)? {
        guard case .line(let start, let end) = kind else { return nil }
        let frame = transform
        func placed(_ point: Point) -> Point {
            let p = frame.frameToParent.apply(to: Point(x: point.x * frame.size.width, y: point.y * frame.size.height))
            return Point(x: roundedForText(p.x), y: roundedForText(p.y))
        }
        return (placed(start), placed(end))
    }

    /// Makes this a line from `from` to `to`: an unrotated frame spanning the two points,
    /// the line running between them in its unit square.
    mutating func placeLine(from: Point, to: Point) {
        let (dx, dy) = (to.x - from.x, to.y - from.y)
        transform = GraphicTransform(
            center: Point(x: (from.x + to.x) / 2, y: (from.y + to.y) / 2), size: Size(width: abs(dx), height: abs(dy)))
        func unit(_ delta: Double) -> (Double, Double) { delta == 0 ? (0.5, 0.5) : (delta > 0 ? (0, 1) : (1, 0)) }
        let (x0, x1) = unit(dx), (y0, y1) = unit(dy)
        kind = .line(from: Point(x: x0, y: y0), to: Point(x: x1, y: y1))
    }

}

extension CardElement {
    var isText: Bool { if case .text = self { true } else { false } }
    var text: TextElement? { if case .text(let element) = self { element } else { nil } }
    var image: ImageElement? { if case .image(let element) = self { element } else { nil } }

    /// Changes the element's frame, whichever kind it is.
    mutating func editTransform(_ change: (inout ElementTransform) -> Void) {
        switch self {
        case .image(var element):
            change(&element.transform)
            self = .image(element)
        case .text(var element):
            change(&element.transform)
            self = .text(element)
        }
    }

    /// Changes a text element; nothing for an image.
    mutating func editText(_ change: (inout TextElement) -> Void) {
        guard case .text(var element) = self else { return }
        change(&element)
        self = .text(element)
    }

    /// Changes an image element; nothing for a text.
    mutating func editImage(_ change: (inout ImageElement) -> Void) {
        guard case .image(var element) = self else { return }
        change(&element)
        self = .image(element)
    }
}
