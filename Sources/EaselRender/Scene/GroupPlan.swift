import EaselGeometry

/// How the renderer draws a scene's groups at an opacity below 1 (a drawing's graphic with
/// `opacity`), so that opacity costs little more than drawing without it:
/// - a group of one fill, one stroke or one image is drawn straight at the group's opacity
///   (one paint covers each pixel once, so the result is the layer's, and an SVG says
///   `fill-opacity` rather than masking a layer);
/// - any other group is drawn as a layer (fill and stroke overlap: the app fades them
///   together), but a layer only as large as what it holds (`bounds`), not the whole canvas.
struct GroupPlan {
    /// Operations drawn straight at their group's opacity, by index: each the only
    /// operation of a group beginning just before it.
    private(set) var directOpacity: [Int: Double] = [:]
    /// What a layered group holds, in canvas units, by the index of its `beginGroup`; absent
    /// when it cannot be told (a shadow inside), and the layer is then the whole canvas.
    private(set) var bounds: [Int: Rect] = [:]
    /// Where each group with `bounds` ends: the index of its `endGroup`, by the index of
    /// its `beginGroup`.
    private(set) var ends: [Int: Int] = [:]
    /// The most layers open at once (groups drawn as layers nested in one another): each
    /// holds a surface as large as what it holds, up to the part of the output being drawn.
    private(set) var layerDepth = 0

    init(_ operations: [SceneOperation]) {
        var open: [Int] = []
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .beginGroup: open.append(index)
            case .endGroup:
                guard let begin = open.popLast(), case .beginGroup(let opacity, _) = operations[begin], opacity < 1 else {
                    continue
                }
                let inner = operations[(begin + 1)..<index]
                if inner.count == 1, let only = inner.first, Self.paintsOnce(only) {
                    directOpacity[begin + 1] = opacity
                } else if let rect = Self.bounds(of: inner) {
                    bounds[begin] = rect
                    ends[begin] = index
                }
            default: break
            }
        }
        var layered: [Bool] = [], depth = 0
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .beginGroup(let opacity, _):
                let layer = drawsLayer(beginningAt: index, opacity: opacity)
                layered.append(layer)
                if layer { depth += 1 }
                layerDepth = max(layerDepth, depth)
            case .endGroup:
                if layered.popLast() == true { depth -= 1 }
            default: break
            }
        }
    }

    /// The index of the `endGroup` of the layered group beginning at `index` when nothing it
    /// holds can reach `visible` (then none of it need be drawn: its layer would be empty);
    /// nil when it may, or cannot be told.
    func endOfGroupOutside(_ visible: Rect, beginningAt index: Int) -> Int? {
        guard let rect = bounds[index], let end = ends[index] else { return nil }
        return rect.reaches(visible) ? nil : end
    }

    /// Whether the group beginning at `index` is drawn as a layer: below full opacity, and
    /// not a group of one operation drawn straight at its opacity.
    func drawsLayer(beginningAt index: Int, opacity: Double) -> Bool {
        opacity < 1 && directOpacity[index + 1] == nil
    }

    /// Whether an operation covers each pixel at most once, so that drawing it at an
    /// opacity equals drawing it in a layer at that opacity. Not a text: a script font's
    /// letters overlap, and faded together they must not darken where they meet.
    static func paintsOnce(_ operation: SceneOperation) -> Bool {
        switch operation {
        case .fill, .stroke, .image: return true
        case .text, .beginGroup, .endGroup, .shadow: return false
        }
    }

    /// The canvas rectangle `operations` can touch (generously: a stroke's miters, a text's
    /// swashes), or nil when it cannot be told.
    static func bounds(of operations: ArraySlice<SceneOperation>) -> Rect? {
        var result: Rect?
        func add(_ rect: Rect?) -> Bool {
            guard let rect, rect.isFinite else { return false }
            result = result.map { $0.union(rect) } ?? rect
            return true
        }
        for operation in operations {
            switch operation {
            case .fill(let path, _):
                if !path.isEmpty && !add(path.controlPointBounds) { return nil }
            case .stroke(let path, let style):
                // A miter reaches at most half cairo's limit of 10 widths out.
                let margin = style.width * 5 + 1
                if !path.isEmpty && !add(path.controlPointBounds.map { $0.outset(by: margin) }) { return nil }
            case .image(let image, let transform, _):
                var frame = Path()
                frame.addRect(Rect(x: 0, y: 0, width: Double(image.pixels.width), height: Double(image.pixels.height)))
                if !add(frame.applying(transform).controlPointBounds) { return nil }
            case .text(let text):
                // The line box, and an em more on every side for marks, swashes and emoji.
                let em = text.fontSize
                var box = Path()
                box.addRect(
                    Rect(
                        x: -em, y: -(text.line.ascent * em) - em, width: text.line.width * em + 2 * em,
                        height: text.line.height * em + 2 * em))
                if !add(box.applying(text.transform).controlPointBounds) { return nil }
            case .beginGroup, .endGroup:
                continue  // what they hold is counted; their clips only make it smaller
            case .shadow:
                return nil
            }
        }
        return result
    }
}

extension Rect {
    /// Whether the rectangle, grown by `margin` on every side, touches or overlaps `other`
    /// (what lies wholly outside a strip changes none of its pixels).
    func reaches(_ other: Rect, margin: Double = 0) -> Bool {
        maxX + margin >= other.minX && minX - margin <= other.maxX && maxY + margin >= other.minY
            && minY - margin <= other.maxY
    }

    /// The rectangle grown by `amount` on every side.
    func outset(by amount: Double) -> Rect {
        Rect(x: minX - amount, y: minY - amount, width: width + 2 * amount, height: height + 2 * amount)
    }
}

extension Color {
    /// The colour with its alpha multiplied by `factor` (an opacity from 0 to 1).
    func multiplyingAlpha(by factor: Double) -> Color {
        guard factor < 1 else { return self }
        var faded = self
        faded.alpha *= max(0, factor)
        return faded
    }
}
