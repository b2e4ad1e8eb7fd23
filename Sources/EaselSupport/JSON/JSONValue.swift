/// A parsed JSON value. Objects keep their keys in file order (and never hold a key twice:
/// the parser refuses duplicates, because which copy wins differs between readers). Not
/// `indirect`: arrays already hold their items out of line, and boxing every number cost an
/// allocation per number read.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// How the value is described in error messages: its kind, and a short excerpt.
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number(let n): return "the number \(JSONWriter.format(number: n))"
        case .string(let s):
            let excerpt = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "the string \"\(excerpt)\""
        case .array(let items): return "an array of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }
}
