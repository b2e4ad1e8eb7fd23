import FoundationEssentials
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
    /// Where the document's image files are looked up, named as `path` names the document
    /// (the folder that holds a card; a drawing's folder or package); nil unless set by
    /// whoever names it (`easel serve`, relative to its folder, for the editor's copy and paste).
    public var resourceFolder: String?
    /// What the document is called where a person sees it (`DocumentTitle`: the file name,
    /// or a card's first text when its name is only its id); nil unless set by whoever shows
    /// it (`easel serve`, for the editor's Share, which names the picture by it).
    public var title: String?
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

/// One element as `easel info` shows it: its index and kind, every property it has by the
/// property table's keys (`ElementProperty`: `at`, `size`, `fill`, `shadowBlur`…), and what
/// the table does not edit (an image's file and status, a group's size).
/// Shapes and clips are named as `ShapeNames` names them.
public struct ElementDescription: Codable, Equatable, Sendable {
    /// The element's index in drawing order, as the edit verbs take it.
    public var index: Int
    /// What the element is: "image", "text", or a drawing's graphic kind by its
    /// `ShapeNames` name, such as "ellipse" or "rounded-rectangle".
    public var kind: String
    /// The element's properties by key (see `ElementProperty.all`); a property it does not
    /// have, or has none of (no stroke), is absent.
    public var values: [String: PropertyValue]
    /// A custom clip's outline as M/L/Q/C/Z commands in the unit square of the element's
    /// frame; nil for a library clip or none.
    public var clipPath: String?
    /// The image file's name as the document gives it; nil for other elements and empty images.
    public var image: String?
    /// "ok"; "missing: …" / "refused: …" (not found, or a name Easel never reads); or
    /// "warning: …" (found, but damaged or unreadable: what drawing it said).
    public var imageStatus: String?
    /// A group's number of children.
    public var children: Int?

    /// The value of `property`; nil when the element does not have it.
    public subscript(property: ElementProperty) -> PropertyValue? {
        get { values[property.key] }
        set { values[property.key] = newValue }
    }

    /// The frame's centre in canvas coordinates.
    public var center: Point { if case .point(let point) = self[.at] { point } else { .zero } }
    /// The frame's width and height.
    public var size: Size { if case .size(let size) = self[.size] { size } else { Size(width: 0, height: 0) } }
    /// The clockwise rotation in degrees.
    public var rotation: Double { self[.rotation]?.number ?? 0 }

    /// An element described by its frame only (for document types other than cards and
    /// drawings; set the other properties as they apply).
    public init(index: Int, kind: String, center: Point, size: Size, rotation: Double = 0) {
        self.index = index
        self.kind = kind
        values = [
            ElementProperty.at.key: .point(center), ElementProperty.size.key: .size(size),
            ElementProperty.rotation.key: .number(rotation),
        ]
    }

    /// Describes a card's element at `index`; its image is looked up in `folder`.
    public init(cardElement: CardElement, index: Int, folder: URL) {
        self.index = index
        kind = cardElement.isText ? "text" : "image"
        values = Self.values { $0.value(of: cardElement) }
        if case .image(let element) = cardElement {
            describe(clip: element.clip)
            image = element.imageFilename
            imageStatus = element.imageFilename.map { Self.status(of: $0, in: folder) } ?? "missing: no image chosen"
        }
    }

    /// Describes a drawing's graphic at `index`; an image is looked up in `folder`.
    public init(graphic: Graphic, index: Int, folder: URL) {
        self.index = index
        kind = ShapeNames.name(of: graphic.kind)
        values = Self.values { $0.value(of: graphic) }
        describe(clip: graphic.clip)
        switch graphic.kind {
        case .image(let file):
            image = file
            imageStatus = Self.status(of: file, in: folder)
        case .group(let members): children = members.count
        default: break
        }
    }

    private static func values(_ read: (ElementProperty) -> PropertyValue?) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for property in ElementProperty.all {
            let value = read(property)
            // Colours as `#RRGGBB[AA]` gives them, so a description reads back equal.
            if case .color(let color?) = value {
                values[property.key] = .color((try? Color(hex: color.hex)) ?? color)
            } else {
                values[property.key] = value
            }
        }
        return values
    }

    /// A custom clip's outline.
    private mutating func describe(clip: ClipShape?) {
        if case .custom(let outline) = clip { clipPath = outline.description }
    }

    /// One line of `easel info`: the index and kind, then each property by its option's
    /// name and value as the option takes it (`fill #FF6347`, `at 400,300`), leaving out
    /// the format's defaults (no rotation, opacity 1, a solid stroke...).
    public var summary: String {
        var parts = ["[\(index)] \(kind)"]
        for property in ElementProperty.all {
            guard let value = self[property], value != property.usual else { continue }
            let name = property.flag.dropFirst(2)
            switch value {
            case .text(let string) where property.type.isFreeText: parts.append("\(name) \"\(string)\"")
            default: parts.append("\(name) \(value.text)")
            }
        }
        if let clipPath { parts.append("clip-path \(clipPath)") }
        if let image { parts.append("image \(image) (\(imageStatus == "ok" ? "found" : "not found"))") }
        if let children { parts.append("\(children) children") }
        return parts.joined(separator: ", ")
    }

    private enum FixedKey: String, CodingKey { case index, kind, clipPath, image, imageStatus, children }

    private struct PropertyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes the index and kind, every property by its key (in the table's order), then
    /// the rest, as `info --json` and the server give an element.
    public func encode(to encoder: any Encoder) throws {
        var fixed = encoder.container(keyedBy: FixedKey.self)
        try fixed.encode(index, forKey: .index)
        try fixed.encode(kind, forKey: .kind)
        var properties = encoder.container(keyedBy: PropertyKey.self)
        for property in ElementProperty.all {
            guard let value = values[property.key] else { continue }
            try PropertyValueCoding.encode(value, in: &properties, forKey: PropertyKey(stringValue: property.key))
        }
        try fixed.encodeIfPresent(clipPath, forKey: .clipPath)
        try fixed.encodeIfPresent(image, forKey: .image)
        try fixed.encodeIfPresent(imageStatus, forKey: .imageStatus)
        try fixed.encodeIfPresent(children, forKey: .children)
    }

    /// Reads an element as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        let fixed = try decoder.container(keyedBy: FixedKey.self)
        index = try fixed.decode(Int.self, forKey: .index)
        kind = try fixed.decode(String.self, forKey: .kind)
        clipPath = try fixed.decodeIfPresent(String.self, forKey: .clipPath)
        image = try fixed.decodeIfPresent(String.self, forKey: .image)
        imageStatus = try fixed.decodeIfPresent(String.self, forKey: .imageStatus)
        children = try fixed.decodeIfPresent(Int.self, forKey: .children)
        let properties = try decoder.container(keyedBy: PropertyKey.self)
        values = [:]
        for property in ElementProperty.all {
            let key = PropertyKey(stringValue: property.key)
            guard properties.contains(key) else { continue }
            values[property.key] = try PropertyValueCoding.decode(
                property.type, from: properties, forKey: key, customClip: clipPath)
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
