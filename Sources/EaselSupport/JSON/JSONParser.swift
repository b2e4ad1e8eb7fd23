#if canImport(Glibc)
    import Glibc
#endif
/// A strict RFC 8259 JSON parser over UTF-8 bytes, written for untrusted input: it checks
/// every byte, refuses duplicate keys, and stops at the limits in `JSONLimits` instead of
/// recursing or allocating without bound. Errors carry the line and column.
package struct JSONParser {
    package struct SyntaxError: Error, Equatable, Sendable {
        package var line: Int
        package var column: Int
        package var message: String
        /// The key path of the container being read when the error happened (may be empty).
        package var keyPath: String
    }

    /// A failure where it happened: the byte offset and, gathered while the containers
    /// unwind, the key path from the innermost component out (the parse itself keeps no
    /// path: it costs nothing until something fails).
    fileprivate struct Failure: Error {
        var offset: Int
        var message: String
        var reversedPath: [KeyPath.Component] = []
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var index = 0
    private var depth = 0
    /// The tape being written.
    private var entries: [JSONTape.Entry] = []
    private var strings: [String] = []
    /// The keys (indices in `strings`) of the objects being read, innermost last: each
    /// object's own keys are the stack's top part while it is read, for the duplicate check.
    private var keys: [Int] = []

    /// Parses `bytes` into a tree of values.
    package static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(SyntaxError) -> JSONValue {
        try parseTape(bytes, limits: limits).value(at: 0)
    }

    /// Parses `bytes`, the text of `file`, into a tape, its root value at entry 0.
    package static func parseTape(_ bytes: [UInt8], file: String = "", limits: JSONLimits = .default) throws(SyntaxError)
        -> JSONTape
    {
        let result: Result<JSONTape, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: limits)
            return Result { () throws(Failure) in try parser.parseDocument(file: file) }
        }
        switch result {
        case .success(let tape): return tape
        case .failure(let failure):
            let (line, column) = Self.position(of: failure.offset, in: bytes)
            let keyPath = KeyPath(failure.reversedPath.reversed()).description
            throw SyntaxError(line: line, column: column, message: failure.message, keyPath: keyPath)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
        // Room for the values a document of this size usually has (a pretty-printed drawing
        // spends about 18 bytes on each, compact JSON 4 or more), so the arrays seldom grow;
        // pages are only touched as they fill.
        entries.reserveCapacity(min(bytes.count / 4, 1 << 20) + 1)
        strings.reserveCapacity(min(bytes.count / 16, 1 << 18) + 1)
    }

    private mutating func parseDocument(file: String) throws(Failure) -> JSONTape {
        // A UTF-8 byte order mark is tolerated, as Foundation's reader tolerates it.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        if index >= bytes.count { throw error("the file is empty (no JSON value)") }
        try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected data after the JSON value") }
        return JSONTape(entries: entries, strings: strings, file: file)
    }

    // MARK: Values

    private mutating func append(_ kind: JSONTape.Entry.Kind, payload: UInt64 = 0) {
        entries.append(JSONTape.Entry(payload: payload, count: 0, kind: kind))
    }

    private mutating func appendString(_ string: String) -> Int {
        strings.append(string)
        append(.string, payload: UInt64(strings.count - 1))
        return strings.count - 1
    }

    private mutating func parseValue() throws(Failure) {
        guard index < bytes.count else { throw error("the data ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): _ = appendString(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            append(.bool, payload: 1)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            append(.bool, payload: 0)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            append(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): append(.number, payload: try parseNumber().bitPattern)
        default: throw error("unexpected \(describeByte(bytes[index])) where a value was expected")
        }
    }

    private mutating func enterContainer() throws(Failure) {
        depth += 1
        if depth > limits.maxDepth { throw error("nesting deeper than the limit of \(limits.maxDepth) levels") }
    }

    /// Ends the container whose entry is at `start`, holding `count` items or members.
    private mutating func close(_ start: Int, count: Int) {
        entries[start].payload = UInt64(entries.count)
        entries[start].count = UInt32(count)
        depth -= 1
    }

    private mutating func parseObject() throws(Failure) {
        try enterContainer()
        index += 1
        let start = entries.count
        append(.object)
        // This object's keys, above those of the objects around it.
        let firstKey = keys.count
        defer { keys.removeSubrange(firstKey...) }
        // Duplicate keys: a linear search while the object is small (documents' objects have
        // a handful of members), a set once it is large.
        var seen = Set<String>()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            close(start, count: 0)
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key in the object") }
            let key = try parseString()
            let count = keys.count - firstKey
            let isDuplicate: Bool
            if count < 16 {
                isDuplicate = keys[firstKey...].contains { strings[$0] == key }
            } else {
                if seen.isEmpty { seen = Set(keys[firstKey...].map { strings[$0] }) }
                isDuplicate = !seen.insert(key).inserted
            }
            if isDuplicate {
                var failure = error("the key \"\(key)\" appears twice in the same object")
                failure.reversedPath.append(.key(key))
                throw failure
            }
            if count >= limits.maxContainerCount {
                throw error("an object with more than \(limits.maxContainerCount) members")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            keys.append(appendString(key))
            do { try parseValue() } catch { throw error.inside(.key(key)) }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                close(start, count: count + 1)
                return
            default: throw error("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func parseArray() throws(Failure) {
        try enterContainer()
        index += 1
        let start = entries.count
        append(.array)
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            close(start, count: 0)
            return
        }
        var count = 0
        while true {
            if count >= limits.maxContainerCount {
                throw error("an array with more than \(limits.maxContainerCount) items")
            }
            skipWhitespace()
            do { try parseValue() } catch { throw error.inside(.index(count)) }
            count += 1
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                close(start, count: count)
                return
            default: throw error("expected ',' or ']' in the array")
            }
        }
    }

    // MARK: Scalars

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count,
            memcmp(bytes.baseAddress! + index, expected.baseAddress!, expected.count) == 0
        else {
            throw error("unexpected \(describeByte(bytes[index])) where a value was expected")
        }
        index += expected.count
    }

    private mutating func parseNumber() throws(Failure) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("a '-' not followed by a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error("a number with a leading zero") }
        } else {
            while let d = peek(), isDigit(d) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let d = peek(), isDigit(d) else { throw error("a '.' not followed by a digit") }
            while let d = peek(), isDigit(d) { index += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let d = peek(), isDigit(d) else { throw error("an exponent with no digits") }
            while let d = peek(), isDigit(d) { index += 1 }
        }
        if index - start > 400 { throw error("a number literal longer than 400 characters") }
        if let value = Self.exactValue(of: bytes[start..<index]) { return value }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // Overflow (1e999) yields an infinity here; the document decoders refuse non-finite values.
        guard let value = Double(text) else { throw error("the number \(text) cannot be read") }
        return value
    }

    /// The value of a number literal (already checked) without exponent whose digits fit in
    /// 15 significant places, or nil. Such a value is a whole number below 2^53 divided by
    /// a power of ten up to 10^22, both exact in a Double, so the one division rounds
    /// correctly, as `Double(String)` does: Clinger's fast path. It spares making a string
    /// for each of the thousands of numbers in a drawing.
    private static func exactValue(of literal: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var mantissa: Int64 = 0, digits = 0, fractionDigits = 0, inFraction = false, negative = false
        for byte in literal {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                if digits > 15 { return nil }
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            default: return nil  // an exponent
            }
        }
        guard fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1  // the opening quote
        // Most strings hold no escape: find the closing quote and validate the bytes in place.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""), end - index <= limits.maxStringBytes {
            let content = bytes[index..<end]
            index = end + 1
            guard let string = Self.validatedString(UnsafeBufferPointer(rebasing: content)) else {
                throw error("a string that is not valid UTF-8")
            }
            return string
        }
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("a string that is never closed") }
            let byte = bytes[index]
            if utf8.count > limits.maxStringBytes {
                throw error("a string longer than \(limits.maxStringBytes) bytes")
            }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = utf8.withUnsafeBufferPointer(Self.validatedString) else {
                    throw error("a string that is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw error("a control character (\(describeByte(byte))) inside a string; it must be escaped")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    /// The string whose UTF-8 is `bytes`, or nil when they are not valid UTF-8. ASCII (every
    /// key, most values) is copied as is; other text is decoded, and it was valid when
    /// decoding did not have to repair it. (`String(validating:)` on a slice is not
    /// specialised and cost a thousand instructions a string.)
    private static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        if bytes.allSatisfy({ $0 < 0x80 }) { return string }
        return string.utf8.elementsEqual(bytes) ? string : nil
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(Failure) {
        guard let escape = peek() else { throw error("a string that ends inside an escape") }
        index += 1
        switch escape {
        case UInt8(ascii: "\""): utf8.append(0x22)
        case UInt8(ascii: "\\"): utf8.append(0x5C)
        case UInt8(ascii: "/"): utf8.append(0x2F)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("an unpaired UTF-16 surrogate escape in a string")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("an unpaired UTF-16 surrogate escape in a string") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("an unpaired UTF-16 surrogate escape in a string")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
            utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw error("an unknown escape '\\\(describeByte(escape))' in a string")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("a \\u escape with fewer than 4 hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape with a non-hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: Helpers

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ message: String) -> Failure { Failure(offset: index, message: message) }

    /// The line and column (both from 1, columns in characters) of byte `offset`.
    private static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

extension JSONParser.Failure {
    /// The same failure, one container further out: `component` is where it happened in it.
    fileprivate func inside(_ component: KeyPath.Component) -> Self {
        var failure = self
        failure.reversedPath.append(component)
        return failure
    }
}
