import EaselDocuments
import EaselGeometry

/// A new element, as `easel add` describes it: a kind by name, its value (a text's string,
/// an image file, a path's commands), and its properties (frame, style, a shape's sides or
/// a line's ends). Each document type turns it into its own element (see `ElementFactory`).
public struct ElementRequest: Hashable, Sendable {
    /// A kind's name or alias as `ShapeNames` lists them: rectangle, rounded-rectangle,
    /// ellipse, polygon, star, line, path, text, image, or a library shape (heart, cloud...).
    public var kind: String
    /// For text: the string. For image: the PNG file's path. For path: M/L/Q/C/Z commands
    /// in the unit square.
    public var value: String?
    /// The element's properties; what is not set keeps the kind's default.
    public var style: ElementChanges
    /// How the document is named in hints ("use `add NAME image FILE.png`").
    public var documentName: String

    /// A request for a `kind` element, with `style`'s properties.
    public init(kind: String, value: String? = nil, style: ElementChanges = ElementChanges(), documentName: String) {
        self.kind = kind
        self.value = value
        self.style = style
        self.documentName = documentName
    }

    /// Where the image of an element that brings one into the document's folder comes from
    /// (`ElementFactory` stores either as a file).
    public enum ImageSource: Hashable, Sendable {
        /// The file `value` names.
        case file
        /// The sticker `value` names.
        case sticker
    }

    /// The image this request brings in, nil for any other kind: the kind read as every
    /// kind is read (`ShapeNames`: case, `-` and `_` ignored), so that a check of the
    /// file to be read and what the factories make can never disagree on a spelling.
    public var imageSource: ImageSource? { Self.imageSource(ofKind: kind) }

    /// The image a request of `kind` brings in (see `imageSource`).
    public static func imageSource(ofKind kind: String) -> ImageSource? {
        if ShapeNames.drawingKind(named: kind) == "image" { return .file }
        return ShapeNames.key(kind) == ShapeNames.key("sticker") ? .sticker : nil
    }

    /// Whether the element made is an image brought into the document's folder: an image
    /// file's, or a sticker's.
    public var addsImageFile: Bool { imageSource != nil }
}
