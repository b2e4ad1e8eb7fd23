import EaselCairo
import EaselDocuments
import EaselGeometry

/// What one document may cost to draw, checked in the lowering — before the expensive
/// step, so `easel validate` and `easel export` agree — and documented in docs/limits.md
/// (Budgets). What goes over a budget is not drawn, with a warning naming the file and
/// key path (images over the budget draw the error image, as unreadable images do).
public enum RenderBudgets {
    /// The most image pixels one document may decode in all (about 200 MB of ARGB32).
    public static let maxImagePixelsPerDocument = 50_000_000
    /// The most elements one path may have to be filled or stroked, or to clip (filling
    /// self-intersecting curves costs more than linearly).
    public static let maxPathElements = 4_000
    /// The most drop shadows one document may draw (each blurs up to 16 million pixels);
    /// shadows past it are left out.
    public static let maxShadows = 256
    /// The most dashes one stroke may draw; a finer pattern is drawn solid.
    public static let maxDashSegments = 100_000
    /// The most characters (code points) one document's texts may have in all, in document
    /// order; the text that would go past it and every text after it are not drawn. A text's
    /// laid-out glyphs are kept until the document is drawn: a card of 10,000 texts of 700
    /// characters (12 MB, under the file limit) took 400 MB and 27 s to export without it.
    public static let maxTextCodePointsPerDocument = 200_000
    /// The largest text drawn, in canvas units after the element's transforms (FreeType
    /// refuses glyphs much larger; the renderer also skips glyphs over this many pixels).
    public static let maxTextSize = Double(RenderLimits.maxOutputSide)

    /// How many dashes `pattern` draws along `path` at most (the control polygon's length
    /// bounds the curve's).
    static func dashSegments(of path: Path, pattern: [Double]) -> Double {
        let period = pattern.reduce(0, +) * (pattern.count % 2 == 1 ? 2 : 1)
        guard period > 0 else { return 0 }
        var length = 0.0
        var current = Point.zero, start = Point.zero
        func walk(_ points: [Point]) {
            for point in points {
                length += ((point.x - current.x) * (point.x - current.x) + (point.y - current.y) * (point.y - current.y))
                    .squareRoot()
                current = point
            }
        }
        for element in path.elements {
            switch element {
            case .move(let point):
                current = point
                start = point
            case .line(let point): walk([point])
            case .quadCurve(let point, let control): walk([control, point])
            case .curve(let point, let control1, let control2): walk([control1, control2, point])
            case .closeSubpath: walk([start])
            }
        }
        return length / period * Double(pattern.count)
    }

    /// The scale `transform` applies to lengths (the square root of its determinant).
    static func lengthScale(of transform: Transform2D) -> Double {
        abs(transform.a * transform.d - transform.b * transform.c).squareRoot()
    }
}

/// What is left of a document's budget of text characters (`RenderBudgets.maxTextCodePointsPerDocument`),
/// taken text by text in document order: by the lowering, and by the texts laid out ahead of it.
struct TextBudget {
    private var left = RenderBudgets.maxTextCodePointsPerDocument
    /// Whether a text was refused: every later one is too.
    private var spent = false

    /// Takes `text`'s code points; false, from the first text over what is left on.
    mutating func take(_ text: String) -> Bool {
        guard !spent else { return false }
        let count = text.unicodeScalars.count
        guard count <= left else {
            spent = true
            return false
        }
        left -= count
        return true
    }

    /// `take(_:)` for a text the lowering draws, at `keyPath` of `file`: the first text
    /// refused adds the one warning, which speaks for every text after it too.
    mutating func take(_ text: String, file: String, keyPath: String, warnings: inout [DocumentWarning]) -> Bool {
        let wasSpent = spent
        guard take(text) else {
            if !wasSpent {
                warnings.append(
                    DocumentWarning(
                        file: file, keyPath: keyPath,
                        message:
                            "the document's texts have more than \(formatNumber(Double(RenderBudgets.maxTextCodePointsPerDocument))) characters in all, the budget; this text and every text after it are not drawn"
                    ))
            }
            return false
        }
        return true
    }
}
