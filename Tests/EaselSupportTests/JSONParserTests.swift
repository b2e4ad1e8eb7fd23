import Testing
import EaselSupport

@Suite("JSON parser")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func scalarsAndContainers() throws {
        #expect(
            try parse(#"{"a":[1,-2.5e3,true,false,null,"x"],"b":{}}"#)
                == .object([
                    ("a", .array([.number(1), .number(-2500), .bool(true), .bool(false), .null, .string("x")])),
                    ("b", .object([])),
                ]))
        #expect(try parse("\u{FEFF}[]") == .array([]), "a UTF-8 byte order mark is tolerated")
    }

    @Test func escapesIncludingSurrogatePairs() throws {
        #expect(try parse(#""\u00e9\ud83d\ude00\/\\\"\n\t""#) == .string("é😀/\\\"\n\t"))
        #expect(throws: JSONParser.SyntaxError.self) { try parse(#""\ud83d""#) }
        #expect(throws: JSONParser.SyntaxError.self) { try parse(#""\x""#) }
    }

    @Test func numbersFollowTheGrammar() throws {
        for bad in ["01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "0x10"] {
            #expect(throws: JSONParser.SyntaxError.self, "\(bad)") { try parse(bad) }
        }
        #expect(try parse("1e308") == .number(1e308))
        #expect(try parse("1e999") == .number(.infinity), "overflow is left for the decoders to refuse")
    }

    @Test func truncatedInputIsASyntaxError() {
        let text = #"{"id":"x","imageElements":[{"transform":{"size":[1,2]}}]}"#
        for cut in 1..<text.utf8.count {
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(text.utf8.prefix(cut))) }
        }
    }

    @Test func writerOutputParsesBackEqual() throws {
        let value: JSONValue = .object([
            ("a", .array([.number(0.1), .number(-6.0000000000000009), .number(250)])),
            ("s", .string("line\nbreak \u{1} / é")), ("n", .null), ("e", .array([])), ("o", .object([])),
        ])
        #expect(try JSONParser.parse(JSONWriter.prettyPrinted(value)) == value)
    }
}

/// Pretty-printing can double a file of many small numbers; a document near the size limit
/// is written compactly instead, so Easel can always open what it saved.
@Suite("JSON writer")
struct JSONWriterTests {
    let value: JSONValue = .object([
        ("sizes", .array((0..<50).map { .array([.number(Double($0)), .number(2.5)]) })), ("name", .string("a \"quoted\" name")),
    ])

    @Test func compactAndPrettyFormsParseToTheSameValue() throws {
        let pretty = JSONWriter.prettyPrinted(value), compact = JSONWriter.compact(value)
        #expect(compact.count * 2 < pretty.count, "\(compact.count) vs \(pretty.count)")
        #expect(try JSONParser.parse(pretty) == value)
        #expect(try JSONParser.parse(compact) == value)
    }

    @Test func aFileThatWouldNotFitPrettyIsWrittenCompact() throws {
        let pretty = JSONWriter.prettyPrinted(value)
        #expect(JSONWriter.prettyPrinted(value, fittingIn: pretty.count) == pretty)
        #expect(JSONWriter.prettyPrinted(value, fittingIn: pretty.count - 1) == JSONWriter.compact(value))
    }
}
