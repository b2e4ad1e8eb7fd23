import FoundationEssentials
import EaselGeometry
import EaselDocuments
import EaselCairo

/// A display list: what to draw, as primitive operations in canvas coordinates, in order.
/// Cards and drawings are lowered to a scene; backends (cairo raster, SVG, PDF) only know
/// scenes. All layout decisions are already made here, so a scene can be tested and
/// printed (`description`) without rasterising. A scene holds values only — paths, colours,
/// decoded pixels, glyph runs by font file — never a cairo surface or context.
public struct Scene: Sendable {
    /// The document the scene was lowered from, for messages ("" when made by hand).
    public var file: String = ""
    /// The canvas in units; the output image maps it onto its pixels.
    public var canvasSize: Size
    /// The drawing steps, first to last (later ones on top).
    public var operations: [SceneOperation]
    /// What the lowering noticed but could draw around (a missing image, an empty frame).
    public var warnings: [DocumentWarning]
    /// When drawing must stop, in `DispatchTime` uptime nanoseconds: past it, drawing
    /// throws `RenderError.timedOut` between operations (cairo cannot be interrupted inside
    /// one). Set from `easel export --timeout` and the server's render timeout through
    /// `RenderTimeout`. Nil: no limit.
    public var deadline: UInt64?

    /// A scene on a canvas of `canvasSize` units; empty unless operations are given.
    public init(canvasSize: Size, operations: [SceneOperation] = [], warnings: [DocumentWarning] = []) {
        self.canvasSize = canvasSize
        self.operations = operations
        self.warnings = warnings
    }
}

/// One drawing step of a scene.
public enum SceneOperation: Sendable {
    /// Fills `path` (non-zero winding) with a colour.
    case fill(Path, Color)
    /// Strokes `path` (canvas coordinates; widths and dashes in canvas units).
    case stroke(Path, StrokeStyle)
    /// Draws an image: `transform` maps the image's pixel space (0...width, 0...height) to
    /// the canvas; `clip`, in canvas coordinates, limits it.
    case image(SceneImage, transform: Transform2D, clip: Path?)
    /// Draws one laid-out line of text.
    case text(SceneText)
    /// Starts a group: what follows until the matching `endGroup` is clipped by `clip` (if
    /// any) and composited as one layer at `opacity`.
    case beginGroup(opacity: Double, clip: Path?)
    case endGroup
    /// Draws the drop shadow of `operations` (which are drawn themselves next).
    case shadow(SceneShadow)
}

/// A drop shadow: the silhouette of the operations, blurred, moved and painted in a colour
/// (see `CairoContext.drawShadow`).
public struct SceneShadow: Sendable {
    /// What casts the shadow; only its coverage counts, not its colours.
    public var operations: [SceneOperation]
    /// The shadow's colour (its alpha included).
    public var color: Color
    /// How far the shadow falls from what casts it, in canvas units.
    public var offset: Point
    /// The blur radius in canvas units (twice the Gaussian's standard deviation); 0 is sharp.
    public var blurRadius: Double

    /// The shadow `operations` cast (see the properties for units).
    public init(operations: [SceneOperation], color: Color, offset: Point, blurRadius: Double) {
        self.operations = operations
        self.color = color
        self.offset = offset
        self.blurRadius = blurRadius
    }
}

/// How a path is stroked.
public struct StrokeStyle: Hashable, Sendable {
    /// The colour of the line.
    public var color: Color
    /// The line width in canvas units; 0 draws nothing.
    public var width: Double
    /// Alternating dash and gap lengths in canvas units; empty for a solid line.
    public var dash: [Double]
    /// The shape of open line ends.
    public var cap: Stroke.Cap
    /// The shape of corners.
    public var join: Stroke.Join

    /// The style of a drawing's `Stroke`, unchanged.
    public init(_ stroke: Stroke) {
        color = stroke.color
        width = stroke.width
        dash = stroke.dash
        cap = stroke.cap
        join = stroke.join
    }
}

/// A decoded image in a scene, with the name it was loaded by (for scene dumps).
public struct SceneImage: Sendable {
    /// The name the document gives the image.
    public var name: String
    /// The decoded pixels (held by Swift, shared by every use of the same file in a render).
    public var pixels: PixelBuffer
    /// The file the image was decoded from, when it came from one.
    public var source: URL?

    /// An image; give `source` when the pixels came from a file (scene replay scripts need it).
    public init(name: String, pixels: PixelBuffer, source: URL? = nil) {
        self.name = name
        self.pixels = pixels
        self.source = source
    }
}

/// A line of text placed on the canvas: `line` is laid out at size 1; `transform` maps the
/// text's own space (baseline at y = 0, pen starting at x = 0, in units of the final size)
/// to the canvas.
public struct SceneText: Sendable {
    /// The glyphs, laid out at size 1.
    public var line: TextLine
    /// The size the line is drawn at, in canvas units; 0 or less draws nothing.
    public var fontSize: Double
    /// The colour of the glyphs.
    public var color: Color
    /// Maps the text's own space (baseline at y = 0, pen starting at x = 0) to the canvas.
    public var transform: Transform2D

    /// A line of text placed on the canvas (see the properties for units).
    public init(line: TextLine, fontSize: Double, color: Color, transform: Transform2D) {
        self.line = line
        self.fontSize = fontSize
        self.color = color
        self.transform = transform
    }
}

extension Scene: CustomStringConvertible {
    /// A stable text form, one operation per line, numbers rounded to 4 decimals.
    public var description: String {
        var lines = ["scene \(canvasSize)"]
        var depth = 0
        for operation in operations {
            let indent = String(repeating: "  ", count: depth)
            switch operation {
            case .fill(let path, let color):
                lines.append(indent + "fill \(color) \(path)")
            case .stroke(let path, let style):
                let dash = style.dash.isEmpty ? "" : " dash \(style.dash.map(formatNumber).joined(separator: ","))"
                lines.append(
                    indent
                        + "stroke \(style.color) width \(formatNumber(style.width))\(dash) cap \(style.cap) join \(style.join) \(path)"
                )
            case .image(let image, let transform, let clip):
                lines.append(
                    indent + "image \(image.name) \(image.pixels.width)x\(image.pixels.height) \(transform)"
                        + (clip.map { " clip \($0)" } ?? ""))
            case .text(let text):
                let fonts = text.line.runs.map(\.font.description).joined(separator: "+")
                lines.append(
                    indent
                        + "text \"\(text.line.text)\" \(fonts) size \(formatNumber(text.fontSize)) \(text.color) \(text.transform)"
                )
            case .beginGroup(let opacity, let clip):
                lines.append(indent + "group opacity \(formatNumber(opacity))" + (clip.map { " clip \($0)" } ?? ""))
                depth += 1
            case .endGroup:
                depth -= 1
                lines.append(String(repeating: "  ", count: max(0, depth)) + "end group")
            case .shadow(let shadow):
                lines.append(
                    indent
                        + "shadow \(shadow.color) offset \(formatNumber(shadow.offset.x)),\(formatNumber(shadow.offset.y)) blur \(formatNumber(shadow.blurRadius)) of \(shadow.operations.count) operations"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}
