import EaselGeometry

/// Where `order` moves an element.
public enum OrderDirection: String, Sendable, CaseIterable {
    /// Drawn last (on top).
    case front
    /// Drawn first (at the bottom).
    case back
    /// One step towards the front.
    case forward
    /// One step towards the back.
    case backward
}

extension EditableDocument {
    /// A card element's position in its own list.
    private enum CardSlot { case image(Int), text(Int) }

    private func cardSlot(_ card: Card, _ index: Int) throws(EditError) -> CardSlot {
        guard index >= 0, index < card.imageElements.count + card.textElements.count else {
            throw .indexOutOfRange(index, count: card.imageElements.count + card.textElements.count, kind: "card")
        }
        return index < card.imageElements.count ? .image(index) : .text(index - card.imageElements.count)
    }

    private func checkDrawingIndex(_ drawing: Drawing, _ index: Int) throws(EditError) {
        guard index >= 0, index < drawing.graphics.count else {
            throw .indexOutOfRange(index, count: drawing.graphics.count, kind: "drawing")
        }
    }

    /// Adds a graphic on top of a drawing. Returns its index.
    @discardableResult
    public mutating func add(_ graphic: Graphic) throws(EditError) -> Int {
        guard case .drawing(var drawing) = self else {
            throw EditError("a card holds only images and texts: use `add PATH image FILE.png` or `add PATH text \"...\"`")
        }
        guard drawing.graphics.count < DrawingLimits.maxGraphics else { throw EditError("the drawing already has \(DrawingLimits.maxGraphics) graphics") }
        drawing.graphics.append(graphic)
        self = .drawing(drawing)
        return drawing.graphics.count - 1
    }

    /// Adds an image element to a card (after its other images, so below every text, as the
    /// app draws them). Returns its index in drawing order.
    @discardableResult
    public mutating func add(_ element: ImageElement) throws(EditError) -> Int {
        guard case .card(var card) = self else { throw EditError("use `add PATH image FILE` with a drawing's image options") }
        guard card.imageElements.count < CardLimits.maxElements else { throw EditError("the card already has \(CardLimits.maxElements) images") }
        card.imageElements.append(element)
        self = .card(card)
        return card.imageElements.count - 1
    }

    /// Adds a text element to a card (on top). Returns its index in drawing order.
    @discardableResult
    public mutating func add(_ element: TextElement) throws(EditError) -> Int {
        guard case .card(var card) = self else { throw EditError("a drawing's text is a graphic of kind text") }
        guard card.textElements.count < CardLimits.maxElements else { throw EditError("the card already has \(CardLimits.maxElements) texts") }
        card.textElements.append(element)
        self = .card(card)
        return card.imageElements.count + card.textElements.count - 1
    }

    /// Applies `changes` to the element at `index`.
    public mutating func apply(_ changes: ElementChanges, at index: Int) throws(EditError) {
        try changes.validate()
        switch self {
        case .drawing(var drawing):
            try checkDrawingIndex(drawing, index)
            drawing.graphics[index] = try drawing.graphics[index].applying(changes)
            self = .drawing(drawing)
        case .card(var card):
            let slot = try cardSlot(card, index)
            if changes.strokeColor != nil || changes.strokeWidth != nil || changes.dash != nil || changes.removeStroke || changes.opacity != nil {
                throw EditError("card elements have no stroke or opacity (the Cards app stores neither)")
            }
            switch slot {
            case .image(let i):
                var element = card.imageElements[i]
                element.transform = Self.cardTransform(element.transform, changes)
                if let clip = changes.clip { element.clip = clip }
                if changes.fill != nil || changes.text != nil || changes.font != nil {
                    throw EditError("element \(index) is an image: --fill, --text and --font apply to texts")
                }
                card.imageElements[i] = element
            case .text(let i):
                var element = card.textElements[i]
                element.transform = Self.cardTransform(element.transform, changes)
                if let fill = changes.fill {
                    guard let fill else { throw EditError("a card text needs a colour") }
                    element.textColor = fill
                }
                if let text = changes.text { element.text = text }
                if let font = changes.font { element.textFont = font }
                if changes.clip != nil { throw EditError("element \(index) is a text: only images have clip shapes on a card") }
                card.textElements[i] = element
            }
            self = .card(card)
        }
    }

    private static func cardTransform(_ transform: ElementTransform, _ changes: ElementChanges) -> ElementTransform {
        var result = transform
        if let center = changes.center {
            result.offset = Point(x: center.x - Card.canvasSize.width / 2, y: center.y - Card.canvasSize.height / 2)
        }
        if let size = changes.size { result.size = size }
        if let rotation = changes.rotationDegrees { result.rotationDegrees = rotation }
        return result
    }

    /// The centre of the element at `index`, in canvas coordinates.
    public func center(of index: Int) throws(EditError) -> Point {
        switch self {
        case .drawing(let drawing):
            try checkDrawingIndex(drawing, index)
            return drawing.graphics[index].transform.center
        case .card(let card):
            switch try cardSlot(card, index) {
            case .image(let i): return card.imageElements[i].transform.center
            case .text(let i): return card.textElements[i].transform.center
            }
        }
    }

    /// Moves the element at `index` by `delta`.
    public mutating func move(_ index: Int, by delta: Point) throws(EditError) {
        var changes = ElementChanges()
        changes.center = try center(of: index) + delta
        try apply(changes, at: index)
    }

    /// Removes the element at `index`.
    public mutating func remove(_ index: Int) throws(EditError) {
        switch self {
        case .drawing(var drawing):
            try checkDrawingIndex(drawing, index)
            drawing.graphics.remove(at: index)
            self = .drawing(drawing)
        case .card(var card):
            switch try cardSlot(card, index) {
            case .image(let i): card.imageElements.remove(at: i)
            case .text(let i): card.textElements.remove(at: i)
            }
            self = .card(card)
        }
    }

    /// Moves the element at `index` in the drawing order; returns its new index. On a card
    /// an element moves among its own kind (images always draw below texts).
    @discardableResult
    public mutating func reorder(_ index: Int, _ direction: OrderDirection) throws(EditError) -> Int {
        func moved<T>(_ list: inout [T], _ i: Int) -> Int {
            let target: Int
            switch direction {
            case .front: target = list.count - 1
            case .back: target = 0
            case .forward: target = min(list.count - 1, i + 1)
            case .backward: target = max(0, i - 1)
            }
            let item = list.remove(at: i)
            list.insert(item, at: target)
            return target
        }
        switch self {
        case .drawing(var drawing):
            try checkDrawingIndex(drawing, index)
            let target = moved(&drawing.graphics, index)
            self = .drawing(drawing)
            return target
        case .card(var card):
            switch try cardSlot(card, index) {
            case .image(let i):
                let target = moved(&card.imageElements, i)
                self = .card(card)
                return target
            case .text(let i):
                let target = moved(&card.textElements, i)
                self = .card(card)
                return card.imageElements.count + target
            }
        }
    }

    /// Sets the background; nil (a drawing only) makes the canvas transparent.
    public mutating func setBackground(_ color: Color?) throws(EditError) {
        switch self {
        case .drawing(var drawing):
            drawing.background = color
            self = .drawing(drawing)
        case .card(var card):
            guard let color else { throw EditError("a card always has a background colour") }
            card.backgroundColor = color
            self = .card(card)
        }
    }
}
