import EaselGeometry
import EaselDocuments
import EaselCairo
import Dispatch

/// Places one laid-out line of text in a frame: horizontally by alignment, vertically
/// centred (the line box, ascent + descent, centred on the frame's middle).
enum TextPlacement {
    static func place(
        _ line: TextLine, size: Double, in rect: Rect, alignment: TextContent.Alignment,
        color: Color, frameToCanvas: Transform2D
    ) -> SceneOperation {
        let width = line.width * size
        let x: Double
        switch alignment {
        case .left: x = rect.minX
        case .center: x = rect.midX - width / 2
        case .right: x = rect.maxX - width
        }
        let baseline = rect.midY + (line.ascent - line.descent) * size / 2
        let transform = Transform2D.translation(x: x, y: baseline).concatenating(frameToCanvas)
        return .text(SceneText(line: line, fontSize: size, color: color, transform: transform))
    }

    /// Lays `text` out in the font `fontName` maps to, with the fallback fonts for the
    /// characters it lacks (emoji in colour). Warns (at `keyPath` + `fontKey`) when the name
    /// is not mapped, (at `keyPath`) when a character is in no installed font, and returns
    /// nil (with a warning) when no font can be loaded at all. Past `deadline` (the
    /// render's, `DispatchTime` uptime nanoseconds) it lays nothing out and returns nil: the
    /// render then ends as timed out (`DocumentRenderer.scene`), and a document of thousands
    /// of texts cannot hold a worker past it. A line `ahead` laid out already is taken from it.
    static func layout(
        _ text: String, fontName: String, fonts: FontLibrary, file: String, keyPath: String, fontKey: String,
        deadline: UInt64?, ahead: TextLayoutAhead? = nil, warnings: inout [DocumentWarning]
    ) -> TextLine? {
        if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return nil }
        do {
            let (face, features, substituted) = try fonts.resolve(named: fontName)
            if substituted {
                warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath + fontKey,
                        message: "no font is mapped for \"\(fontName)\"; drawn in \(face)"))
            }
            let line =
                ahead?.line(for: text, fontName: fontName)
                ?? TextLine.layout(
                    text, primary: face, features: features, fallbacks: fonts.lazyFallbacks,
                    emoji: { try? fonts.face(for: FontMap.colorEmoji) })
            if !line.missing.isEmpty {
                let characters = line.missing.prefix(5).map { "U+" + String($0.value, radix: 16, uppercase: true) }
                    .joined(separator: ", ")
                warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath,
                        message:
                            "no installed font has \(characters)\(line.missing.count > 5 ? ", …" : ""); drawn as missing-glyph boxes"
                    ))
            }
            return line
        } catch {
            warnings.append(DocumentWarning(file: file, keyPath: keyPath, message: "the text is not drawn: \(error)"))
            return nil
        }
    }

    /// The Cards app's text size: 200 units, shrunk (never grown, and not below 1 % of that)
    /// until the whole line fits the frame's width and height.
    static func cardFontSize(for line: TextLine, frame: Size) -> Double {
        let base = 200.0
        guard line.width > 0, line.height > 0 else { return base }
        let scale = min(1, frame.width / (line.width * base), frame.height / (line.height * base))
        return base * max(0.01, scale)
    }
}
