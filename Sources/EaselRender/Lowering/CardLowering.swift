import FoundationEssentials
import EaselGeometry
import EaselDocuments
import EaselCairo

/// Lays a card out as a scene, following docs/formats.md:
/// - the background fills the whole 1300x2000 canvas (the canvas clips everything);
/// - each element's frame is centred at the card centre plus its offset and rotated
///   clockwise about its own centre;
/// - an image is aspect-fitted and centred in its frame, and a clip shape is laid out in
///   the fitted image's rectangle (not the whole frame); a missing, refused or unreadable
///   image draws the error image;
/// - a text is one line, centred, in the mapped font at 200 units shrunk to fit the frame;
/// - images first, then texts, each in stored order.
public enum CardLowering {
    /// The card as a scene on its 1300x2000 canvas, with images resolved in `folder`;
    /// problems drawn around become warnings naming `file`. Never fails. Texts laid out
    /// `textsAhead` are not laid out again.
    public static func scene(
        for card: Card, folder: URL, images: ImageLoader, fonts: FontLibrary = .shared, file: String,
        textsAhead: TextLayoutAhead? = nil
    ) -> Scene {
        var scene = Scene(canvasSize: Card.canvasSize)
        var background = Path()
        background.addRect(Rect(origin: .zero, size: Card.canvasSize))
        scene.operations.append(.fill(background, card.backgroundColor))

        for (index, element) in card.imageElements.enumerated() {
            let keyPath = "imageElements[\(index)]"
            let frame = element.transform
            guard hasArea(frame, keyPath: keyPath, file: file, warnings: &scene.warnings) else { continue }
            let outcome: ImageLoader.Outcome
            if let name = element.imageFilename {
                outcome = images.image(named: name, inFolder: folder)
            } else {
                outcome = .failed("the element has no image")
            }
            switch outcome {
            case .failed(let reason):
                scene.warnings.append(DocumentWarning(file: file, keyPath: keyPath + ".imageFilename", message: reason))
                scene.operations += ErrorImage.operations(
                    in: frame.size, frameToCanvas: frame.frameToCard, clip: element.clip, fonts: fonts)
            case .loaded(let pixels, let source):
                if let damage = pixels.damage {
                    scene.warnings.append(
                        ImageLoader.damageWarning(damage, source: source, file: file, keyPath: keyPath + ".imageFilename"))
                }
                scene.operations.append(
                    ImagePlacement.operation(
                        SceneImage(name: element.imageFilename ?? "", pixels: pixels, source: source),
                        frame: frame.size, frameToCanvas: frame.frameToCard, clip: element.clip))
            }
        }

        var budget = TextBudget()
        for (index, element) in card.textElements.enumerated() where !element.text.isEmpty {
            let keyPath = "textElements[\(index)]"
            let frame = element.transform
            guard budget.take(element.text, file: file, keyPath: keyPath + ".text", warnings: &scene.warnings) else { continue }
            guard hasArea(frame, keyPath: keyPath, file: file, warnings: &scene.warnings),
                let line = TextPlacement.layout(
                    element.text, fontName: element.textFont, fonts: fonts, file: file,
                    keyPath: keyPath, fontKey: ".textFont", deadline: images.deadline, ahead: textsAhead,
                    warnings: &scene.warnings)
            else { continue }
            let size = TextPlacement.cardFontSize(for: line, frame: frame.size)
            scene.operations.append(
                TextPlacement.place(
                    line, size: size, in: Rect(origin: .zero, size: frame.size),
                    alignment: .center, color: element.textColor, frameToCanvas: frame.frameToCard))
        }
        return scene
    }

    /// An element whose frame has no area is not drawn, with a warning.
    private static func hasArea(_ frame: ElementTransform, keyPath: String, file: String, warnings: inout [DocumentWarning])
        -> Bool
    {
        guard frame.size.width > 0, frame.size.height > 0 else {
            warnings.append(
                DocumentWarning(
                    file: file, keyPath: keyPath + ".transform.size",
                    message: "the frame \(frame.size) has no area; the element is not drawn"))
            return false
        }
        return true
    }
}
