import EaselGeometry

/// A new element, as `easel add` describes it: a kind by name, its value (a text's string,
/// an image file, a path's commands), its style and frame, and the parameters of the
/// shape kinds. Each document type turns it into its own element (see `ElementFactory`).
public struct ElementRequest: Hashable, Sendable {
    /// A kind's name or alias as `ShapeNames` lists them: rectangle, rounded-rectangle,
    /// ellipse, polygon, star, line, path, text, image, or a library shape (heart, cloud...).
    public var kind: String
    /// For text: the string. For image: the PNG file's path. For path: M/L/Q/C/Z commands
    /// in the unit square.
    public var value: String?
    /// Frame (centre, size, rotation) and style; nil leaves the kind's default.
    public var style: ElementChanges
    /// Polygon sides.
    public var sides = 6
    /// Star points.
    public var points = 5
    /// Star inner radius, as a fraction of the outer.
    public var innerRatio = 0.5
    /// Rounded rectangle corner radius.
    public var cornerRadius = 25.0
    /// A line's end points in canvas coordinates (both, or neither).
    public var from: Point?
    /// The line's end point in canvas coordinates (set together with `from`).
    public var to: Point?
    /// How the document is named in hints ("use `add NAME image FILE.png`").
    public var documentName: String

    /// A request for a `kind` element; the shape parameters start at their defaults.
    public init(kind: String, value: String? = nil, style: ElementChanges = ElementChanges(), documentName: String) {
        self.kind = kind
        self.value = value
        self.style = style
        self.documentName = documentName
    }
}
