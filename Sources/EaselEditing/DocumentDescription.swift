import Foundation
import EaselSupport
import EaselDocuments
import EaselGeometry

/// What `easel info` shows about a document, as a value (encoded as JSON by `--json`).
public struct DocumentDescription: Codable, Equatable, Sendable {
    /// The document's path, as it was opened.
    public var path: String
    /// The document kind, such as "card" or "drawing".
    public var type: String
    /// A card's id (the UUID the Cards app knows it by); nil for other documents.
    public var id: String?
    /// The canvas as `[width, height]` in canvas units.
    public var canvas: [Double]
    /// `#RRGGBB[AA]`, or nil for a transparent drawing.
    public var background: String?
    /// Every addressable element, in drawing order.
    public var elements: [ElementDescription]
    /// The warnings from opening and from drawing the document (a missing image, an
    /// unknown font), each with its JSON key path, as `validate` gives them.
    public var warnings: [String]

    /// Describes `document`, located at `url` (shown as given) with its resources in
    /// `resourceFolder`; `warnings` are what opening and drawing it noticed.
    public init(_ document: any EditableDocument, at url: URL, resourceFolder: URL, warnings: [DocumentWarning]) {
        path = url.relativePath
        type = document.kindName
        id = document.identifier
        canvas = [document.canvas.width, document.canvas.height]
        background = document.background?.hex
        elements = document.elementDescriptions(resourceFolder: resourceFolder)
        self.warnings = warnings.map(\.description)
        // An image that is there but did not draw cleanly (damaged, unreadable, over a
        // budget) is not "ok": the drawing's warning at its key path says why.
        for warning in warnings {
            guard let index = Self.elementIndex(ofImageKeyPath: warning.keyPath), elements.indices.contains(index),
                elements[index].imageStatus == "ok"
            else { continue }
            elements[index].imageStatus = "warning: \(warning.message)"
        }
    }

    /// The element index a warning about an element's image names: a card's image elements
    /// come first in drawing order (`imageElements[i].imageFilename`), and a drawing's
    /// top-level graphics are its elements (`graphics[i].file`).
    static func elementIndex(ofImageKeyPath keyPath: String) -> Int? {
        for (prefix, suffix) in [("imageElements[", "].imageFilename"), ("graphics[", "].file")]
        where keyPath.hasPrefix(prefix) && keyPath.hasSuffix(suffix) {
            return Int(keyPath.dropFirst(prefix.count).dropLast(suffix.count))
        }
        return nil
    }
}

/// One element as `easel info` shows it: every property its document stores for it, shapes
/// and clips by the names of `ShapeNames`.
public struct ElementDescription: Codable, Equatable, Sendable {
    /// The element's index in drawing order, as the edit verbs take it.
    public var index: Int
    /// What the element is: "image", "text", or a drawing's graphic kind by its
    /// `ShapeNames` name, such as "ellipse" or "rounded-rectangle".
    public var kind: String
    /// The frame's centre as `[x, y]`, in canvas coordinates.
    public var center: [Double]
    /// The frame as `[width, height]`, in canvas units.
    public var size: [Double]
    /// The clockwise rotation, in degrees.
    public var rotation: Double
    /// The fill (or a card text's) colour as `#RRGGBB[AA]`; nil when there is none.
    public var fill: String?
    /// The stroke colour as `#RRGGBB[AA]`; nil when the element is not stroked.
    public var stroke: String?
    /// The stroke width in canvas units; nil when the element is not stroked.
    public var strokeWidth: Double?
    /// The stroke's alternating dash and gap lengths, empty for a solid line; nil when the
    /// element is not stroked.
    public var dash: [Double]?
    /// The stroke's line ends: "butt", "round" or "square"; nil when not stroked.
    public var cap: String?
    /// The stroke's corners: "miter", "round" or "bevel"; nil when not stroked.
    public var join: String?
    /// 0 (invisible) to 1 (opaque); nil for card elements, which have no opacity.
    public var opacity: Double?
    /// The clip shape's `ShapeNames` name ("heart", "rounded-rectangle"), or "custom";
    /// nil when the element is not clipped.
    public var clip: String?
    /// A custom clip's outline as M/L/Q/C/Z commands in the unit square of the element's
    /// frame; nil for a library clip or none.
    public var clipPath: String?
    /// The image file's name as the document gives it; nil for other elements and empty images.
    public var image: String?
    /// "ok"; "missing: …" / "refused: …" (not found, or a name Easel never reads); or
    /// "warning: …" (found, but damaged or unreadable: what drawing it said).
    public var imageStatus: String?
    /// The text's string; nil for elements that are not text.
    public var text: String?
    /// The font name the document asks for (not the file drawn with); nil for non-text.
    public var font: String?
    /// A drawing text's size in canvas units; nil for card texts (sized to fit) and non-text.
    public var fontSize: Double?
    /// A drawing text's place in its frame: "left", "center" or "right"; nil otherwise.
    public var alignment: String?
    /// A rounded rectangle's corner radius in canvas units; nil for other kinds.
    public var cornerRadius: Double?
    /// A polygon's number of sides; nil for other kinds.
    public var sides: Int?
    /// A star's number of points; nil for other kinds.
    public var points: Int?
    /// A star's inner radius as a fraction of its outer one; nil for other kinds.
    public var innerRadiusRatio: Double?
    /// A line's start as `[x, y]` in canvas coordinates (the frame's unit-square point,
    /// placed as the frame is); nil for other kinds.
    public var from: [Double]?
    /// A line's end as `[x, y]` in canvas coordinates; nil for other kinds.
    public var to: [Double]?
    /// A path's outline as M/L/Q/C/Z commands in the unit square of its frame, as
    /// `easel add PATH path` takes them; nil for other kinds.
    public var path: String?
    /// The graphic's optional label; nil when it has none.
    public var name: String?
    /// A group's number of children.
    public var children: Int?

    /// An element described by its frame only (for document types other than cards and
    /// drawings; set the other properties as they apply).
    public init(index: Int, kind: String, center: Point, size: Size, rotation: Double = 0) {
        self.index = index
        self.kind = kind
        self.center = [center.x, center.y]
        self.size = [size.width, size.height]
        self.rotation = rotation
    }

    /// Describes a card's element at `index`; its image is looked up in `folder`.
    public init(cardElement: CardElement, index: Int, folder: URL) {
        let transform = cardElement.transform
        self.index = index
        center = [transform.center.x, transform.center.y]
        size = [transform.size.width, transform.size.height]
        rotation = transform.rotationDegrees
        switch cardElement {
        case .image(let element):
            kind = "image"
            describe(clip: element.clip)
            image = element.imageFilename
            imageStatus = element.imageFilename.map { Self.status(of: $0, in: folder) } ?? "missing: no image chosen"
        case .text(let element):
            kind = "text"
            fill = element.textColor.hex
            text = element.text
            font = element.textFont
        }
    }

    /// Describes a drawing's graphic at `index`; an image is looked up in `folder`.
    public init(graphic: Graphic, index: Int, folder: URL) {
        self.index = index
        kind = ShapeNames.name(of: graphic.kind)
        center = [graphic.transform.center.x, graphic.transform.center.y]
        size = [graphic.transform.size.width, graphic.transform.size.height]
        rotation = graphic.transform.rotationDegrees
        fill = graphic.fill?.hex
        if let stroke = graphic.stroke {
            self.stroke = stroke.color.hex
            strokeWidth = stroke.width
            dash = stroke.dash
            cap = stroke.cap.rawValue
            join = stroke.join.rawValue
        }
        opacity = graphic.opacity
        describe(clip: graphic.clip)
        name = graphic.name
        switch graphic.kind {
        case .image(let file):
            image = file
            imageStatus = Self.status(of: file, in: folder)
        case .text(let content):
            text = content.string
            font = content.fontFamily
            fontSize = content.fontSize
            alignment = content.alignment.rawValue
        case .group(let members):
            children = members.count
        case .roundedRectangle(let radius):
            cornerRadius = radius
        case .polygon(let count):
            sides = count
        case .star(let count, let ratio):
            points = count
            innerRadiusRatio = ratio
        case .line(let start, let end):
            // Where the ends are on the canvas, as `easel add line --from --to` takes them.
            let frame = graphic.transform
            func onCanvas(_ point: Point) -> [Double] {
                let placed = frame.frameToParent.apply(to: Point(x: point.x * frame.size.width, y: point.y * frame.size.height))
                return [Self.tidy(placed.x), Self.tidy(placed.y)]
            }
            from = onCanvas(start)
            to = onCanvas(end)
        case .path(let outline):
            path = outline.description
        case .rectangle, .ellipse, .libraryShape:
            break
        }
    }

    /// The clip's name and, for a custom one, its outline.
    private mutating func describe(clip: ClipShape?) {
        guard let clip else { return }
        self.clip = ShapeNames.name(of: clip)
        if case .custom(let outline) = clip { clipPath = outline.description }
    }

    /// `value` without the rounding noise of a transform (149.99999999999997 is 150), to
    /// the 1/10,000 that Easel prints numbers to.
    static func tidy(_ value: Double) -> Double {
        let rounded = (value * 10_000).rounded() / 10_000
        return rounded == 0 ? 0 : rounded
    }

    /// "ok", or why the image `name` cannot be used from `folder`.
    public static func status(of name: String, in folder: URL) -> String {
        switch FolderFileResolver.resolve(name, inFolder: folder) {
        case .file: return "ok"
        case .missing(let reason): return "missing: \(reason)"
        case .refused(let reason): return "refused: \(reason)"
        }
    }
}
