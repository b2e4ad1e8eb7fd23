import EaselGeometry
import EaselCairo

/// One line of text laid out in glyphs: runs of consecutive glyphs from one font file (the
/// chosen font, or a fallback for characters it lacks), positioned at size 1 with the
/// baseline at y = 0 and the line starting at x = 0. Fonts are named by file, so a laid-out
/// line is a plain value; the renderer finds the loaded face again by its file.
public struct TextLine: Sendable {
    /// Consecutive glyphs drawn from one font file.
    public struct Run: Sendable {
        /// The font file (and face index) the glyphs come from.
        public var font: FontMap.FontFile
        /// Glyph index and pen x position, at size 1.
        public var glyphs: [(index: UInt, x: Double)]
    }

    /// The text that was laid out (control characters are not drawn).
    public var text: String
    /// The glyphs, grouped by font file, left to right.
    public var runs: [Run]
    /// At size 1.
    public var width: Double
    /// How far the tallest font used reaches above the baseline, at size 1.
    public var ascent: Double
    /// How far the deepest font used reaches below the baseline, at size 1 (positive).
    public var descent: Double
    /// The height of the line box (ascent + descent) at size 1.
    public var height: Double { ascent + descent }

    /// Lays `text` out in `primary`, taking each character the primary font lacks from the
    /// first fallback that has it (or the primary's missing-glyph box when none does).
    /// No kerning or shaping: Easel draws one line of short text.
    public static func layout(_ text: String, primary: FontFace, fallbacks: [FontFace]) -> TextLine {
        var runs: [Run] = []
        var pen = 0.0
        var ascent = primary.ascent, descent = primary.descent
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control { continue }
            var face = primary
            var glyph = primary.glyph(for: scalar)
            if glyph == 0 {
                for fallback in fallbacks where fallback !== primary {
                    let candidate = fallback.glyph(for: scalar)
                    if candidate != 0 {
                        face = fallback
                        glyph = candidate
                        break
                    }
                }
            }
            if face !== primary {
                ascent = max(ascent, face.ascent)
                descent = max(descent, face.descent)
            }
            if let last = runs.last, last.font == face.file {
                runs[runs.count - 1].glyphs.append((glyph, pen))
            } else {
                runs.append(Run(font: face.file, glyphs: [(glyph, pen)]))
            }
            pen += face.advance(of: glyph)
        }
        return TextLine(text: text, runs: runs, width: pen, ascent: ascent, descent: descent)
    }
}
