/// A parsed JSON text laid out flat: every value is one entry, in the order the text has
/// them, a container's entry first and then its contents (an object's as key, value, key,
/// value...), and every string (keys too) once in `strings`.
///
/// A tree of `JSONValue`s costs an allocation for every object and array, and as much again
/// to free; a 1,000-shape drawing has 8,000 of them, about 1.7 MB of nodes. The tape is two
/// arrays whatever the text (41,000 entries and 17,000 strings, 0.9 MB, for that drawing),
/// so parsing allocates twice, and dropping it frees two blocks. `JSONNode` reads documents
/// through it; `value(at:)` gives a `JSONValue` back where a tree is wanted.
package final class JSONTape: Sendable {
    /// One value of the text.
    package struct Entry: Sendable {
        /// What the value is.
        package enum Kind: UInt8, Sendable {
            case null, bool, number, string, array, object
        }

        /// A number's bits; a string's index in `strings`; for `true` 1 (`false` 0); for an
        /// array or object, the index of the first entry after its contents.
        var payload: UInt64
        /// An array's items or an object's members.
        var count: UInt32
        package var kind: Kind
    }

    /// The values, in the order of the text.
    let entries: [Entry]
    /// The strings and keys the entries point to.
    let strings: [String]
    /// The file the text was read from, as errors name it (kept here once, not in every
    /// `JSONNode`: a node is made for each value a decoder reads).
    package let file: String

    init(entries: [Entry], strings: [String], file: String) {
        self.entries = entries
        self.strings = strings
        self.file = file
    }

    /// A tape holding `value` (a document made or changed in memory), from `file`.
    package convenience init(_ value: JSONValue, file: String) {
        var entries: [Entry] = []
        var strings: [String] = []
        Self.append(value, to: &entries, strings: &strings)
        self.init(entries: entries, strings: strings, file: file)
    }

    private static func append(_ value: JSONValue, to entries: inout [Entry], strings: inout [String]) {
        switch value {
        case .null: entries.append(Entry(payload: 0, count: 0, kind: .null))
        case .bool(let bool): entries.append(Entry(payload: bool ? 1 : 0, count: 0, kind: .bool))
        case .number(let number): entries.append(Entry(payload: number.bitPattern, count: 0, kind: .number))
        case .string(let string):
            strings.append(string)
            entries.append(Entry(payload: UInt64(strings.count - 1), count: 0, kind: .string))
        case .array(let items):
            let start = entries.count
            entries.append(Entry(payload: 0, count: UInt32(items.count), kind: .array))
            for item in items { append(item, to: &entries, strings: &strings) }
            entries[start].payload = UInt64(entries.count)
        case .object(let members):
            let start = entries.count
            entries.append(Entry(payload: 0, count: UInt32(members.count), kind: .object))
            for member in members {
                append(.string(member.key), to: &entries, strings: &strings)
                append(member.value, to: &entries, strings: &strings)
            }
            entries[start].payload = UInt64(entries.count)
        }
    }

    // MARK: Reading entries

    /// The index of the first entry after the value at `index` (and its contents).
    func end(of index: Int) -> Int {
        let entry = entries[index]
        return entry.kind == .array || entry.kind == .object ? Int(entry.payload) : index + 1
    }

    /// The number at `index` (which must be one).
    func number(at index: Int) -> Double { Double(bitPattern: entries[index].payload) }

    /// The string at `index` (which must be one).
    func string(at index: Int) -> String { strings[Int(entries[index].payload)] }

    /// The value at `index` as a tree.
    package func value(at index: Int) -> JSONValue {
        let entry = entries[index]
        switch entry.kind {
        case .null: return .null
        case .bool: return .bool(entry.payload != 0)
        case .number: return .number(number(at: index))
        case .string: return .string(string(at: index))
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(Int(entry.count))
            var item = index + 1
            for _ in 0..<entry.count {
                items.append(value(at: item))
                item = end(of: item)
            }
            return .array(items)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(Int(entry.count))
            var key = index + 1
            for _ in 0..<entry.count {
                members.append((string(at: key), value(at: key + 1)))
                key = end(of: key + 1)
            }
            return .object(members)
        }
    }

    /// How the value at `index` is described in error messages, as `JSONValue.summary`
    /// describes it.
    func summary(at index: Int) -> String {
        let entry = entries[index]
        switch entry.kind {
        case .array: return "an array of \(entry.count) item\(entry.count == 1 ? "" : "s")"
        case .object: return "an object"
        default: return value(at: index).summary
        }
    }
}
