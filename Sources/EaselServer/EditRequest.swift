import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselSupport
import Foundation

/// The body of `POST /api/documents/{path}/edits`: the CLI's editing verbs as JSON, applied
/// together as one undo step (a gesture in the browser editor is one request).
///
/// ```json
/// {"operations": [
///   {"verb": "move", "index": 0, "by": [20, -10]},
///   {"verb": "set", "index": 1, "fill": "tomato", "rotation": 15, "clip": "heart"},
///   {"verb": "add", "kind": "star", "at": [400, 300], "size": [200, 200], "fill": "gold"},
///   {"verb": "remove", "index": 2},
///   {"verb": "order", "index": 0, "direction": "front"},
///   {"verb": "background", "color": "white"}
/// ]}
/// ```
/// A single operation may also be sent on its own, without `operations`. Property names are
/// the CLI's options in camelCase; unknown names are refused, with the key path.
struct EditRequest {
    enum Operation {
        case add(ElementRequest)
        case set(index: Int, changes: ElementChanges)
        case move(index: Int, by: Point)
        case remove(index: Int)
        case order(index: Int, direction: OrderDirection)
        case background(Color?)

        var verb: String {
            switch self {
            case .add: return "add"
            case .set: return "set"
            case .move: return "move"
            case .remove: return "remove"
            case .order: return "order"
            case .background: return "background"
            }
        }
    }

    var operations: [Operation]
    /// Whether the operations came as an `operations` list (their errors then name their
    /// place in it, `operations[2]`), not one operation as the whole body.
    var isList = false

    /// At most this many operations in one request.
    static let maxOperations = 1000

    static let styleKeys: Set<String> = [
        "at", "size", "rotation", "fill", "color", "stroke", "strokeWidth", "dash", "cap", "join", "opacity", "clip", "text",
        "font", "fontSize", "align", "name",
    ]

    /// Reads a request body; `images` resolves an `add image` value (a path relative to the
    /// served folder) to a file, or nil when it is not one.
    static func parse(_ bytes: [UInt8], images: (String) -> URL?) throws(DocumentError) -> EditRequest {
        let root = try JSONNode.parse(bytes, file: "request body", limits: JSONLimits(maxDepth: 16, maxStringBytes: 1 << 20))
        let nodes: [JSONNode]
        let list = try root.optional("operations")
        if let list {
            let extra = try root.members().map(\.key).filter { $0 != "operations" }
            if let key = extra.first { throw root.error(.invalidValue("unknown key \"\(key)\" beside operations")) }
            nodes = try list.array(maxCount: maxOperations, of: "operations")
        } else {
            nodes = [root]
        }
        guard !nodes.isEmpty else { throw root.error(.invalidValue("no operations")) }
        var operations: [Operation] = []
        for node in nodes { operations.append(try operation(node, images: images)) }
        return EditRequest(operations: operations, isList: list != nil)
    }

    private static func operation(_ node: JSONNode, images: (String) -> URL?) throws(DocumentError) -> Operation {
        let verb = try node.required("verb").string()
        let allowed: Set<String>
        switch verb {
        case "add":
            allowed = styleKeys.union(["verb", "kind", "value", "sides", "points", "innerRatio", "cornerRadius", "from", "to"])
        case "set": allowed = styleKeys.union(["verb", "index"])
        case "move": allowed = ["verb", "index", "by"]
        case "remove": allowed = ["verb", "index"]
        case "order": allowed = ["verb", "index", "direction"]
        case "background": allowed = ["verb", "color"]
        default:
            throw try node.required("verb").invalid(
                "unknown verb \"\(verb)\"; the verbs are add, set, move, remove, order and background")
        }
        for (key, member) in try node.members() where !allowed.contains(key) {
            throw member.invalid(
                "\(verb) takes no \"\(key)\"; it takes \(allowed.subtracting(["verb"]).sorted().joined(separator: ", "))")
        }
        func index() throws(DocumentError) -> Int {
            let node = try node.required("index")
            let value = try node.int()
            guard value >= 0 else { throw node.invalid("an element index is 0 or more") }
            return value
        }
        switch verb {
        case "add":
            let kind = try node.required("kind").string()
            var value = try node.optionalNonNull("value")?.string()
            if kind.lowercased() == "image", let name = value {
                guard let file = images(name) else {
                    throw try node.required("value").invalid(
                        "the image \"\(name)\" is not a file inside the served folder (give its path relative to the folder)")
                }
                value = file.path
            }
            var request = ElementRequest(kind: kind, value: value, style: try changes(node), documentName: "the document")
            if let sides = try node.optional("sides") { request.sides = try sides.int() }
            if let points = try node.optional("points") { request.points = try points.int() }
            if let ratio = try node.optional("innerRatio") {
                request.innerRatio = try ratio.double(in: 0...1, meaning: "innerRatio")
            }
            if let radius = try node.optional("cornerRadius") {
                request.cornerRadius = try radius.double(in: 0...DrawingLimits.maxCoordinate, meaning: "cornerRadius")
            }
            request.from = try point(node, "from")
            request.to = try point(node, "to")
            guard (3...DrawingLimits.maxPolygonSides).contains(request.sides),
                (2...DrawingLimits.maxPolygonSides).contains(request.points)
            else {
                throw node.invalid("sides must be from 3 and points from 2, both to \(DrawingLimits.maxPolygonSides)")
            }
            return .add(request)
        case "set":
            let changes = try changes(node)
            guard !changes.isEmpty else {
                throw node.invalid("nothing to change: give at least one property, such as fill or at")
            }
            return .set(index: try index(), changes: changes)
        case "move":
            guard let by = try point(node, "by") else { throw node.error(.missingKey("by")) }
            return .move(index: try index(), by: by)
        case "remove":
            return .remove(index: try index())
        case "order":
            let direction = try node.required("direction")
            guard let value = OrderDirection(rawValue: try direction.string()) else {
                throw direction.invalid("the direction is front, back, forward or backward")
            }
            return .order(index: try index(), direction: value)
        default:
            let color = try node.required("color")
            let text = try color.string()
            if text.lowercased() == "none" { return .background(nil) }
            return .background(try parseColor(color))
        }
    }

    private static func point(_ node: JSONNode, _ key: String) throws(DocumentError) -> Point? {
        guard let value = try node.optionalNonNull(key) else { return nil }
        let numbers = try value.numbers(count: 2, meaning: "x, y")
        return Point(x: numbers[0], y: numbers[1])
    }

    private static func parseColor(_ node: JSONNode) throws(DocumentError) -> Color {
        let text = try node.string()
        guard let color = try? Color(parsing: text) else {
            throw node.invalid(
                "\"\(text)\" is not a colour (#RRGGBB[AA], a CSS name such as tomato, r,g,b[,a] from 0 to 1, random1-8, appColor1-7)"
            )
        }
        return color
    }

    /// The style and frame properties shared by add and set.
    private static func changes(_ node: JSONNode) throws(DocumentError) -> ElementChanges {
        var changes = ElementChanges()
        if let at = try point(node, "at") { changes.center = at }
        if let size = try node.optionalNonNull("size") {
            let numbers = try size.numbers(count: 2, meaning: "width, height")
            changes.size = Size(width: numbers[0], height: numbers[1])
        }
        if let rotation = try node.optionalNonNull("rotation") { changes.rotationDegrees = try rotation.double() }
        for key in ["fill", "color"] {
            guard let fill = try node.optional(key) else { continue }
            changes.fill = .some(fill.isNull || (try? fill.string().lowercased()) == "none" ? nil : try parseColor(fill))
        }
        if let stroke = try node.optional("stroke") {
            if stroke.isNull || (try? stroke.string().lowercased()) == "none" {
                changes.removeStroke = true
            } else {
                changes.strokeColor = try parseColor(stroke)
            }
        }
        if let width = try node.optionalNonNull("strokeWidth") { changes.strokeWidth = try width.double() }
        if let dash = try node.optional("dash") {
            changes.dash =
                dash.isNull
                ? [] : try dash.array(maxCount: 64, of: "dash lengths").map { node throws(DocumentError) in try node.double() }
        }
        if let cap = try node.optionalNonNull("cap") {
            guard let value = Stroke.Cap(rawValue: try cap.string()) else {
                throw cap.invalid("the cap is butt, round or square")
            }
            changes.cap = value
        }
        if let join = try node.optionalNonNull("join") {
            guard let value = Stroke.Join(rawValue: try join.string()) else {
                throw join.invalid("the join is miter, round or bevel")
            }
            changes.join = value
        }
        if let opacity = try node.optionalNonNull("opacity") {
            changes.opacity = try opacity.double(in: 0...1, meaning: "the opacity")
        }
        if let clip = try node.optional("clip") {
            if clip.isNull || (try? clip.string().lowercased()) == "none" {
                changes.clip = .some(nil)
            } else {
                // By the names the CLI and `easel info` use, old spellings included (`ShapeNames`).
                let name = try clip.string()
                guard let shape = ShapeNames.libraryShape(named: name) else {
                    throw clip.invalid("the clip is one of \(ShapeNames.clipNames.joined(separator: ", ")), or none")
                }
                changes.clip = .some(.library(shape))
            }
        }
        if let text = try node.optionalNonNull("text") { changes.text = try text.string() }
        if let font = try node.optionalNonNull("font") { changes.font = try font.string() }
        if let size = try node.optionalNonNull("fontSize") { changes.fontSize = try size.double() }
        if let align = try node.optionalNonNull("align") {
            guard let value = TextContent.Alignment(rawValue: try align.string()) else {
                throw align.invalid("the alignment is left, center or right")
            }
            changes.alignment = value
        }
        if let name = try node.optionalNonNull("name") { changes.name = try name.string() }
        do {
            try changes.validate()
        } catch {
            // Blamed on the property at fault where there is one (`size`, `rotation`...).
            let keys = error.property == "fill" ? ["fill", "color"] : error.property.map { [$0] } ?? []
            let culprit = keys.lazy.compactMap { key in try? node.optional(key) }.first ?? node
            throw culprit.invalid(error.message)
        }
        return changes
    }
}
