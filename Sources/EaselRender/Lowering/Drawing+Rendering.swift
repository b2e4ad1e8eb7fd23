import EaselGeometry
import EaselDocuments

extension Drawing: RenderableDocument {
    /// Lowers the drawing as docs/drawing-format.md describes (see `DrawingLowering`).
    public func scene(in context: LoweringContext) -> Scene {
        var drawing = self
        if let background = context.background { drawing.background = background }
        return DrawingLowering.scene(
            for: drawing, imageFolder: context.resourceFolder, images: context.images,
            fonts: context.fonts, file: context.file, textsAhead: context.textsAhead)
    }

    /// Each image graphic's frame, groups included, as `DrawingLowering` places it.
    public var imageLayout: ImageLayout? {
        var uses: [ImageLayout.Use] = []
        func collect(_ graphics: [Graphic], parent: Transform2D) {
            for graphic in graphics {
                let frameToCanvas = graphic.transform.frameToParent.concatenating(parent)
                switch graphic.kind {
                case .image(let name):
                    uses.append(.init(name: name, frame: graphic.transform.localRect.size, frameToCanvas: frameToCanvas))
                case .group(let children): collect(children, parent: frameToCanvas)
                default: break
                }
            }
        }
        collect(graphics, parent: .identity)
        return ImageLayout(canvasSize: canvasSize, uses: uses)
    }

    /// The drawing's texts in their fonts, groups included, within the text budget.
    public var textsToLayOut: [(text: String, fontName: String)] {
        var texts: [(text: String, fontName: String)] = []
        var budget = TextBudget()
        func collect(_ graphics: [Graphic]) {
            for graphic in graphics {
                switch graphic.kind {
                case .text(let content) where !content.string.isEmpty:
                    guard budget.take(content.string) else { return }
                    texts.append((content.string, content.fontFamily))
                case .group(let children): collect(children)
                default: break
                }
            }
        }
        collect(graphics)
        return texts
    }
}
