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

    /// Short literals take a fast path (a whole number divided by a power of ten); every
    /// literal must read as exactly the Double that `Double(String)` gives.
    @Test func numbersReadExactlyAsTheStandardLibraryReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var literals = [
            "0", "-0", "0.1", "0.3", "1.7976931348623157", "9007199254740993", "123456789012345", "1234567890123456",
            "0.000000000000000000000001", "-6.0000000000000009", "4503599627370497.5", "100000000000000000000000", "2.50e1",
        ]
        for _ in 0..<2000 {
            let whole = String(UInt64.random(in: 0...UInt64(1) << 60, using: &generator))
            let fraction = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let literal = "\(Bool.random() ? "-" : "")\(whole.prefix(Int.random(in: 1...16)))"
            literals.append(Bool.random() ? literal : literal + "." + fraction.prefix(Int.random(in: 1...9)))
        }
        for literal in literals {
            let expected = try #require(Double(literal))
            let parsed = try parse(literal)
            #expect(parsed == .number(expected), "\(literal)")
            #expect(try parse("[\(literal)]") == .array([.number(expected)]), "\(literal) in an array")
            if case .number(let value) = parsed { #expect(value.sign == expected.sign, "\(literal): the sign of zero") }
        }
    }

    @Test func duplicateKeysAreRefusedInSmallAndLargeObjects() throws {
        for count in [2, 15, 16, 17, 40] {
            let keys = (0..<count).map { "\"k\($0)\":\($0)" }
            let unique = "{" + keys.joined(separator: ",") + "}"
            guard case .object(let members) = try parse(unique) else {
                Issue.record("not an object")
                continue
            }
            #expect(members.count == count)
            let duplicated = "{" + (keys + ["\"k\(count / 2)\":0"]).joined(separator: ",") + "}"
            #expect(throws: JSONParser.SyntaxError.self, "\(count) members") { try parse(duplicated) }
            do {
                _ = try JSONParser.parse(Array(duplicated.utf8))
            } catch {
                #expect(error.message == "the key \"k\(count / 2)\" appears twice in the same object")
                #expect(error.keyPath == "k\(count / 2)")
            }
        }
    }

    @Test func stringsWithAndWithoutEscapesAndTheirErrors() throws {
        #expect(
            try parse(#"["plain", "with \"quote\" inside", "", "é"]"#)
                == .array([.string("plain"), .string("with \"quote\" inside"), .string(""), .string("é")]))
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x61, 0x5C, 0x6E, 0xC3, 0x22], [0x22, 0x61, 0x0A, 0x22]] {
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes) }
        }
        do {
            _ = try JSONParser.parse(Array(#"{"a": "x"#.utf8) + [0xFF] + Array(#""}"#.utf8))
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.message == "a string that is not valid UTF-8")
            #expect(error.keyPath == "a")
            #expect(error.column == 11, "the column after the closing quote")
        }
        let limits = JSONLimits(maxStringBytes: 4)
        #expect(try JSONParser.parse(Array(#""abcd""#.utf8), limits: limits) == .string("abcd"))
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(#""abcde""#.utf8), limits: limits) }
    }

    @Test func truncatedInputIsASyntaxError() {
        let text = #"{"id":"x","imageElements":[{"transform":{"size":[1,2]}}]}"#
        for cut in 1..<text.utf8.count {
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(text.utf8.prefix(cut))) }
        }
    }

    @Test func errorsNameTheKeyPathAndPlaceOfTheFailure() throws {
        func failure(_ text: String) -> JSONParser.SyntaxError? {
            do {
                _ = try JSONParser.parse(Array(text.utf8))
                return nil
            } catch { return error }
        }
        // In a value: the path down to it, whatever the nesting.
        let deep = failure(#"{"a": [1, {"b": [true, x]}]}"#)
        #expect(deep?.keyPath == "a[1].b[1]" && deep?.line == 1 && deep?.column == 24)
        // Between members: the container's own path.
        #expect(failure(#"{"g": [{"k": 1 "m": 2}]}"#)?.keyPath == "g[0]")
        // A duplicate: the key itself, inside its object.
        let duplicate = failure("{\"g\": [{\"k\": 1,\n \"k\": 2}]}")
        #expect(duplicate?.keyPath == "g[0].k" && duplicate?.line == 2)
        #expect(failure("[1, 2")?.keyPath == "(top level)")
        #expect(failure(#"{"s": "caf\#u{E9} \u00e9"}"#) == nil)
        // Bytes that are not UTF-8, in a plain string and in one with an escape.
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(#"{"s": ""#.utf8) + [0xC3, 0x28, 0x22, 0x7D]) }
        #expect(throws: JSONParser.SyntaxError.self) {
            try JSONParser.parse(Array(#"{"s": "\n"#.utf8) + [0xE2, 0x82, 0x22, 0x7D])
        }
        #expect(try JSONParser.parse(Array(#"["\u00e9 é \n"]"#.utf8)) == .array([.string("é é \n")]))
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
