import FoundationEssentials
import Glibc
import EaselGeometry
import EaselDocuments
import EaselCairo

/// Lays a drawing out as a scene (docs/drawing-format.md): the background, then every
/// graphic in order; each graphic's frame is placed by its transform in its parent's space;
/// a graphic with opacity below 1 or a clip becomes a group, so that its fill, stroke and
/// children composite as one layer.
public enum DrawingLowering {
    /// The drawing as a scene on its canvas, with images resolved in `imageFolder`;
    /// problems drawn around become warnings naming `file`. Never fails.
    public static func scene(
        for drawing: Drawing, imageFolder: URL, images: ImageLoader, fonts: FontLibrary = .shared, file: String,
        textsAhead: TextLayoutAhead? = nil
    ) -> Scene {
        var lowering = Lowerer(imageFolder: imageFolder, images: images, fonts: fonts, file: file, textsAhead: textsAhead)
        var scene = Scene(canvasSize: drawing.canvasSize)
        // Most graphics are a fill and a stroke: room for them at once.
        scene.operations.reserveCapacity(1 + 2 * drawing.graphics.count)
        if let background = drawing.background {
            var path = Path()
            path.addRect(Rect(origin: .zero, size: drawing.canvasSize))
            scene.operations.append(.fill(path, background))
        }
        lowering.lower(drawing.graphics, parent: .identity, keyPath: "graphics", into: &scene)
        return scene
    }

    /// The outline of a shape kind laid out in `rect` (frame space), or nil for kinds that
    /// are not shapes (text, image, group).
    public static func shapePath(_ kind: GraphicKind, in rect: Rect) -> Path? {
        var path = Path()
        let (w, h) = (rect.width, rect.height)
        let center = rect.center
        func onEllipse(_ degrees: Double, _ ratio: Double) -> Point {
            let radians = degrees * .pi / 180
            return Point(x: center.x + ratio * w / 2 * cos(radians), y: center.y + ratio * h / 2 * sin(radians))
        }
        switch kind {
        case .rectangle: path.addRect(rect)
        case .roundedRectangle(let radius): path.addRoundedRect(rect, cornerRadius: radius)
        case .ellipse: path.addEllipse(in: rect)
        case .polygon(let sides):
            path.addPolygon((0..<sides).map { onEllipse(-90 + 360 * Double($0) / Double(sides), 1) })
        case .star(let points, let ratio):
            path.addPolygon(
                (0..<(2 * points)).map { i in
                    onEllipse(-90 + 180 * Double(i) / Double(points), i % 2 == 0 ? 1 : ratio)
                })
        case .line(let from, let to):
            path.move(to: Point(x: rect.minX + from.x * w, y: rect.minY + from.y * h))
            path.addLine(to: Point(x: rect.minX + to.x * w, y: rect.minY + to.y * h))
        case .path(let unitPath):
            path = unitPath.applying(Transform2D.scale(x: w, y: h).concatenating(.translation(x: rect.minX, y: rect.minY)))
        case .libraryShape(let shape): path = shape.path(in: rect)
        case .text, .image, .group: return nil
        }
        return path
    }

    private struct Lowerer {
        let imageFolder: URL
        let images: ImageLoader
        let fonts: FontLibrary
        let file: String
        let textsAhead: TextLayoutAhead?

        mutating func lower(_ graphics: [Graphic], parent: Transform2D, keyPath: String, into scene: inout Scene) {
            for (index, graphic) in graphics.enumerated() {
                lower(graphic, parent: parent, keyPath: "\(keyPath)[\(index)]", into: &scene)
            }
        }

        /// Shadow draws so far (a shadow inside a shadowed graphic is drawn again when that
        /// one's shadow is cast); past `RenderBudgets.maxShadows` they are left out.
        var shadows = 0
        /// What is left of the text budget.
        var textBudget = TextBudget()

        /// `keyPath` names the graphic in warnings, made only for one (a string for each of a
        /// drawing's graphics was a tenth of the lowering).
        mutating func lower(
            _ graphic: Graphic, parent: Transform2D, keyPath: @autoclosure () -> String, into scene: inout Scene
        ) {
            guard let shadow = graphic.shadow, shadow.color.alpha > 0, graphic.opacity > 0 else {
                lowerUnshadowed(graphic, parent: parent, keyPath: keyPath(), into: &scene)
                return
            }
            guard shadows < RenderBudgets.maxShadows else {
                scene.warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath() + ".shadow",
                        message:
                            "the drawing has more than \(RenderBudgets.maxShadows) shadows, the budget; this one is not drawn"))
                lowerUnshadowed(graphic, parent: parent, keyPath: keyPath(), into: &scene)
                return
            }
            // The graphic's own operations cast the shadow, then are drawn over it.
            var own = Scene(canvasSize: scene.canvasSize)
            lowerUnshadowed(graphic, parent: parent, keyPath: keyPath(), into: &own)
            scene.warnings += own.warnings
            guard !own.operations.isEmpty else { return }
            // Casting draws the shadows inside the graphic once more: each shadowed group
            // around a shadow doubles its draws, so the budget counts draws, not shadows.
            let draws = 1 + Self.shadowDraws(in: own.operations)
            guard shadows + draws <= RenderBudgets.maxShadows else {
                scene.warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath() + ".shadow",
                        message:
                            "casting this shadow would draw more than \(RenderBudgets.maxShadows) shadows, the budget (the shadows inside it are drawn again for it); it is not drawn"
                    ))
                scene.operations += own.operations
                return
            }
            shadows += draws
            scene.operations.append(
                .shadow(
                    SceneShadow(
                        operations: own.operations, color: shadow.color, offset: shadow.offset, blurRadius: shadow.blur)))
            scene.operations += own.operations
        }

        /// The shadows `operations` draw, those inside shadows' casters included.
        static func shadowDraws(in operations: [SceneOperation]) -> Int {
            operations.reduce(0) { count, operation in
                if case .shadow(let inner) = operation { return count + 1 + shadowDraws(in: inner.operations) }
                return count
            }
        }

        mutating func lowerUnshadowed(
            _ graphic: Graphic, parent: Transform2D, keyPath: @autoclosure () -> String, into scene: inout Scene
        ) {
            guard graphic.opacity > 0 else { return }
            let frameToCanvas = graphic.transform.frameToParent.concatenating(parent)
            let rect = graphic.transform.localRect

            // An image's content (and its clip) sits in the fitted rectangle; load it first.
            var loadedImage: (pixels: PixelBuffer, source: URL)?
            var clipRect = rect
            if case .image(let name) = graphic.kind {
                switch images.image(named: name, inFolder: imageFolder) {
                case .loaded(let pixels, let source):
                    if let damage = pixels.damage {
                        scene.warnings.append(
                            ImageLoader.damageWarning(damage, source: source, file: file, keyPath: keyPath() + ".file"))
                    }
                    loadedImage = (pixels, source)
                    clipRect = ImagePlacement.fittedRect(for: pixels, in: rect.size)
                case .failed(let reason):
                    scene.warnings.append(DocumentWarning(file: file, keyPath: keyPath() + ".file", message: reason))
                }
            }

            var clip = graphic.clip.map { $0.path(in: clipRect).applying(frameToCanvas) }
            if let path = clip, path.elements.count > RenderBudgets.maxPathElements {
                scene.warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath() + ".clip",
                        message:
                            "the clip path has \(path.elements.count) elements, over the budget of \(RenderBudgets.maxPathElements); the element is not drawn"
                    ))
                clip = nil
                return
            }
            let grouped = graphic.opacity < 1 || clip != nil
            if grouped { scene.operations.append(.beginGroup(opacity: graphic.opacity, clip: clip)) }
            defer { if grouped { scene.operations.append(.endGroup) } }

            switch graphic.kind {
            case .group(let children):
                lower(children, parent: frameToCanvas, keyPath: keyPath() + ".children", into: &scene)
            case .text(let content):
                lowerText(content, graphic: graphic, frameToCanvas: frameToCanvas, keyPath: keyPath(), into: &scene)
            case .image(let name):
                if let loadedImage {
                    scene.operations.append(
                        ImagePlacement.operation(
                            SceneImage(name: name, pixels: loadedImage.pixels, source: loadedImage.source), frame: rect.size,
                            frameToCanvas: frameToCanvas, clip: nil))
                } else {
                    scene.operations += ErrorImage.operations(in: rect.size, frameToCanvas: frameToCanvas, fonts: fonts)
                }
            default:
                guard var path = DrawingLowering.shapePath(graphic.kind, in: rect) else { return }
                path.apply(frameToCanvas)
                guard path.elements.count <= RenderBudgets.maxPathElements else {
                    scene.warnings.append(
                        DocumentWarning(
                            file: file, keyPath: keyPath() + ".elements",
                            message:
                                "the path has \(path.elements.count) elements, over the budget of \(RenderBudgets.maxPathElements); it is not drawn"
                        ))
                    return
                }
                if let fill = graphic.fill, !isLine(graphic.kind) { scene.operations.append(.fill(path, fill)) }
                if let stroke = graphic.stroke, stroke.arrowheads != .none, isLine(graphic.kind),
                    case .move(let start)? = path.elements.first, case .line(let end)? = path.elements.last
                {
                    let arrow = ArrowheadShape.shapes(from: start, to: end, width: stroke.width, ends: stroke.arrowheads)
                    path = arrow.line
                    scene.operations += arrow.heads.map { .fill($0, stroke.color) }
                }
                if let stroke = graphic.stroke {
                    var style = StrokeStyle(stroke)
                    // Path and dashes are both in canvas units: the count does not depend on the output's scale.
                    let dashes = RenderBudgets.dashSegments(of: path, pattern: style.dash)
                    if dashes > Double(RenderBudgets.maxDashSegments) {
                        scene.warnings.append(
                            DocumentWarning(
                                file: file, keyPath: keyPath() + ".stroke.dash",
                                message:
                                    "the dash pattern would draw \(dashes < 1e12 ? "about \(Int(saturating: dashes))" : "more than a trillion") dashes, over the budget of \(RenderBudgets.maxDashSegments); the stroke is drawn solid"
                            ))
                        style.dash = []
                    }
                    scene.operations.append(.stroke(path, style))
                }
            }
        }

        func isLine(_ kind: GraphicKind) -> Bool {
            if case .line = kind { return true }
            return false
        }

        mutating func lowerText(
            _ content: TextContent, graphic: Graphic, frameToCanvas: Transform2D, keyPath: String, into scene: inout Scene
        ) {
            guard !content.string.isEmpty,
                textBudget.take(content.string, file: file, keyPath: keyPath + ".text", warnings: &scene.warnings),
                content.fontSize > 0,
                let line = TextPlacement.layout(
                    content.string, fontName: content.fontFamily, fonts: fonts, file: file,
                    keyPath: keyPath, fontKey: ".font", deadline: images.deadline, ahead: textsAhead,
                    warnings: &scene.warnings)
            else { return }
            let drawnSize = content.fontSize * RenderBudgets.lengthScale(of: frameToCanvas)
            guard drawnSize <= RenderBudgets.maxTextSize else {
                scene.warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath + ".fontSize",
                        message:
                            "the text would be \(formatNumber(drawnSize)) units tall, over the budget of \(formatNumber(RenderBudgets.maxTextSize)); it is not drawn"
                    ))
                return
            }
            scene.operations.append(
                TextPlacement.place(
                    line, size: content.fontSize, in: graphic.transform.localRect,
                    alignment: content.alignment, color: graphic.fill ?? .black,
                    frameToCanvas: frameToCanvas))
        }
    }
}
