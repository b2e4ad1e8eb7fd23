import FoundationEssentials
import EaselGeometry
import EaselDocuments

/// A scene written as a plain script that a program with no Easel in it can replay with
/// raw cairo calls: the benchmark's C baseline draws exactly what Easel draws. One
/// operation per line, numbers at full precision, quadratic curves already turned into
/// cubics (as Easel's cairo backend does):
///
///     canvas W H
///     fill R G B A PATH
///     stroke R G B A WIDTH CAP JOIN NDASH DASH... PATH
///     image FILE XX YX XY YY X0 Y0 CLIP          (CLIP: a PATH, or -)
///     text FONTFILE SIZE R G B A XX YX XY YY X0 Y0 N GLYPH X ...   (one line per font run)
///     group OPACITY CLIP
///     end
///
/// PATH is `N` followed by N elements: `M x y`, `L x y`, `C x1 y1 x2 y2 x y`, `Z`.
/// Colours are clamped, as drawn. Images must have come from files.
public enum SceneReplayScript {
    /// Thrown for a scene the script cannot express, such as an image made in memory.
    public struct Unsupported: Error, CustomStringConvertible {
        /// What the script cannot express, for the user.
        public var description: String
    }

    /// The script for `scene`, one operation per line; throws `Unsupported` for an image that
    /// did not come from a file.
    public static func write(_ scene: Scene) throws(Unsupported) -> String {
        var lines = ["canvas \(n(scene.canvasSize.width)) \(n(scene.canvasSize.height))"]
        for operation in scene.operations {
            switch operation {
            case .fill(let path, let color):
                lines.append("fill \(rgba(color)) \(script(path))")
            case .stroke(let path, let style):
                let dash = ([String(style.dash.count)] + style.dash.map(n)).joined(separator: " ")
                lines.append(
                    "stroke \(rgba(style.color)) \(n(style.width)) \(style.cap.rawValue) \(style.join.rawValue) \(dash) \(script(path))"
                )
            case .image(let image, let transform, let clip):
                guard let source = image.source else { throw Unsupported(description: "an image without a file (\(image.name))") }
                lines.append("image \(source.path) \(matrix(transform)) \(clip.map(script) ?? "-")")
            case .text(let text):
                for run in text.line.runs {
                    let glyphs = run.glyphs.map { "\($0.index) \(n($0.x * text.fontSize)) \(n($0.y * text.fontSize))" }
                        .joined(separator: " ")
                    lines.append(
                        "text \(run.font.path) \(n(text.fontSize)) \(rgba(text.color)) \(matrix(text.transform)) \(run.glyphs.count) \(glyphs)"
                    )
                }
            case .beginGroup(let opacity, let clip):
                lines.append("group \(n(opacity)) \(clip.map(script) ?? "-")")
            case .endGroup:
                lines.append("end")
            case .shadow:
                throw Unsupported(description: "a drop shadow")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func n(_ value: Double) -> String { String(printf: "%.17g", value) }

    static func rgba(_ color: Color) -> String {
        let c = color.clamped
        return [c.red, c.green, c.blue, c.alpha].map(n).joined(separator: " ")
    }

    static func matrix(_ t: Transform2D) -> String { [t.a, t.b, t.c, t.d, t.tx, t.ty].map(n).joined(separator: " ") }

    static func script(_ path: Path) -> String {
        var parts: [String] = []
        var current = Point.zero, start = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                parts.append("M \(n(p.x)) \(n(p.y))")
                current = p
                start = p
            case .line(let p):
                parts.append("L \(n(p.x)) \(n(p.y))")
                current = p
            case .quadCurve(let p, let c):
                let (c1, c2) = Path.cubicControls(start: current, control: c, end: p)
                parts.append("C \(n(c1.x)) \(n(c1.y)) \(n(c2.x)) \(n(c2.y)) \(n(p.x)) \(n(p.y))")
                current = p
            case .curve(let p, let c1, let c2):
                parts.append("C \(n(c1.x)) \(n(c1.y)) \(n(c2.x)) \(n(c2.y)) \(n(p.x)) \(n(p.y))")
                current = p
            case .closeSubpath:
                parts.append("Z")
                current = start
            }
        }
        return "\(parts.count) " + parts.joined(separator: " ")
    }
}
