import EaselDocuments
import EaselGeometry
import EaselRender
import FoundationEssentials

/// A font's name drawn in its own face, as the Cards app's text picker shows its fonts: the
/// browser has none of the fonts Easel maps the app's names to, so the editor shows these.
public enum FontSample {
    /// The heights a sample may be drawn at, in pixels.
    public static let heights = 12...256
    /// The most characters a sample shows (a font's name, or the words being typed).
    public static let maxCharacters = 100

    /// `text` (by default the font's name) in the font `font` maps to, on a clear ground,
    /// `height` pixels high and as wide as the line, in `color`. Only the picker's fonts
    /// (`ElementProperty.appFonts`) are drawn: a sample is for choosing among them.
    public static func png(font: String, text: String? = nil, height: Int = 48, color: Color = .black) throws -> [UInt8] {
        guard ElementProperty.appFonts.contains(font) else {
            throw EditError("\"\(font)\" is not one of the picker's fonts: \(ElementProperty.appFonts.joined(separator: ", "))")
        }
        guard heights.contains(height) else {
            throw EditError("a font sample is from \(heights.lowerBound) to \(heights.upperBound) pixels high, not \(height)")
        }
        let words = text ?? font
        guard words.count <= maxCharacters, !words.isEmpty else {
            throw EditError("a font sample shows 1 to \(maxCharacters) characters, not \(words.count)")
        }
        let fontSize = Double(height) * 0.7
        let line = TextMeasure.lineSize(of: words, fontName: font, fontSize: fontSize) ?? Size(width: fontSize, height: fontSize)
        let width = min(4096, max(1, (line.width + fontSize * 0.2).rounded(.up)))
        let sample = Graphic(
            kind: .text(TextContent(string: words, fontFamily: font, fontSize: fontSize)),
            transform: GraphicTransform(
                center: Point(x: width / 2, y: Double(height) / 2), size: Size(width: width, height: Double(height))),
            fill: color)
        let drawing = Drawing(canvasSize: Size(width: width, height: Double(height)), background: nil, graphics: [sample])
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/easel-font-sample/sample.drawing"))
        return try DocumentRenderer.export(located, options: RenderOptions(format: .png, size: .scale(1))).bytes
    }
}
