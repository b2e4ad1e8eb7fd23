import FoundationEssentials

/// Writes `JSONValue`s as pretty-printed UTF-8 JSON in the style of Foundation's
/// `JSONEncoder` with `.prettyPrinted` (two-space indent, `"key" : value`), which is what
/// the Cards app writes. Key order is the order of the object's members.
package enum JSONWriter {
    package static func prettyPrinted(_ value: JSONValue) -> [UInt8] {
        var out = ""
        write(value, indent: 0, pretty: true, into: &out)
        out += "\n"
        return Array(out.utf8)
    }

    /// The same JSON without layout whitespace.
    package static func compact(_ value: JSONValue) -> [UInt8] {
        var out = ""
        write(value, indent: 0, pretty: false, into: &out)
        return Array(out.utf8)
    }

    /// Pretty-printed, unless that would be larger than `maxBytes` (indentation can grow a
    /// file of many small numbers twofold): then compact, so that a document Easel opens
    /// stays one it can save.
    package static func prettyPrinted(_ value: JSONValue, fittingIn maxBytes: Int) -> [UInt8] {
        let pretty = prettyPrinted(value)
        return pretty.count <= maxBytes ? pretty : compact(value)
    }

    private static func write(_ value: JSONValue, indent: Int, pretty: Bool, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += format(number: n)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += pretty ? "[\n" : "["
            for (i, item) in items.enumerated() {
                if pretty { out += pad(indent + 1) }
                write(item, indent: indent + 1, pretty: pretty, into: &out)
                out += i < items.count - 1 ? (pretty ? ",\n" : ",") : (pretty ? "\n" : "")
            }
            out += (pretty ? pad(indent) : "") + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += pretty ? "{\n" : "{"
            for (i, member) in members.enumerated() {
                if pretty { out += pad(indent + 1) }
                writeString(member.key, into: &out)
                out += pretty ? " : " : ":"
                write(member.value, indent: indent + 1, pretty: pretty, into: &out)
                out += i < members.count - 1 ? (pretty ? ",\n" : ",") : (pretty ? "\n" : "")
            }
            out += (pretty ? pad(indent) : "") + "}"
        }
    }

    private static func pad(_ level: Int) -> String { String(repeating: "  ", count: level) }

    /// Integral values print without a fraction (`250`), others with the shortest
    /// representation that reads back to the same double (`-6.0000000000000009`).
    package static func format(number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 {
            return number == 0 ? "0" : String(Int64(number))
        }
        return "\(number)"
    }

    private static func writeString(_ string: String, into out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/": out += "\\/"  // as Foundation's encoder does
            default:
                if scalar.value < 0x20 {
                    out += String(printf: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
