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

/// One element as `easel info` shows it.
public struct ElementDescription: Codable, Equatable, Sendable {
    /// The element's index in drawing order, as the edit verbs take it.
    public var index: Int
    /// What the element is: "image", "text", or a drawing's graphic kind such as "ellipse".
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
    /// 0 (invisible) to 1 (opaque); nil for card elements, which have no opacity.
    public var opacity: Double?
    /// The clip shape's name ("heart", "custom"); nil when the element is not clipped.
    public var clip: String?
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
            clip = element.clip?.description
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
        kind = graphic.kind.name
        center = [graphic.transform.center.x, graphic.transform.center.y]
        size = [graphic.transform.size.width, graphic.transform.size.height]
        rotation = graphic.transform.rotationDegrees
        fill = graphic.fill?.hex
        stroke = graphic.stroke?.color.hex
        strokeWidth = graphic.stroke?.width
        opacity = graphic.opacity
        clip = graphic.clip?.description
        name = graphic.name
        switch graphic.kind {
        case .image(let file):
            image = file
            imageStatus = Self.status(of: file, in: folder)
        case .text(let content):
            text = content.string
            font = content.fontFamily
            fontSize = content.fontSize
        case .group(let members):
            children = members.count
        default:
            break
        }
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
