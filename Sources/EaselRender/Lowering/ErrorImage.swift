import EaselGeometry
import EaselDocuments
import EaselCairo

/// The picture drawn where an image cannot be: a red "x" above the words "No image", as
/// the Cards app shows. Easel draws it as vector operations, so it is sharp at any size.
enum ErrorImage {
    /// The design's own square; it is aspect-fitted into the element's frame.
    static let designSize = Size(width: 100, height: 100)
    static let red = Color(red: 0.86, green: 0.12, blue: 0.1)
    static let grey = Color(red: 0.3, green: 0.3, blue: 0.3)

    /// The operations that draw the error image into a frame of `frameSize` (frame space),
    /// mapped to the canvas by `frameToCanvas`.
    static func operations(in frameSize: Size, frameToCanvas: Transform2D, fonts: FontLibrary) -> [SceneOperation] {
        let fitted = designSize.aspectFit(in: frameSize)
        guard fitted.width > 0 else { return [] }
        let scale = fitted.width / designSize.width
        let designToCanvas = Transform2D.scale(x: scale, y: scale)
            .concatenating(.translation(x: (frameSize.width - fitted.width) / 2, y: (frameSize.height - fitted.height) / 2))
            .concatenating(frameToCanvas)
        // The "x": two bars crossing at (50, 35), each 56 long and 9 thick, at ±45 degrees.
        var operations: [SceneOperation] = []
        for degrees in [45.0, -45.0] {
            var bar = Path()
            bar.addRect(Rect(center: .zero, size: Size(width: 56, height: 9)))
            let placed = bar.applying(Transform2D.rotation(degrees: degrees).concatenating(.translation(x: 50, y: 35)))
            operations.append(.fill(placed.applying(designToCanvas), red))
        }
        // "No image" below it, in the default sans, fitted into an 84x20 band around y = 82.
        if let face = try? fonts.face(for: FontMap.defaultSans) {
            let line = TextLine.layout("No image", primary: face, fallbacks: [])
            let band = Rect(x: 8, y: 72, width: 84, height: 20)
            let size = min(band.width / line.width, band.height / line.height)
            // A frame a million units wide would ask FreeType for glyphs it refuses: the
            // words are left out there (the cross still says what happened).
            guard size * RenderBudgets.lengthScale(of: designToCanvas) <= RenderBudgets.maxTextSize else { return operations }
            operations.append(
                TextPlacement.place(line, size: size, in: band, alignment: .center, color: grey, frameToCanvas: designToCanvas))
        }
        return operations
    }
}
