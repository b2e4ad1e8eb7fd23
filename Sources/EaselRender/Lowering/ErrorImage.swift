import EaselGeometry
import EaselDocuments
import EaselCairo

/// The picture drawn where an image cannot be: the Cards app's `error-image` asset, a
/// 512x512 picture of a large lower-case "x" (Arial Rounded MT Bold) above the words
/// "No image" (Arial), both in rgb(255, 45, 45), at the positions docs/formats.md gives.
/// Easel draws it with free stand-ins (Quicksand Bold, Liberation Sans) as vector text, so
/// it is sharp at any size. Like any image it is aspect-fitted and centred in the frame, and
/// clipped by the element's clip shape laid out in the fitted square.
enum ErrorImage {
    /// The asset's own square.
    static let designSize = Size(width: 512, height: 512)
    static let red = Color(red: 1, green: 45.0 / 255, blue: 45.0 / 255)

    /// The asset's two texts: what, in which font, at which size, left edge and baseline.
    static let texts: [(text: String, font: FontMap.FontFile, size: Double, x: Double, baseline: Double)] = [
        ("x", FontMap.roundedBold, 457.9, 136.7, 299.4),
        ("No image", FontMap.arial, 108.8, 21.4, 432.3),
    ]

    /// The operations that draw the error image into a frame of `frameSize` (frame space),
    /// mapped to the canvas by `frameToCanvas`, clipped by `clip` in the fitted square.
    static func operations(in frameSize: Size, frameToCanvas: Transform2D, clip: ClipShape? = nil, fonts: FontLibrary)
        -> [SceneOperation]
    {
        let fitted = designSize.aspectFit(in: frameSize)
        guard fitted.width > 0 else { return [] }
        let fittedRect = Rect(center: Point(x: frameSize.width / 2, y: frameSize.height / 2), size: fitted)
        let scale = fitted.width / designSize.width
        let designToCanvas = Transform2D.scale(x: scale, y: scale)
            .concatenating(.translation(x: fittedRect.minX, y: fittedRect.minY))
            .concatenating(frameToCanvas)
        var operations: [SceneOperation] = []
        for text in texts {
            guard let face = try? fonts.face(for: text.font) else { continue }
            // A frame a million units wide would ask FreeType for glyphs it refuses: such
            // text is left out (what is left still says what happened).
            guard text.size * RenderBudgets.lengthScale(of: designToCanvas) <= RenderBudgets.maxTextSize else { continue }
            let line = TextLine.layout(text.text, primary: face, fallbacks: [])
            operations.append(
                .text(
                    SceneText(
                        line: line, fontSize: text.size, color: red,
                        transform: Transform2D.translation(x: text.x, y: text.baseline).concatenating(designToCanvas))))
        }
        guard let clip, !operations.isEmpty else { return operations }
        return [.beginGroup(opacity: 1, clip: clip.path(in: fittedRect).applying(frameToCanvas))] + operations + [.endGroup]
    }
}
