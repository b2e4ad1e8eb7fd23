/// A JSON value together with where it sits (file and key path), with typed accessors
/// that throw a `DocumentError` naming that place, what was expected and what was found.
/// Document decoders are written against this type.
package struct JSONNode: Sendable {
    package let value: JSONValue
    package let file: String
    /// The path of the object or array holding this value, or this value's own path when
    /// `lastComponent` is nil.
    private let base: KeyPath
    /// Where this value sits in `base`, not yet linked to it: a path is one allocation, and
    /// only an object's members are looked up one at a time through its path (an error, an
    /// array's items or a child's path make it when they need it). A decoder reads most of
    /// its values as leaves, so this saves most of a document's paths.
    private let lastComponent: KeyPath.Component?

    /// Where this value sits in the document.
    package var path: KeyPath { lastComponent.map { base.appending($0) } ?? base }

    package init(value: JSONValue, path: KeyPath = KeyPath(), file: String) {
        self.value = value
        self.file = file
        self.base = path
        self.lastComponent = nil
    }

    /// The value at `component` of the container whose path is `parent`. An object's own
    /// path is made at once, since its members are looked up through it one by one.
    private init(value: JSONValue, in parent: KeyPath, at component: KeyPath.Component, file: String) {
        self.value = value
        self.file = file
        if case .object = value {
            self.base = parent.appending(component)
            self.lastComponent = nil
        } else {
            self.base = parent
            self.lastComponent = component
        }
    }

    /// Parses `bytes` into the root node, turning syntax errors into `DocumentError`s.
    package static func parse(_ bytes: [UInt8], file: String, limits: JSONLimits = .default) throws(DocumentError) -> JSONNode {
        do {
            return JSONNode(value: try JSONParser.parse(bytes, limits: limits), file: file)
        } catch {
            let keyPath = error.keyPath == "(top level)" ? "" : error.keyPath
            throw DocumentError(
                file: file, keyPath: keyPath,
                kind: .syntax(line: error.line, column: error.column, message: error.message))
        }
    }

    // MARK: Errors at this node

    package func error(_ kind: DocumentError.Kind) -> DocumentError {
        DocumentError(file: file, keyPath: path.description == "(top level)" ? "" : path.description, kind: kind)
    }

    package func typeMismatch(expected: String) -> DocumentError {
        error(.typeMismatch(expected: expected, found: value.summary))
    }

    package func invalid(_ reason: String) -> DocumentError { error(.invalidValue(reason)) }

    // MARK: Objects

    package var isNull: Bool { value == .null }

    /// The members of an object, in file order.
    package func members() throws(DocumentError) -> [(key: String, node: JSONNode)] {
        guard case .object(let members) = value else { throw typeMismatch(expected: "an object") }
        let path = self.path
        return members.map { (key: $0.key, node: JSONNode(value: $0.value, in: path, at: .key($0.key), file: file)) }
    }

    /// The member `key` of an object; throws when this is not an object or the key is missing.
    package func required(_ key: String) throws(DocumentError) -> JSONNode {
        guard let node = try optional(key) else { throw error(.missingKey(key)) }
        return node
    }

    /// The member `key` of an object, or nil when the key is missing. An explicit `null` is
    /// returned as a node (check `isNull`).
    package func optional(_ key: String) throws(DocumentError) -> JSONNode? {
        guard case .object(let members) = value else { throw typeMismatch(expected: "an object") }
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return JSONNode(value: member.value, in: path, at: .key(key), file: file)
    }

    /// The member `key`, or nil when it is missing or null.
    package func optionalNonNull(_ key: String) throws(DocumentError) -> JSONNode? {
        guard let node = try optional(key), !node.isNull else { return nil }
        return node
    }

    // MARK: Arrays

    package func array(maxCount: Int = .max, of what: String = "items") throws(DocumentError) -> [JSONNode] {
        guard case .array(let items) = value else { throw typeMismatch(expected: "an array") }
        if items.count > maxCount {
            throw error(.limitExceeded("\(items.count) \(what), over the limit of \(maxCount)"))
        }
        let path = self.path
        return items.enumerated().map { JSONNode(value: $1, in: path, at: .index($0), file: file) }
    }

    /// An array of exactly `count` finite numbers, as Apple's CGSize, CGPoint and colour
    /// components encode.
    package func numbers(count: Int, meaning: String) throws(DocumentError) -> [Double] {
        guard case .array(let items) = value, items.count == count else {
            throw typeMismatch(expected: "an array of \(count) numbers (\(meaning))")
        }
        var result: [Double] = []
        result.reserveCapacity(count)
        for (index, item) in items.enumerated() {
            // Finite numbers are read in place; a node (and its key path) is made only to
            // describe an item that is not one.
            if case .number(let number) = item, number.isFinite {
                result.append(number)
            } else {
                result.append(try JSONNode(value: item, path: path.appending(index: index), file: file).double())
            }
        }
        return result
    }

    /// `numbers(count: 2, meaning:)` as a pair, with no array made (a drawing's every
    /// graphic has two: its centre and its size).
    package func pair(meaning: String) throws(DocumentError) -> (Double, Double) {
        guard case .array(let items) = value, items.count == 2 else {
            throw typeMismatch(expected: "an array of 2 numbers (\(meaning))")
        }
        func number(_ index: Int) throws(DocumentError) -> Double {
            if case .number(let number) = items[index], number.isFinite { return number }
            return try JSONNode(value: items[index], path: path.appending(index: index), file: file).double()
        }
        return (try number(0), try number(1))
    }

    // MARK: Scalars

    /// A finite number. Non-finite values (1e999 overflows to infinity) are refused.
    package func double() throws(DocumentError) -> Double {
        guard case .number(let number) = value else { throw typeMismatch(expected: "a number") }
        guard number.isFinite else { throw invalid("the number is too large to represent (not finite)") }
        return number
    }

    /// A finite number within `range`.
    package func double(in range: ClosedRange<Double>, meaning: String) throws(DocumentError) -> Double {
        let number = try double()
        guard range.contains(number) else {
            throw invalid(
                "\(meaning) must be between \(JSONWriter.format(number: range.lowerBound)) and \(JSONWriter.format(number: range.upperBound)), found \(JSONWriter.format(number: number))"
            )
        }
        return number
    }

    /// A whole number (JSON has one number type; `2.0` counts, `2.5` does not).
    package func int() throws(DocumentError) -> Int {
        guard case .number(let number) = value else { throw typeMismatch(expected: "a whole number") }
        guard number.isFinite, number == number.rounded(), abs(number) < 1e15 else {
            throw typeMismatch(expected: "a whole number")
        }
        return Int(number)
    }

    package func string() throws(DocumentError) -> String {
        guard case .string(let string) = value else { throw typeMismatch(expected: "a string") }
        return string
    }

    package func bool() throws(DocumentError) -> Bool {
        guard case .bool(let bool) = value else { throw typeMismatch(expected: "true or false") }
        return bool
    }
}
