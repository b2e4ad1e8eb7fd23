import Foundation
import EaselSupport
import EaselDocuments
import EaselGeometry

/// What `easel info` shows about a document, as a value (encoded as JSON by `--json`).
public struct DocumentDescription: Codable, Equatable, Sendable {
    public var path: String
    public var type: String
    public var canvas: [Double]
    /// `#RRGGBB[AA]`, or nil for a transparent drawing.
    public var background: String?
    public var elements: [ElementDescription]
    public var warnings: [String]

    /// Describes `document`, located at `url` with its resources in `resourceFolder`.
    public init(_ document: any EditableDocument, at url: URL, resourceFolder: URL, warnings: [DocumentWarning]) {
        path = url.path
        type = document.kindName
        canvas = [document.canvas.width, document.canvas.height]
        background = document.background?.hex
        var notes = warnings.map(\.description)
        elements = document.elementDescriptions(resourceFolder: resourceFolder)
        for element in elements {
            if let status = element.imageStatus, status != "ok" { notes.append("\(url.path): element \(element.index): image \(status)") }
        }
        self.warnings = notes
    }
}

/// One element as `easel info` shows it.
public struct ElementDescription: Codable, Equatable, Sendable {
    public var index: Int
    public var kind: String
    public var center: [Double]
    public var size: [Double]
    public var rotation: Double
    public var fill: String?
    public var stroke: String?
    public var strokeWidth: Double?
    public var opacity: Double?
    public var clip: String?
    public var image: String?
    /// "ok", or "missing: …" / "refused: …".
    public var imageStatus: String?
    public var text: String?
    public var font: String?
    public var fontSize: Double?
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
