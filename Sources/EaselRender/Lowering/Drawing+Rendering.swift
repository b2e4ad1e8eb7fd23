import EaselGeometry
import EaselDocuments

extension Drawing: RenderableDocument {
    /// Lowers the drawing as docs/drawing-format.md describes (see `DrawingLowering`).
    public func scene(in context: LoweringContext) -> Scene {
        var drawing = self
        if let background = context.background { drawing.background = background }
        return DrawingLowering.scene(
            for: drawing, imageFolder: context.resourceFolder, images: context.images,
            fonts: context.fonts, file: context.file)
    }

    /// The drawing's texts in their fonts, groups included.
    public var textsToLayOut: [(text: String, fontName: String)] {
        var texts: [(text: String, fontName: String)] = []
        func collect(_ graphics: [Graphic]) {
            for graphic in graphics {
                switch graphic.kind {
                case .text(let content) where !content.string.isEmpty: texts.append((content.string, content.fontFamily))
                case .group(let children): collect(children)
                default: break
                }
            }
        }
        collect(graphics)
        return texts
    }
}
