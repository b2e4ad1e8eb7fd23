import EaselDocuments
import EaselGeometry

/// How much room one line of text takes as the renderer lays it out (the font a name maps
/// to, with its fallbacks): what a new text's frame is sized by, so that it fits its words.
public enum TextMeasure {
    /// The line box of `text` in the font `fontName` maps to at `fontSize`: its advance
    /// and its ascent plus descent. Nil when no font can be loaded.
    public static func lineSize(of text: String, fontName: String, fontSize: Double) -> Size? {
        var ignored: [DocumentWarning] = []
        guard
            let line = TextPlacement.layout(
                text, fontName: fontName, fonts: .shared, file: "", keyPath: "", fontKey: "", deadline: nil,
                warnings: &ignored)
        else { return nil }
        return Size(width: line.width * fontSize, height: line.height * fontSize)
    }
}
