import EaselGeometry
import EaselCairo

/// One line of text laid out in glyphs: runs of consecutive glyphs from one font file (the
/// chosen font, or a fallback for characters it lacks), positioned at size 1 with the
/// baseline at y = 0 and the line starting at x = 0, y down. Fonts are named by file, so a
/// laid-out line is a plain value; the renderer finds the loaded face again by its file.
///
/// Layout follows the ecosystem's pipeline: FriBidi resolves which runs read right to
/// left, each character (grapheme cluster) takes the first font that has all of it (emoji
/// the colour emoji font first), and HarfBuzz shapes each run of one font, direction and
/// script (kerning, ligatures, marks, Arabic joining, Indic reordering). Runs are then put
/// in visual order by the bidirectional algorithm's rule L2.
public struct TextLine: Sendable {
    /// Consecutive glyphs drawn from one font file.
    public struct Run: Sendable {
        /// The font file (and face index) the glyphs come from.
        public var font: FontMap.FontFile
        /// Glyph index and position (x right, y down from the baseline), at size 1.
        public var glyphs: [(index: UInt, x: Double, y: Double)]
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
    /// Characters no font has (drawn as the primary font's missing-glyph box).
    public var missing: [Unicode.Scalar] = []
    /// The height of the line box (ascent + descent) at size 1.
    public var height: Double { ascent + descent }

    /// Lays `text` out in `primary` (with OpenType `features` on), taking each character the
    /// primary font lacks from the first fallback that has it; emoji try `emoji` first.
    public static func layout(
        _ text: String, primary: FontFace, features: [String] = [], fallbacks: [FontFace], emoji: FontFace? = nil
    ) -> TextLine {
        layout(text, primary: primary, features: features, fallbacks: LazyFallbacks(fallbacks), emoji: { emoji })
    }

    /// The same, with fallbacks (and the emoji font) loaded only when a character needs them.
    public static func layout(
        _ text: String, primary: FontFace, features: [String] = [], fallbacks: LazyFallbacks, emoji: () -> FontFace?
    ) -> TextLine {
        // 1. The scalars to draw, grouped in grapheme clusters, control characters left out.
        var scalars: [UInt32] = []
        var clusters: [(range: Range<Int>, face: FontFace)] = []
        var missing: [Unicode.Scalar] = []
        for character in text {
            let drawn = Array(character.unicodeScalars.filter { $0.properties.generalCategory != .control })
            guard !drawn.isEmpty else { continue }
            let start = scalars.count
            scalars += drawn.map(\.value)
            let needed = drawn.filter { !isDefaultIgnorable($0) }
            func covers(_ face: FontFace) -> Bool { needed.allSatisfy { face.hasGlyph(for: $0) } }
            // The emoji font first for an emoji, then the chosen font, then the fallbacks in order.
            var face: FontFace?
            if isEmoji(drawn), let emojiFace = emoji(), covers(emojiFace) { face = emojiFace }
            if face == nil && covers(primary) { face = primary }
            if face == nil { face = fallbacks.first(excluding: primary, where: covers) }
            if face == nil {
                missing += needed.filter { scalar in
                    !primary.hasGlyph(for: scalar)
                        && fallbacks.first(excluding: primary, where: { $0.hasGlyph(for: scalar) }) == nil
                }
            }
            clusters.append((start..<scalars.count, face ?? primary))
        }
        guard !scalars.isEmpty else {
            return TextLine(text: text, runs: [], width: 0, ascent: primary.ascent, descent: primary.descent, missing: missing)
        }

        // 2. Direction and script of each scalar.
        let levels = TextProperties.bidiLevels(of: scalars)
        let scripts = resolvedScripts(scalars)

        // 3. Items: clusters of one face, level and script, in logical order.
        struct Item {
            var range: Range<Int>
            var face: FontFace
            var level: UInt8
            var script: UInt32
        }
        var items: [Item] = []
        for (range, face) in clusters {
            let level = levels[range.lowerBound], script = scripts[range.lowerBound]
            if let last = items.last, last.face === face, last.level == level, last.script == script,
                last.range.upperBound == range.lowerBound
            {
                items[items.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                items.append(Item(range: range, face: face, level: level, script: script))
            }
        }

        // 4. Visual order (rule L2): from the highest level down to the lowest odd one,
        // reverse every stretch of items at that level or higher.
        var visual = items
        if let highest = items.map(\.level).max(), let lowestOdd = items.map(\.level).filter({ $0 % 2 == 1 }).min() {
            for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
                var index = 0
                while index < visual.count {
                    guard visual[index].level >= level else {
                        index += 1
                        continue
                    }
                    var end = index
                    while end < visual.count && visual[end].level >= level { end += 1 }
                    visual[index..<end].reverse()
                    index = end
                }
            }
        }

        // 5. Shape each item and place its glyphs along the pen.
        var runs: [Run] = []
        var pen = 0.0
        var ascent = primary.ascent, descent = primary.descent
        for item in visual {
            let shaped = item.face.shape(
                scalars, range: item.range, rightToLeft: item.level % 2 == 1, script: item.script,
                features: item.face === primary ? features : [])
            let placed = shaped.map { glyph -> (index: UInt, x: Double, y: Double) in
                defer { pen += glyph.advance }
                return (UInt(glyph.index), pen + glyph.xOffset, -glyph.yOffset)
            }
            if item.face !== primary {
                ascent = max(ascent, item.face.ascent)
                descent = max(descent, item.face.descent)
            }
            if let last = runs.last, last.font == item.face.file {
                runs[runs.count - 1].glyphs += placed
            } else {
                runs.append(Run(font: item.face.file, glyphs: placed))
            }
        }
        return TextLine(text: text, runs: runs, width: pen, ascent: ascent, descent: descent, missing: missing)
    }

    /// A cluster shown as an emoji: one with an emoji-presentation character, an emoji
    /// variation selector, a keycap, or a regional-indicator flag.
    static func isEmoji(_ cluster: [Unicode.Scalar]) -> Bool {
        cluster.contains { scalar in
            scalar.properties.isEmojiPresentation || scalar.value == 0xFE0F || scalar.value == 0x20E3
                || (0x1F1E6...0x1F1FF).contains(scalar.value)
        }
    }

    /// Characters a font need not have to draw a cluster: joiners and variation selectors.
    static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint
    }

    /// Each scalar's script, Common and Inherited ones taking the script before them (or,
    /// at the start, the first one after), as HarfBuzz wants runs of one script.
    static func resolvedScripts(_ scalars: [UInt32]) -> [UInt32] {
        var scripts = scalars.map(TextProperties.script(of:))
        let neutral: Set<UInt32> = [TextProperties.commonScript, TextProperties.inheritedScript, TextProperties.unknownScript]
        var previous: UInt32?
        for index in scripts.indices {
            if neutral.contains(scripts[index]) {
                if let previous { scripts[index] = previous }
            } else {
                previous = scripts[index]
            }
        }
        if let first = scripts.first(where: { !neutral.contains($0) }) {
            for index in scripts.indices {
                guard neutral.contains(scripts[index]) else { break }
                scripts[index] = first
            }
        }
        return scripts
    }
}
