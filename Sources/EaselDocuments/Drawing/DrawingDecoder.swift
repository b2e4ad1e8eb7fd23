import EaselSupport
import EaselGeometry

/// Reads drawing JSON (docs/drawing-format.md). Every number is checked to be finite and
/// within `DrawingLimits`; every failure names the key path.
public enum DrawingDecoder {
    /// Upgrades a document of version n (the key) to version n + 1. Each step works on the
    /// JSON, so the decoder below only ever sees the current version. Version 1 is the
    /// first; the next format change adds `1: { ... }` here and bumps `currentVersion`.
    static let migrations: [Int: @Sendable (JSONValue) -> JSONValue] = [:]

    /// The drawing in `bytes`, migrated to the current version (with a warning per step);
    /// throws for bad JSON, a newer version or any value out of `DrawingLimits`.
    public static func decode(_ bytes: [UInt8], file: String, warnings: inout [DocumentWarning]) throws(DocumentError) -> Drawing
    {
        if bytes.count > DrawingLimits.maxFileBytes {
            throw DocumentError(
                file: file,
                kind: .limitExceeded(
                    "the file is \(bytes.count) bytes, over the drawing limit of \(DrawingLimits.maxFileBytes) bytes"))
        }
        var root = try JSONNode.parse(bytes, file: file)
        if let format = try root.optional("format") {
            guard try format.string() == Drawing.formatIdentifier else {
                throw format.invalid(
                    "this is not an Easel drawing (format \"\(try format.string())\", expected \"\(Drawing.formatIdentifier)\")")
            }
        }
        let versionNode = try root.required("version")
        var version = try versionNode.int()
        guard version >= 1 else { throw versionNode.invalid("version \(version) does not exist; drawings start at version 1") }
        guard version <= Drawing.currentVersion else {
            throw versionNode.invalid(
                "the drawing was written by a newer Easel (format version \(version)); this Easel reads versions up to \(Drawing.currentVersion)"
            )
        }
        while version < Drawing.currentVersion, let migrate = migrations[version] {
            root = JSONNode(value: migrate(root.value), file: file)
            warnings.append(DocumentWarning(file: file, message: "upgraded from format version \(version) to \(version + 1)"))
            version += 1
        }

        let canvas = try root.required("canvas")
        let sizeNode = try canvas.required("size")
        let size = try sizeNode.numbers(count: 2, meaning: "width, height")
        guard size[0] > 0, size[1] > 0, size[0] <= DrawingLimits.maxCoordinate, size[1] <= DrawingLimits.maxCoordinate else {
            throw sizeNode.invalid(
                "the canvas size must be positive and at most \(formatNumber(DrawingLimits.maxCoordinate)) units a side, found \(formatNumber(size[0]))x\(formatNumber(size[1]))"
            )
        }
        let background = try canvas.optionalNonNull("background").map { (node) throws(DocumentError) in try decodeColor(node) }
        var context = Context()
        let graphics = try decodeGraphics(root.required("graphics"), depth: 0, context: &context)
        return Drawing(canvasSize: Size(width: size[0], height: size[1]), background: background, graphics: graphics)
    }

    struct Context {
        var graphicCount = 0
    }

    static func decodeGraphics(_ node: JSONNode, depth: Int, context: inout Context) throws(DocumentError) -> [Graphic] {
        let items = try node.array(maxCount: DrawingLimits.maxGraphics, of: "graphics")
        var graphics: [Graphic] = []
        graphics.reserveCapacity(items.count)
        for item in items {
            context.graphicCount += 1
            if context.graphicCount > DrawingLimits.maxGraphics {
                throw item.error(.limitExceeded("more than \(DrawingLimits.maxGraphics) graphics in the drawing"))
            }
            graphics.append(try decodeGraphic(item, depth: depth, context: &context))
        }
        return graphics
    }

    static func decodeGraphic(_ node: JSONNode, depth: Int, context: inout Context) throws(DocumentError) -> Graphic {
        let kindNode = try node.required("kind")
        let kindName = try kindNode.string()
        let kind: GraphicKind
        switch kindName {
        case "rectangle": kind = .rectangle
        case "roundedRectangle":
            // Without a radius it is the Cards library's rounded rectangle (radius 25).
            let radius = try node.optional("cornerRadius").map { (n) throws(DocumentError) in
                try length(n, meaning: "the corner radius")
            }
            kind = .roundedRectangle(cornerRadius: radius ?? 25)
        case "ellipse": kind = .ellipse
        case "polygon":
            kind = .polygon(sides: try count(node.required("sides"), minimum: 3, meaning: "a polygon's sides"))
        case "star":
            let ratioNode = try node.optional("innerRadiusRatio")
            let ratio =
                try ratioNode.map { (n) throws(DocumentError) in try n.double(in: 0...1, meaning: "the inner radius ratio") }
                ?? 0.5
            kind = .star(
                points: try count(node.required("points"), minimum: 2, meaning: "a star's points"), innerRadiusRatio: ratio)
        case "line":
            let from = try node.optional("from").map { (n) throws(DocumentError) in try point(n) } ?? Point(x: 0, y: 0.5)
            let to = try node.optional("to").map { (n) throws(DocumentError) in try point(n) } ?? Point(x: 1, y: 0.5)
            kind = .line(from: from, to: to)
        case "path":
            kind = .path(try decodePath(node.required("elements")))
        case "text":
            kind = .text(try decodeText(node))
        case "image":
            kind = .image(file: try node.required("file").string())
        case "group":
            guard depth < DrawingLimits.maxGroupDepth else {
                throw node.error(.limitExceeded("groups nested deeper than \(DrawingLimits.maxGroupDepth) levels"))
            }
            kind = .group(try decodeGraphics(node.required("children"), depth: depth + 1, context: &context))
        default:
            if let shape = LibraryShape(name: kindName) {
                kind = .shape(shape)
            } else {
                throw kindNode.invalid(
                    "unknown graphic kind \"\(kindName)\"; expected one of \(allKindNames.joined(separator: ", "))")
            }
        }

        let transform = try decodeTransform(node.required("transform"))
        let fill = try node.optionalNonNull("fill").map { (n) throws(DocumentError) in try decodeColor(n) }
        let stroke = try node.optionalNonNull("stroke").map { (n) throws(DocumentError) in try decodeStroke(n) }
        let opacity =
            try node.optional("opacity").map { (n) throws(DocumentError) in try n.double(in: 0...1, meaning: "the opacity") } ?? 1
        let clip = try node.optionalNonNull("clip").map { (n) throws(DocumentError) in try decodeClip(n) }
        let name = try node.optionalNonNull("name").map { (n) throws(DocumentError) in try n.string() }
        let shadow = try node.optionalNonNull("shadow").map { (n) throws(DocumentError) in try decodeShadow(n) }
        return Graphic(
            kind: kind, transform: transform, fill: fill, stroke: stroke, opacity: opacity, clip: clip, name: name,
            shadow: shadow)
    }

    /// `{"color": …, "offset": [dx, dy], "blur": r}`; each member has `Shadow`'s default.
    static func decodeShadow(_ node: JSONNode) throws(DocumentError) -> Shadow {
        var shadow = Shadow()
        if let color = try node.optionalNonNull("color") { shadow.color = try decodeColor(color) }
        if let offset = try node.optionalNonNull("offset") {
            let (dx, dy) = try offset.pair(meaning: "dx, dy")
            try checkCoordinates(dx, dy, of: offset)
            shadow.offset = Point(x: dx, y: dy)
        }
        if let blur = try node.optionalNonNull("blur") {
            shadow.blur = try blur.double(in: 0...DrawingLimits.maxShadowBlur, meaning: "the shadow's blur")
        }
        return shadow
    }

    static let allKindNames =
        ["rectangle", "roundedRectangle", "ellipse", "polygon", "star", "line", "path", "text", "image", "group"]
        + LibraryShape.allCases.map(\.name).filter { $0 != "rectangle" && $0 != "roundedRectangle" }

    static func decodeTransform(_ node: JSONNode) throws(DocumentError) -> GraphicTransform {
        let centerNode = try node.required("center")
        let center = try centerNode.pair(meaning: "x, y")
        let sizeNode = try node.required("size")
        let size = try sizeNode.pair(meaning: "width, height")
        try checkCoordinates(center.0, center.1, of: centerNode)
        try checkCoordinates(size.0, size.1, of: sizeNode)
        guard size.0 >= 0, size.1 >= 0 else {
            throw sizeNode.invalid("a size cannot be negative, found \(formatNumber(size.0))x\(formatNumber(size.1))")
        }
        let rotation =
            try node.optional("rotation").map { (n) throws(DocumentError) in
                try n.double(
                    in: -DrawingLimits.maxRotationDegrees...DrawingLimits.maxRotationDegrees, meaning: "the rotation in degrees")
            } ?? 0
        return GraphicTransform(
            center: Point(x: center.0, y: center.1), size: Size(width: size.0, height: size.1), rotationDegrees: rotation)
    }

    /// Throws, naming `node`, for the first of a pair of numbers beyond the coordinate limit.
    static func checkCoordinates(_ first: Double, _ second: Double, of node: JSONNode) throws(DocumentError) {
        for value in [first, second] where abs(value) > DrawingLimits.maxCoordinate {
            throw node.error(
                .limitExceeded(
                    "\(formatNumber(value)) is beyond the coordinate limit of ±\(formatNumber(DrawingLimits.maxCoordinate))"))
        }
    }

    /// A colour: `[r, g, b]` or `[r, g, b, a]` in (extended) sRGB, or `"#RRGGBB"` / `"#RRGGBBAA"`.
    package static func decodeColor(_ node: JSONNode) throws(DocumentError) -> Color {
        switch node.shape {
        case .string:
            guard let color = try? Color(hex: node.string()) else {
                throw node.typeMismatch(expected: "a colour as \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a]")
            }
            return color
        case .array(let count) where count == 3 || count == 4:
            let c = try node.numbers(count: count, meaning: "red, green, blue[, alpha]")
            return Color(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            throw node.typeMismatch(expected: "a colour as \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a]")
        }
    }

    static func decodeStroke(_ node: JSONNode) throws(DocumentError) -> Stroke {
        let color = try node.optionalNonNull("color").map { (n) throws(DocumentError) in try decodeColor(n) } ?? .black
        let width =
            try node.optional("width").map { (n) throws(DocumentError) in try length(n, meaning: "the stroke width") } ?? 1
        var dash: [Double] = []
        if let dashNode = try node.optionalNonNull("dash") {
            for item in try dashNode.array(maxCount: DrawingLimits.maxDashCount, of: "dash lengths") {
                dash.append(try length(item, meaning: "a dash length"))
            }
            if !dash.isEmpty && dash.allSatisfy({ $0 == 0 }) {
                throw dashNode.invalid("a dash pattern cannot be all zeros")
            }
        }
        let cap = try enumValue(node.optional("cap"), default: Stroke.Cap.butt, meaning: "a line cap")
        let join = try enumValue(node.optional("join"), default: Stroke.Join.miter, meaning: "a line join")
        let arrowheads = try enumValue(
            node.optional("arrowheads"), default: Stroke.Arrowheads.none, meaning: "the arrowheads")
        return Stroke(color: color, width: width, dash: dash, cap: cap, join: join, arrowheads: arrowheads)
    }

    static func decodeText(_ node: JSONNode) throws(DocumentError) -> TextContent {
        let textNode = try node.required("text")
        let string = try textNode.string()
        if let problem = TextLimits.problem(with: string) { throw textNode.error(.limitExceeded(problem)) }
        let family = try node.optional("font").map { (n) throws(DocumentError) in try n.string() } ?? "DejaVu Sans"
        let size =
            try node.optional("fontSize").map { (n) throws(DocumentError) in
                try n.double(in: 0...DrawingLimits.maxFontSize, meaning: "the font size")
            } ?? 48
        let alignment = try enumValue(
            node.optional("alignment"), default: TextContent.Alignment.center, meaning: "a text alignment")
        return TextContent(string: string, fontFamily: family, fontSize: size, alignment: alignment)
    }

    /// A clip: a library shape's name, or `{"path": [elements]}` in the unit square.
    static func decodeClip(_ node: JSONNode) throws(DocumentError) -> ClipShape {
        if case .string = node.shape {
            let name = try node.string()
            guard let shape = LibraryShape(name: name) else {
                throw node.invalid(
                    "unknown clip shape \"\(name)\"; expected one of \(LibraryShape.allCases.map(\.name).joined(separator: ", ")) or {\"path\": [...]}"
                )
            }
            return .library(shape)
        }
        guard case .object = node.shape else {
            throw node.typeMismatch(expected: "a clip-shape name or {\"path\": [...]}")
        }
        return .custom(try decodePath(node.required("path")))
    }

    /// Path elements: `["move", x, y]`, `["line", x, y]`, `["quad", cx, cy, x, y]`,
    /// `["cubic", c1x, c1y, c2x, c2y, x, y]`, `["close"]`.
    static func decodePath(_ node: JSONNode) throws(DocumentError) -> Path {
        var elements: [Path.Element] = []
        for item in try node.array(maxCount: DrawingLimits.maxPathElements, of: "path elements") {
            var parts: [JSONNode] = []
            if case .array = item.shape { parts = try item.array() }
            guard let first = parts.first, first.shape == .string else {
                throw item.typeMismatch(expected: "a path element such as [\"move\", x, y]")
            }
            let verb = try first.string()
            let arity = ["move": 2, "line": 2, "quad": 4, "cubic": 6, "close": 0][verb]
            guard let arity else {
                throw item.invalid("unknown path element \"\(verb)\"; expected move, line, quad, cubic or close")
            }
            guard parts.count == arity + 1 else {
                throw item.typeMismatch(expected: "[\"\(verb)\"\(String(repeating: ", number", count: arity))]")
            }
            var numbers: [Double] = []
            for part in parts.dropFirst() {
                let number = try part.double()
                guard abs(number) <= DrawingLimits.maxCoordinate else {
                    throw item.error(.limitExceeded("\(formatNumber(number)) is beyond the coordinate limit"))
                }
                numbers.append(number)
            }
            func p(_ i: Int) -> Point { Point(x: numbers[i], y: numbers[i + 1]) }
            switch verb {
            case "move": elements.append(.move(to: p(0)))
            case "line": elements.append(.line(to: p(0)))
            case "quad": elements.append(.quadCurve(to: p(2), control: p(0)))
            case "cubic": elements.append(.curve(to: p(4), control1: p(0), control2: p(2)))
            default: elements.append(.closeSubpath)
            }
        }
        if let first = elements.first, case .move = first {
        } else if !elements.isEmpty {
            throw node.invalid("a path must start with a \"move\" element")
        }
        do { return try Path(validating: elements) } catch { throw node.invalid(error.description) }
    }

    static func point(_ node: JSONNode) throws(DocumentError) -> Point {
        let numbers = try node.numbers(count: 2, meaning: "x, y in the unit square of the frame")
        // Bounded as a path's points are: scaled by the frame, a larger one is not finite.
        for number in numbers where abs(number) > DrawingLimits.maxCoordinate {
            throw node.error(.limitExceeded("\(formatNumber(number)) is beyond the coordinate limit"))
        }
        return Point(x: numbers[0], y: numbers[1])
    }

    static func length(_ node: JSONNode, meaning: String) throws(DocumentError) -> Double {
        try node.double(in: 0...DrawingLimits.maxStrokeWidth, meaning: meaning)
    }

    static func count(_ node: JSONNode, minimum: Int, meaning: String) throws(DocumentError) -> Int {
        let value = try node.int()
        guard value >= minimum, value <= DrawingLimits.maxPolygonSides else {
            throw node.invalid("\(meaning) must be from \(minimum) to \(DrawingLimits.maxPolygonSides), found \(value)")
        }
        return value
    }

    static func enumValue<E: RawRepresentable & CaseIterable>(_ node: JSONNode?, default fallback: E, meaning: String)
        throws(DocumentError) -> E where E.RawValue == String
    {
        guard let node, !node.isNull else { return fallback }
        let text = try node.string()
        guard let value = E(rawValue: text) else {
            throw node.invalid(
                "\"\(text)\" is not \(meaning); expected one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
