import EaselSupport
import EaselGeometry

/// Easel's own document, in the spirit of Apple's "ShapeEdit": a canvas (size, optional
/// background) holding an ordered list of graphics, drawn first to last. The JSON format
/// is documented in docs/drawing-format.md.
public struct Drawing: Hashable, Sendable {
    /// The format version this Easel writes; older versions are migrated on reading.
    public static let currentVersion = 1
    /// The `format` value that marks a drawing file.
    public static let formatIdentifier = "org.easel.drawing"

    /// The canvas's width and height in canvas units; exporting at scale 1 gives that many pixels.
    public var canvasSize: Size
    /// nil: transparent.
    public var background: Color?
    /// The top-level graphics, drawn first to last (later ones on top).
    public var graphics: [Graphic]

    /// A drawing; by default an empty 800x600 canvas on white.
    public init(canvasSize: Size = Size(width: 800, height: 600), background: Color? = .white, graphics: [Graphic] = []) {
        self.canvasSize = canvasSize
        self.background = background
        self.graphics = graphics
    }
}

/// Where a graphic sits: a frame of `size` centred at `center` (in its parent's
/// coordinates: the canvas, or the group's frame), rotated clockwise by `rotationDegrees`
/// about its centre. The graphic's own geometry is laid out in the frame.
public struct GraphicTransform: Hashable, Sendable {
    /// The frame's centre, in the parent's coordinates (the canvas, or the group's frame).
    public var center: Point
    /// The frame's width and height in canvas units, before rotation.
    public var size: Size
    /// The clockwise rotation about the frame's centre, in degrees.
    public var rotationDegrees: Double

    /// A frame of `size` centred at `center`, unrotated unless told otherwise.
    public init(center: Point, size: Size, rotationDegrees: Double = 0) {
        self.center = center
        self.size = size
        self.rotationDegrees = rotationDegrees
    }

    /// Maps the frame's own space (origin at its top-left, unrotated) to the parent's.
    public var frameToParent: Transform2D {
        Transform2D.translation(x: -size.width / 2, y: -size.height / 2)
            .concatenating(.rotation(degrees: rotationDegrees))
            .concatenating(.translation(x: center.x, y: center.y))
    }

    /// The frame in its own space.
    public var localRect: Rect { Rect(origin: .zero, size: size) }
}

/// One item of a drawing: a shape, text, image or group, with its placement and style.
public struct Graphic: Hashable, Sendable {
    /// What is drawn: a shape, text, an image or a group.
    public var kind: GraphicKind
    /// Where the graphic's frame sits in its parent.
    public var transform: GraphicTransform
    /// nil: not filled. Text is drawn in the fill colour (black when nil).
    public var fill: Color?
    /// nil: not stroked.
    public var stroke: Stroke?
    /// 0 (invisible) to 1 (opaque); applies to the whole graphic (and a group's children).
    public var opacity: Double
    /// Clips the graphic, laid out in its frame (an image's fitted rectangle).
    public var clip: ClipShape?
    /// An optional label shown by `easel info`.
    public var name: String?
    /// nil: no shadow.
    public var shadow: Shadow?

    /// A graphic; by default neither filled nor stroked, fully opaque, unclipped, unnamed
    /// and without a shadow.
    public init(
        kind: GraphicKind, transform: GraphicTransform, fill: Color? = nil, stroke: Stroke? = nil,
        opacity: Double = 1, clip: ClipShape? = nil, name: String? = nil, shadow: Shadow? = nil
    ) {
        self.kind = kind
        self.transform = transform
        self.fill = fill
        self.stroke = stroke
        self.opacity = opacity
        self.clip = clip
        self.name = name
        self.shadow = shadow
    }
}

/// A drop shadow under a graphic: its silhouette (after its clip and opacity), blurred,
/// moved by `offset` and drawn in `color` beneath it. Offset and blur are in canvas units,
/// on the canvas: they do not turn or scale with the graphic or its groups.
public struct Shadow: Hashable, Sendable {
    /// The shadow's colour; its alpha is how dark the shadow is.
    public var color: Color
    /// How far the shadow falls from the graphic, right and down, in canvas units.
    public var offset: Point
    /// How soft the shadow's edge is, in canvas units: twice the standard deviation of the
    /// Gaussian blur, as CSS and SwiftUI read a shadow's radius; 0 is a sharp copy.
    public var blur: Double

    /// A shadow; by default black at 50 %, 4 units right and down, blurred by 8 units.
    public init(color: Color = Color(red: 0, green: 0, blue: 0, alpha: 0.5), offset: Point = Point(x: 4, y: 4), blur: Double = 8)
    {
        self.color = color
        self.offset = offset
        self.blur = blur
    }
}

/// What a graphic draws. Shapes are laid out in the graphic's frame.
public indirect enum GraphicKind: Hashable, Sendable {
    case rectangle
    case roundedRectangle(cornerRadius: Double)
    case ellipse
    /// A regular polygon inscribed in the frame's ellipse, first vertex straight up.
    case polygon(sides: Int)
    /// A star of `points` points; the inner vertices sit at `innerRadiusRatio` of the outer radius.
    case star(points: Int, innerRadiusRatio: Double)
    /// A line between two points given in the unit square of the frame (0...1).
    case line(from: Point, to: Point)
    /// A free path in the unit square of the frame (0...1), scaled to the frame.
    case path(Path)
    case text(TextContent)
    /// A PNG next to the document (or inside its package folder), aspect-fitted in the frame.
    case image(file: String)
    /// A shape of the Cards app's clip-shape library, laid out in the frame. The library's
    /// rectangle and rounded rectangle are the kinds above; use `shape(_:)` to get the
    /// canonical kind for any library shape.
    case libraryShape(LibraryShape)
    /// Children placed in the group's frame (their centres are in the frame's own space).
    case group([Graphic])

    /// The canonical kind that draws library shape `shape`: `.rectangle` and
    /// `.roundedRectangle(cornerRadius: 25)` for those two, `.libraryShape` for the rest.
    public static func shape(_ shape: LibraryShape) -> GraphicKind {
        switch shape {
        case .rectangle: return .rectangle
        case .roundedRectangle: return .roundedRectangle(cornerRadius: 25)
        default: return .libraryShape(shape)
        }
    }

    /// The name used in JSON and on the command line.
    public var name: String {
        switch self {
        case .rectangle: return "rectangle"
        case .roundedRectangle: return "roundedRectangle"
        case .ellipse: return "ellipse"
        case .polygon: return "polygon"
        case .star: return "star"
        case .line: return "line"
        case .path: return "path"
        case .text: return "text"
        case .image: return "image"
        case .libraryShape(let shape): return shape.name
        case .group: return "group"
        }
    }
}

/// The text of a text graphic: one line, vertically centred in the frame and drawn in
/// the graphic's fill colour.
public struct TextContent: Hashable, Sendable {
    /// Where the line sits horizontally in the frame: against its left edge, centred, or
    /// against its right edge.
    public enum Alignment: String, Hashable, Sendable, CaseIterable {
        case left, center, right
    }

    /// The text, drawn as one line (control characters are skipped); empty draws nothing.
    public var string: String
    /// A font family name, mapped to an installed font when drawn (see the font map in docs/fonts.md).
    public var fontFamily: String
    /// In canvas units.
    public var fontSize: Double
    /// Where the line sits horizontally in the frame.
    public var alignment: Alignment

    /// Text content; by default centred, in DejaVu Sans at a size of 48 canvas units.
    public init(string: String, fontFamily: String = "DejaVu Sans", fontSize: Double = 48, alignment: Alignment = .center) {
        self.string = string
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.alignment = alignment
    }
}

/// How a graphic's outline is drawn: colour, width, dashes and the shape of line ends
/// and corners (as in cairo and SVG).
public struct Stroke: Hashable, Sendable {
    /// The shape of open line ends: flat at the end point, rounded, or squared off half the
    /// width past it.
    public enum Cap: String, Hashable, Sendable, CaseIterable { case butt, round, square }
    /// The shape of corners: sharp, rounded, or cut off.
    public enum Join: String, Hashable, Sendable, CaseIterable { case miter, round, bevel }
    /// Which ends of a line carry an arrowhead: a filled triangle in the stroke's colour,
    /// sized by its width, the line stopping at its base.
    public enum Arrowheads: String, Hashable, Sendable, CaseIterable { case none, start, end, both }

    /// The colour of the outline.
    public var color: Color
    /// The line width in canvas units, centred on the outline.
    public var width: Double
    /// Alternating dash and gap lengths; empty for a solid line.
    public var dash: [Double]
    /// The shape of open line ends.
    public var cap: Cap
    /// The shape of corners.
    public var join: Join
    /// A line's arrowheads (other shapes have none).
    public var arrowheads: Arrowheads

    /// A stroke; by default a solid black line 1 canvas unit wide with butt caps, miter
    /// joins and no arrowheads.
    public init(
        color: Color = .black, width: Double = 1, dash: [Double] = [], cap: Cap = .butt, join: Join = .miter,
        arrowheads: Arrowheads = .none
    ) {
        self.color = color
        self.width = width
        self.dash = dash
        self.cap = cap
        self.join = join
        self.arrowheads = arrowheads
    }
}
