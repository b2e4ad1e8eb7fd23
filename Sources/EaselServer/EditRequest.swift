import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselRender
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
/// Several elements at once (the editor's multiple selection): `remove` and `order` take
/// `indices` in place of `index`; `{"verb": "align", "indices": [0, 2], "edge": "left"}`
/// (left, center, right, top, middle, bottom; one element aligns with the canvas) and
/// `{"verb": "distribute", "indices": [0, 1, 2], "axis": "horizontal"}`.
/// A single operation may also be sent on its own, without `operations`. Property names are
/// the CLI's options in camelCase; unknown names are refused, with the key path.
struct EditRequest {
    enum Operation {
        case add(ElementRequest)
        case set(index: Int, changes: ElementChanges)
        case move(index: Int, by: Point)
        case remove(indices: [Int])
        case order(indices: [Int], direction: OrderDirection)
        case align(indices: [Int], edge: AlignEdge)
        case distribute(indices: [Int], axis: DistributeAxis)
        case background(Color?)

        /// The characters (code points) of the texts the operation adds or sets.
        var textCharacters: Int {
            switch self {
            case .add(let element):
                return element.kind.lowercased() == "text" ? element.value?.unicodeScalars.count ?? 0 : 0
            case .set(_, let changes):
                if case .text(let text) = changes[.text] { return text.unicodeScalars.count }
                return 0
            default: return 0
            }
        }

        var verb: String {
            switch self {
            case .add: return "add"
            case .set: return "set"
            case .move: return "move"
            case .remove: return "remove"
            case .order: return "order"
            case .align: return "align"
            case .distribute: return "distribute"
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
    /// At most this many images or stickers added in one request: each is decoded and, on a
    /// card, stored as a file of its own (a paste of several photo elements, say; the editor
    /// uploads photos one request each).
    static let maxImagesAdded = 32
    /// At most this many characters of text (code points) in one request: what Easel draws
    /// of a whole document (`RenderBudgets`). Each text added is laid out to size its frame;
    /// a 10 MB request of a thousand long texts kept the server's file workers for a minute.
    static let maxTextCharacters = RenderBudgets.maxTextCodePointsPerDocument

    /// The element properties add and set take: every key of the property table.
    static let styleKeys = Set(ElementProperty.all.flatMap(\.keys))

    /// Reads a request body; `images` resolves an `add image` value (a path relative to the
    /// served folder) to a file, or nil when it is not one.
    static func parse(_ bytes: [UInt8], images: (String) -> URL?) throws(DocumentError) -> EditRequest {
        let root = try JSONNode.parse(bytes, file: "request body", limits: JSONLimits(maxDepth: 16, maxStringBytes: 1 << 20))
        let nodes: [JSONNode]
        let list = try root.optional("operations")
        if let list {
            let extra = try root.members().map(\.key).filter { $0 != "operations" }
            if let key = extra.first { throw root.error(.invalidValue("unknown key \(key.quotedForMessage) beside operations")) }
            nodes = try list.array(maxCount: maxOperations, of: "operations")
        } else {
            nodes = [root]
        }
        guard !nodes.isEmpty else { throw root.error(.invalidValue("no operations")) }
        var operations: [Operation] = []
        var imagesAdded = 0
        var characters = 0
        for node in nodes {
            let operation = try operation(node, images: images)
            characters += operation.textCharacters
            guard characters <= maxTextCharacters else {
                throw node.invalid(
                    "one request carries at most \(maxTextCharacters) characters of text (what Easel draws of a document); send the rest in another request"
                )
            }
            if case .add(let element) = operation, element.addsImageFile {
                imagesAdded += 1
                guard imagesAdded <= maxImagesAdded else {
                    throw node.invalid(
                        "one request adds at most \(maxImagesAdded) images or stickers; send the rest in another request")
                }
            }
            operations.append(operation)
        }
        return EditRequest(operations: operations, isList: list != nil)
    }

    private static func operation(_ node: JSONNode, images: (String) -> URL?) throws(DocumentError) -> Operation {
        let verb = try node.required("verb").string()
        let allowed: Set<String>
        switch verb {
        case "add":
            allowed = styleKeys.union(["verb", "kind", "value"])
        case "set": allowed = styleKeys.union(["verb", "index"])
        case "move": allowed = ["verb", "index", "by"]
        case "remove": allowed = ["verb", "index", "indices"]
        case "order": allowed = ["verb", "index", "indices", "direction"]
        case "align": allowed = ["verb", "indices", "edge"]
        case "distribute": allowed = ["verb", "indices", "axis"]
        case "background": allowed = ["verb", "color"]
        default:
            throw try node.required("verb").invalid(
                "unknown verb \(verb.quotedForMessage); the verbs are add, set, move, remove, order, align, distribute and background"
            )
        }
        for (key, member) in try node.members() where !allowed.contains(key) {
            throw member.invalid(
                "\(verb) takes no \(key.quotedForMessage); it takes \(allowed.subtracting(["verb"]).sorted().joined(separator: ", "))"
            )
        }
        func index() throws(DocumentError) -> Int {
            let node = try node.required("index")
            let value = try node.int()
            guard value >= 0 else { throw node.invalid("an element index is 0 or more") }
            return value
        }
        /// `indices` (a list of one or more), or `index` alone where the verb takes either.
        func indices(orIndex: Bool) throws(DocumentError) -> [Int] {
            guard let list = try node.optionalNonNull("indices") else {
                guard orIndex else { throw node.error(.missingKey("indices")) }
                return [try index()]
            }
            if orIndex, try node.optional("index") != nil { throw list.invalid("give index or indices, not both") }
            var values: [Int] = []
            for item in try list.array(maxCount: maxOperations, of: "indices") {
                let value = try item.int()
                guard value >= 0 else { throw item.invalid("an element index is 0 or more") }
                values.append(value)
            }
            guard !values.isEmpty else { throw list.invalid("give one element index or more") }
            return values
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(DocumentError) -> T
        where T.RawValue == String {
            let member = try node.required(key)
            guard let value = T(rawValue: try member.string()) else {
                throw member.invalid("the \(key) is \(PropertyType.list(T.allCases.map(\.rawValue)))")
            }
            return value
        }
        switch verb {
        case "add":
            let kind = try node.required("kind").string()
            var value = try node.optionalNonNull("value")?.string()
            // Whatever its spelling, a kind that reads a file reads one inside the folder.
            if ElementRequest.imageSource(ofKind: kind) == .file, let name = value {
                guard let file = images(name) else {
                    throw try node.required("value").invalid(
                        "the image \(name.quotedForMessage) is not a file inside the served folder (give its path relative to the folder)"
                    )
                }
                value = file.path
            }
            let request = ElementRequest(kind: kind, value: value, style: try changes(node), documentName: "the document")
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
            return .remove(indices: try indices(orIndex: true))
        case "order":
            let direction = try choice("direction", OrderDirection.self)
            return .order(indices: try indices(orIndex: true), direction: direction)
        case "align":
            return .align(indices: try indices(orIndex: false), edge: try choice("edge", AlignEdge.self))
        case "distribute":
            return .distribute(indices: try indices(orIndex: false), axis: try choice("axis", DistributeAxis.self))
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
                "\(text.quotedForMessage) is not a colour (#RRGGBB[AA], a CSS name such as tomato, r,g,b[,a] from 0 to 1, random1-8, appColor1-7)"
            )
        }
        return color
    }

    /// The element properties of an add or a set, read and checked by the property table;
    /// an error names the property's key path (`operations[1].strokeWidth`).
    private static func changes(_ node: JSONNode) throws(DocumentError) -> ElementChanges {
        var changes = ElementChanges()
        for (key, member) in try node.members() {
            guard let property = ElementProperty.named(key) else { continue }
            guard changes[property] == nil else {
                throw member.invalid("\(property.keys.joined(separator: " and ")) name the same property; give one")
            }
            let value = try property.type.value(fromJSON: member)
            do {
                try property.check(value)
            } catch {
                throw member.invalid(error.message)
            }
            changes[property] = value
        }
        return changes
    }
}
