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
}
