import FoundationEssentials

/// How the command line writes JSON (`--json`, reports): pretty, keys sorted, slashes
/// unescaped, so output is stable and readable.
enum JSONOutput {
    static func data<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func string<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try data(value), as: UTF8.self)
    }

    /// One line of JSON (for NDJSON event streams): compact, keys sorted. Newlines inside
    /// strings are escaped by JSON itself, so a name with a newline stays one line.
    static func line<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
