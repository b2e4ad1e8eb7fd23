import EaselDocuments
import EaselGeometry

// The one table of element properties. Each entry says what the property is called, what
// it takes (bounded by the document limits), which elements have it and how they hold it;
// options, completion, `info`, the edit API, `GET /api/schema` and the inspector follow.
// To add a property: add it to its model, give it an entry here, and list it in `all`.
extension ElementProperty {
    /// Every property, in the order help, `info` and the inspector list them and edits apply
    /// them (the frame first, a line's ends after it; values of `none` last).
    public static let all: [ElementProperty] = [
        at, size, rotation, fill, stroke, strokeWidth, dash, cap, join, opacity, clip, text, font, fontSize, align,
        cornerRadius, sides, points, innerRatio, from, to, arrowheads, outline, shadowColor, shadowOffset, shadowBlur,
        name,
    ]

    /// The property named `key` (or one of its aliases), as an edit request names it.
    public static func named(_ key: String) -> ElementProperty? { all.first { $0.keys.contains(key) } }

    /// The property an option sets (`--stroke-width`, `--color`).
    public static func forFlag(_ flag: String) -> ElementProperty? { all.first { $0.flags.contains(flag) } }

    // MARK: Frame

    /// The centre of the element's frame, in canvas coordinates.
    public static let at = ElementProperty(
        key: "at", label: "position", help: "Centre position X,Y in canvas coordinates.",
        type: .point(coordinates), section: "frame",
        graphic: Access(read: { .point($0.transform.center) }, write: { if case .point(let p) = $1 { $0.transform.center = p } }),
        cardElement: Access(
            read: { .point($0.transform.center) },
            write: { element, value in
                guard case .point(let p) = value else { return }
                element.editTransform {
                    $0.offset = Point(x: p.x - Card.canvasSize.width / 2, y: p.y - Card.canvasSize.height / 2)
                }
            }))

    /// The frame's width and height.
    public static let size = ElementProperty(
        key: "size", label: "size", help: "Frame size WxH in canvas units.", type: .size(0...DrawingLimits.maxCoordinate),
        section: "frame",
        graphic: Access(read: { .size($0.transform.size) }, write: { if case .size(let s) = $1 { $0.transform.size = s } }),
        cardElement: Access(
            read: { .size($0.transform.size) },
            write: { element, value in if case .size(let s) = value { element.editTransform { $0.size = s } } }))

    /// The clockwise rotation in degrees.
    public static let rotation = ElementProperty(
        key: "rotation", label: "rotation", help: "Rotation in degrees, clockwise (negative: anticlockwise).",
        type: .number(-DrawingLimits.maxRotationDegrees...DrawingLimits.maxRotationDegrees), section: "frame", usual: .number(0),
        graphic: Access(
            read: { .number($0.transform.rotationDegrees) },
            write: { if case .number(let r) = $1 { $0.transform.rotationDegrees = r } }),
        cardElement: Access(
            read: { .number($0.transform.rotationDegrees) },
            write: { element, value in if case .number(let r) = value { element.editTransform { $0.rotationDegrees = r } } }))

    // MARK: Style

    /// The fill colour, and a text's colour.
    public static let fill = ElementProperty(
        key: "fill", aliases: ["color"], label: "fill",
        help: "Fill colour (a text's colour): #RRGGBB[AA], a CSS name, r,g,b[,a] (0-1), an app palette name, or none.",
        type: .color(allowsNone: true), section: "style",
        graphic: Access(
            applies: { !$0.isLine && !$0.isImage && !$0.isGroup }, read: { $0.fill.map { .color($0) } },
            write: { if case .color(let c) = $1 { $0.fill = c } }),
        cardElement: Access(
            applies: { $0.isText }, read: { $0.text.map { .color($0.textColor) } },
            write: { element, value throws(EditError) in
                guard case .color(let color) = value else { return }
                guard let color else { throw EditError("a card's text needs a colour; it cannot be none", property: "fill") }
                element.editText { $0.textColor = color }
            }))

    /// The stroke colour; none removes the stroke.
    public static let stroke = ElementProperty(
        key: "stroke", label: "stroke", help: "Stroke colour, or none to remove the stroke.", type: .color(allowsNone: true),
        section: "style",
        graphic: Access(
            applies: \.isStrokable, read: { $0.stroke.map { .color($0.color) } },
            write: { graphic, value in
                guard case .color(let color) = value else { return }
                if let color { graphic.editStroke { $0.color = color } } else { graphic.stroke = nil }
            }),
        cardNote: "the Cards app stores no strokes")

    /// The stroke's width.
    public static let strokeWidth = ElementProperty(
        key: "strokeWidth", label: "stroke width", help: "Stroke width in canvas units (strokes in black if unstroked).",
        type: .number(0...DrawingLimits.maxStrokeWidth), section: "style",
        graphic: Access(
            applies: \.isStrokable, read: { $0.stroke.map { .number($0.width) } },
            write: { graphic, value in if case .number(let w) = value { graphic.editStroke { $0.width = w } } }),
        cardNote: "the Cards app stores no strokes")

    /// The stroke's dash pattern.
    public static let dash = ElementProperty(
        key: "dash", label: "dash pattern", help: "Dash pattern: on,off[,on,off...] lengths, or none.",
        type: .lengths(0...DrawingLimits.maxStrokeWidth, maxCount: DrawingLimits.maxDashCount), section: "style",
        usual: .lengths([]),
        graphic: Access(
            applies: \.isStrokable, read: { $0.stroke.map { .lengths($0.dash) } },
            write: { graphic, value in if case .lengths(let d) = value { graphic.editStroke { $0.dash = d } } }),
        cardNote: "the Cards app stores no strokes")

    /// The shape of the stroke's open ends.
    public static let cap = ElementProperty(
        key: "cap", label: "line cap", help: "Line cap: butt, round or square.",
        type: .choice(Stroke.Cap.allCases.map(\.rawValue)), section: "style", usual: .choice("butt"),
        graphic: Access(
            applies: \.isStrokable, read: { $0.stroke.map { .choice($0.cap.rawValue) } },
            write: { graphic, value in
                if case .choice(let n) = value, let cap = Stroke.Cap(rawValue: n) { graphic.editStroke { $0.cap = cap } }
            }),
        cardNote: "the Cards app stores no strokes")

    /// The shape of the stroke's corners.
    public static let join = ElementProperty(
        key: "join", label: "line join", help: "Line join: miter, round or bevel.",
        type: .choice(Stroke.Join.allCases.map(\.rawValue)), section: "style", usual: .choice("miter"),
        graphic: Access(
            applies: \.isStrokable, read: { $0.stroke.map { .choice($0.join.rawValue) } },
            write: { graphic, value in
                if case .choice(let n) = value, let join = Stroke.Join(rawValue: n) { graphic.editStroke { $0.join = join } }
            }),
        cardNote: "the Cards app stores no strokes")

    /// How opaque the whole graphic is.
    public static let opacity = ElementProperty(
        key: "opacity", label: "opacity", help: "Opacity from 0 (invisible) to 1.", type: .number(0...1), section: "style",
        usual: .number(1),
        graphic: Access(read: { .number($0.opacity) }, write: { if case .number(let o) = $1 { $0.opacity = o } }),
        cardNote: "the Cards app stores no opacity")

    /// The clip frame.
    public static let clip = ElementProperty(
        key: "clip", label: "clip", help: "Clip shape: \(ShapeNames.clipNames.joined(separator: ", ")), or none.",
        type: .clip, section: "clip",
        graphic: Access(read: { $0.clip.map { .clip($0) } }, write: { if case .clip(let c) = $1 { $0.clip = c } }),
        cardElement: Access(
            applies: { !$0.isText }, read: { $0.image?.clip.map { .clip($0) } },
            write: { element, value in if case .clip(let c) = value { element.editImage { $0.clip = c } } }))

    // MARK: Text

    /// A text's string.
    public static let text = ElementProperty(
        key: "text", label: "text", help: "Replace a text's string.", type: .text, section: "text",
        graphic: Access(
            applies: \.isText, read: { $0.textContent.map { .text($0.string) } },
            write: { graphic, value in if case .text(let s) = value { graphic.editText { $0.string = s } } }),
        cardElement: Access(
            applies: { $0.isText }, read: { $0.text.map { .text($0.text) } },
            write: { element, value in if case .text(let s) = value { element.editText { $0.text = s } } }))

    /// The fonts the Cards app's picker offers, which the inspector suggests.
    public static let appFonts = [
        "San Fransisco", "Gill Sans", "AmericanTypewriter", "Avenir-Heavy", "Avenir-Book", "Baskerville-Italic",
        "ChalkboardSE-Regular", "Chalkduster", "Cochin-BoldItalic", "Copperplate", "GillSans-UltraBold", "MarkerFelt-Wide",
        "Noteworthy-Bold", "Verdana-Bold", "Papyrus", "PartyLetPlain", "SavoyeLetPlain", "SnellRoundhand-Black",
    ]

    /// A text's font name.
    public static let font = ElementProperty(
        key: "font", label: "font",
        help:
            "Font name (an Apple name such as \"Gill Sans\", or an installed family); a new card text gets \"Gill Sans\", as the app gives it.",
        type: .text, section: "text", suggestions: appFonts,
        graphic: Access(
            applies: \.isText, read: { $0.textContent.map { .text($0.fontFamily) } },
            write: { graphic, value in if case .text(let s) = value { graphic.editText { $0.fontFamily = s } } }),
        cardElement: Access(
            applies: { $0.isText }, read: { $0.text.map { .text($0.textFont) } },
            write: { element, value in if case .text(let s) = value { element.editText { $0.textFont = s } } }))

    /// Why a card's text takes no size or alignment.
    static let cardTextSizeNote =
        "the app draws a card's text centred at 200 units, shrunk to fit its frame; change the frame with --size"

    /// A drawing text's size.
    public static let fontSize = ElementProperty(
        key: "fontSize", label: "font size", help: "Font size in canvas units (drawings; a card's text size follows its frame).",
        type: .number(0...DrawingLimits.maxFontSize), section: "text",
        graphic: Access(
            applies: \.isText, read: { $0.textContent.map { .number($0.fontSize) } },
            write: { graphic, value in if case .number(let n) = value { graphic.editText { $0.fontSize = n } } }),
        cardNote: cardTextSizeNote)

    /// A drawing text's place in its frame.
    public static let align = ElementProperty(
        key: "align", label: "alignment", help: "Text alignment: left, center or right.",
        type: .choice(TextContent.Alignment.allCases.map(\.rawValue)), section: "text", usual: .choice("center"),
        graphic: Access(
            applies: \.isText, read: { $0.textContent.map { .choice($0.alignment.rawValue) } },
            write: { graphic, value in
                if case .choice(let n) = value, let a = TextContent.Alignment(rawValue: n) {
                    graphic.editText { $0.alignment = a }
                }
            }),
        cardNote: cardTextSizeNote)

    // MARK: Shape

    /// A rounded rectangle's corner radius.
    public static let cornerRadius = ElementProperty(
        key: "cornerRadius", label: "corner radius", help: "Rounded rectangle corner radius.",
        type: .number(0...DrawingLimits.maxStrokeWidth), section: "shape",
        graphic: Access(
            applies: { if case .roundedRectangle = $0.kind { true } else { false } },
            read: { if case .roundedRectangle(let r) = $0.kind { .number(r) } else { nil } },
            write: { if case .number(let r) = $1 { $0.kind = .roundedRectangle(cornerRadius: r) } }))

    /// A polygon's number of sides.
    public static let sides = ElementProperty(
        key: "sides", label: "sides", help: "Polygon sides.", type: .integer(3...DrawingLimits.maxPolygonSides),
        section: "shape",
        graphic: Access(
            applies: { if case .polygon = $0.kind { true } else { false } },
            read: { if case .polygon(let n) = $0.kind { .integer(n) } else { nil } },
            write: { if case .integer(let n) = $1 { $0.kind = .polygon(sides: n) } }))

    /// A star's number of points.
    public static let points = ElementProperty(
        key: "points", label: "points", help: "Star points.", type: .integer(2...DrawingLimits.maxPolygonSides),
        section: "shape",
        graphic: Access(
            applies: { if case .star = $0.kind { true } else { false } },
            read: { if case .star(let n, _) = $0.kind { .integer(n) } else { nil } },
            write: {
                if case .integer(let n) = $1, case .star(_, let r) = $0.kind { $0.kind = .star(points: n, innerRadiusRatio: r) }
            }))

    /// A star's inner radius, as a fraction of its outer one.
    public static let innerRatio = ElementProperty(
        key: "innerRatio", label: "inner ratio", help: "Star inner radius, as a fraction of the outer.", type: .number(0...1),
        section: "shape",
        graphic: Access(
            applies: { if case .star = $0.kind { true } else { false } },
            read: { if case .star(_, let r) = $0.kind { .number(r) } else { nil } },
            write: {
                if case .number(let r) = $1, case .star(let n, _) = $0.kind { $0.kind = .star(points: n, innerRadiusRatio: r) }
            }))

    /// A line's start, on the canvas.
    public static let from = ElementProperty(
        key: "from", label: "line's start", help: "Line start X,Y in canvas coordinates.", type: .point(coordinates),
        section: "shape",
        graphic: Access(
            applies: \.isLine, read: { $0.lineEnds.map { .point($0.from) } },
            write: { graphic, value in
                if case .point(let p) = value, let ends = graphic.lineEnds { graphic.placeLine(from: p, to: ends.to) }
            }))

    /// A line's end, on the canvas.
    public static let to = ElementProperty(
        key: "to", label: "line's end", help: "Line end X,Y in canvas coordinates.", type: .point(coordinates),
        section: "shape",
        graphic: Access(
            applies: \.isLine, read: { $0.lineEnds.map { .point($0.to) } },
            write: { graphic, value in
                if case .point(let p) = value, let ends = graphic.lineEnds { graphic.placeLine(from: ends.from, to: p) }
            }))

    /// A line's arrowheads.
    public static let arrowheads = ElementProperty(
        key: "arrowheads", label: "arrowheads", help: "Arrowheads on a line's ends: none, start, end or both.",
        type: .choice(Stroke.Arrowheads.allCases.map(\.rawValue)), section: "shape", usual: .choice("none"),
        graphic: Access(
            applies: \.isLine, read: { $0.stroke.map { .choice($0.arrowheads.rawValue) } ?? .choice("none") },
            write: { graphic, value in
                if case .choice(let n) = value, let ends = Stroke.Arrowheads(rawValue: n) {
                    graphic.editStroke { $0.arrowheads = ends }
                }
            }))

    /// A path's outline, in the unit square of its frame.
    public static let outline = ElementProperty(
        key: "path", label: "outline",
        help: "A path's outline: M/L/Q/C/Z commands in the unit square of its frame (0,0 top-left, 1,1 bottom-right).",
        type: .text, section: "shape",
        graphic: Access(
            applies: { if case .path = $0.kind { true } else { false } },
            read: { if case .path(let outline) = $0.kind { .text(outline.description) } else { nil } },
            write: { graphic, value throws(EditError) in
                guard case .text(let commands) = value else { return }
                guard let outline = Path(parsing: commands) else {
                    throw EditError(
                        "the outline \"\(commands.prefix(80))\" is not M/L/Q/C/Z commands starting with M, such as \"M 0 1 L 0.5 0 L 1 1 Z\"",
                        isInvalidRequest: true, property: "path")
                }
                graphic.kind = .path(outline)
            }))

    // MARK: Shadow

    /// The drop shadow's colour; none removes the shadow.
    public static let shadowColor = ElementProperty(
        key: "shadowColor", label: "shadow colour", help: "Drop shadow colour (its alpha is its darkness), or none.",
        type: .color(allowsNone: true), section: "shadow",
        graphic: Access(
            read: { $0.shadow.map { .color($0.color) } },
            write: { graphic, value in
                guard case .color(let color) = value else { return }
                if let color { graphic.editShadow { $0.color = color } } else { graphic.shadow = nil }
            }),
        cardNote: "the Cards app stores no shadows")

    /// How far the drop shadow falls.
    public static let shadowOffset = ElementProperty(
        key: "shadowOffset", label: "shadow offset", help: "Drop shadow offset DX,DY in canvas units (right and down).",
        type: .point(coordinates), section: "shadow",
        graphic: Access(
            read: { $0.shadow.map { .point($0.offset) } },
            write: { graphic, value in if case .point(let p) = value { graphic.editShadow { $0.offset = p } } }),
        cardNote: "the Cards app stores no shadows")

    /// How soft the drop shadow is.
    public static let shadowBlur = ElementProperty(
        key: "shadowBlur", label: "shadow blur", help: "Drop shadow blur radius in canvas units (0: a sharp shadow).",
        type: .number(0...DrawingLimits.maxShadowBlur), section: "shadow",
        graphic: Access(
            read: { $0.shadow.map { .number($0.blur) } },
            write: { graphic, value in if case .number(let b) = value { graphic.editShadow { $0.blur = b } } }),
        cardNote: "the Cards app stores no shadows")

    // MARK: Label

    /// A drawing graphic's label.
    public static let name = ElementProperty(
        key: "name", label: "name", help: "A label for the graphic (drawings); empty removes it.", type: .text, section: "label",
        graphic: Access(
            read: { $0.name.map(PropertyValue.text) }, write: { if case .text(let s) = $1 { $0.name = s.isEmpty ? nil : s } }),
        cardNote: "the Cards app stores no names")

    static let coordinates = -DrawingLimits.maxCoordinate...DrawingLimits.maxCoordinate
}
