import EaselSupport
import EaselGeometry

/// Writes drawing JSON in the current format version (docs/drawing-format.md): colours as
/// `[r, g, b, a]`, optional properties left out when unset.
public enum DrawingEncoder {
    /// The drawing as pretty-printed JSON in the current format version; never fails.
    public static func encode(_ drawing: Drawing) -> [UInt8] {
        var canvas: [(key: String, value: JSONValue)] = [("size", pair(drawing.canvasSize.width, drawing.canvasSize.height))]
        if let background = drawing.background { canvas.append(("background", color(background))) }
        let root: JSONValue = .object([
            ("format", .string(Drawing.formatIdentifier)),
            ("version", .number(Double(Drawing.currentVersion))),
            ("canvas", .object(canvas)),
            ("graphics", .array(drawing.graphics.map(graphic))),
        ])
        return JSONWriter.prettyPrinted(root, fittingIn: DrawingLimits.maxFileBytes)
    }

    static func graphic(_ graphic: Graphic) -> JSONValue {
        var kind = graphic.kind
        if case .libraryShape(let shape) = kind { kind = .shape(shape) }
        var members: [(key: String, value: JSONValue)] = [("kind", .string(kind.name))]
        if let name = graphic.name { members.append(("name", .string(name))) }
        switch kind {
        case .rectangle, .ellipse, .libraryShape: break
        case .roundedRectangle(let radius): members.append(("cornerRadius", .number(radius)))
        case .polygon(let sides): members.append(("sides", .number(Double(sides))))
        case .star(let points, let ratio):
            members.append(("points", .number(Double(points))))
            members.append(("innerRadiusRatio", .number(ratio)))
        case .line(let from, let to):
            members.append(("from", pair(from.x, from.y)))
            members.append(("to", pair(to.x, to.y)))
        case .path(let path): members.append(("elements", elements(path)))
        case .text(let text):
            members.append(("text", .string(text.string)))
            members.append(("font", .string(text.fontFamily)))
            members.append(("fontSize", .number(text.fontSize)))
            members.append(("alignment", .string(text.alignment.rawValue)))
        case .image(let file): members.append(("file", .string(file)))
        case .group(let children): members.append(("children", .array(children.map(Self.graphic))))
        }
        let t = graphic.transform
        members.append(
            (
                "transform",
                .object([
                    ("center", pair(t.center.x, t.center.y)),
                    ("size", pair(t.size.width, t.size.height)),
                    ("rotation", .number(t.rotationDegrees)),
                ])
            ))
        if let fill = graphic.fill { members.append(("fill", color(fill))) }
        if let stroke = graphic.stroke {
            var style: [(String, JSONValue)] = [
                ("color", color(stroke.color)),
                ("width", .number(stroke.width)),
                ("dash", .array(stroke.dash.map(JSONValue.number))),
                ("cap", .string(stroke.cap.rawValue)),
                ("join", .string(stroke.join.rawValue)),
            ]
            // Written only when there are some: a file without arrows reads as it always did.
            if stroke.arrowheads != .none { style.append(("arrowheads", .string(stroke.arrowheads.rawValue))) }
            members.append(("stroke", .object(style)))
        }
        members.append(("opacity", .number(graphic.opacity)))
        switch graphic.clip {
        case .library(let shape)?: members.append(("clip", .string(shape.name)))
        case .custom(let path)?: members.append(("clip", .object([("path", elements(path))])))
        case nil: break
        }
        if let shadow = graphic.shadow {
            members.append(
                (
                    "shadow",
                    .object([
                        ("color", color(shadow.color)), ("offset", pair(shadow.offset.x, shadow.offset.y)),
                        ("blur", .number(shadow.blur)),
                    ])
                ))
        }
        return .object(members)
    }

    static func elements(_ path: Path) -> JSONValue {
        .array(
            path.elements.map { element -> JSONValue in
                func numbers(_ verb: String, _ points: [Point]) -> JSONValue {
                    .array([.string(verb)] + points.flatMap { [JSONValue.number($0.x), .number($0.y)] })
                }
                switch element {
                case .move(let p): return numbers("move", [p])
                case .line(let p): return numbers("line", [p])
                case .quadCurve(let p, let c): return numbers("quad", [c, p])
                case .curve(let p, let c1, let c2): return numbers("cubic", [c1, c2, p])
                case .closeSubpath: return .array([.string("close")])
                }
            })
    }

    static func pair(_ a: Double, _ b: Double) -> JSONValue { .array([.number(a), .number(b)]) }
    static func color(_ c: Color) -> JSONValue { .array(c.components.map(JSONValue.number)) }
}
