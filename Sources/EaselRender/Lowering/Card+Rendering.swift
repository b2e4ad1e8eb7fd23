import EaselGeometry
import EaselDocuments

extension Card: RenderableDocument {
    /// Lowers the card as the Cards app draws it (see `CardLowering`).
    public func scene(in context: LoweringContext) -> Scene {
        var card = self
        if let background = context.background { card.backgroundColor = background }
        return CardLowering.scene(
            for: card, folder: context.resourceFolder, images: context.images, fonts: context.fonts,
            file: context.file, textsAhead: context.textsAhead)
    }

    /// Each image element's frame, as `CardLowering` places it.
    public var imageLayout: ImageLayout? {
        let uses = imageElements.compactMap { element in
            element.imageFilename.map {
                ImageLayout.Use(name: $0, frame: element.transform.size, frameToCanvas: element.transform.frameToCard)
            }
        }
        return ImageLayout(canvasSize: Card.canvasSize, uses: uses)
    }

    /// The card's non-empty texts in their fonts, within the text budget.
    public var textsToLayOut: [(text: String, fontName: String)] {
        var budget = TextBudget()
        return textElements.filter { !$0.text.isEmpty }.prefix { budget.take($0.text) }.map { ($0.text, $0.textFont) }
    }
}
