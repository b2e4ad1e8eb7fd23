/// A JSON value together with where it sits (file and key path), with typed accessors
/// that throw a `DocumentError` naming that place, what was expected and what was found.
/// Document decoders are written against this type.
package struct JSONNode: Sendable {
    /// The parsed text this value is part of, and its entry there.
    private let tape: JSONTape
    private let index: Int
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

    /// The file the value was read from, as errors name it.
    package var file: String { tape.file }

    /// The value as a tree (made anew on each call: decoders read through the typed
    /// accessors, and `shape` tells what a value is).
    package var value: JSONValue { tape.value(at: index) }

    package init(value: JSONValue, path: KeyPath = KeyPath(), file: String) {
        self.init(tape: JSONTape(value, file: file), path: path)
    }

    private init(tape: JSONTape, path: KeyPath) {
        self.tape = tape
        self.index = 0
        self.base = path
        self.lastComponent = nil
    }

    /// The value at entry `index` of `tape`, at `component` of the container whose path is
    /// `parent`. An object's own path is made at once, since its members are looked up
    /// through it one by one.
    private init(_ tape: JSONTape, at index: Int, in parent: KeyPath, component: KeyPath.Component) {
        self.tape = tape
        self.index = index
        if tape.entries[index].kind == .object {
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
            return JSONNode(tape: try JSONParser.parseTape(bytes, file: file, limits: limits), path: KeyPath())
        } catch {
            let keyPath = error.keyPath == "(top level)" ? "" : error.keyPath
            throw DocumentError(
                file: file, keyPath: keyPath,
                kind: .syntax(line: error.line, column: error.column, message: error.message))
        }
    }

    /// What a value is, with an array's or object's size.
    package enum Shape: Equatable, Sendable {
        case null, bool, number, string
        case array(count: Int)
        case object(count: Int)
    }

    /// What this value is.
    package var shape: Shape {
        let entry = tape.entries[index]
        switch entry.kind {
        case .null: return .null
        case .bool: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array(count: Int(entry.count))
        case .object: return .object(count: Int(entry.count))
        }
    }

    private var entry: JSONTape.Entry { tape.entries[index] }

    // MARK: Errors at this node

    package func error(_ kind: DocumentError.Kind) -> DocumentError {
        DocumentError(file: file, keyPath: path.description == "(top level)" ? "" : path.description, kind: kind)
    }

    package func typeMismatch(expected: String) -> DocumentError {
        error(.typeMismatch(expected: expected, found: tape.summary(at: index)))
    }

    package func invalid(_ reason: String) -> DocumentError { error(.invalidValue(reason)) }

    // MARK: Objects

    package var isNull: Bool { entry.kind == .null }

    /// The members of an object, in file order.
    package func members() throws(DocumentError) -> [(key: String, node: JSONNode)] {
        let entry = self.entry
        guard entry.kind == .object else { throw typeMismatch(expected: "an object") }
        let path = self.path
        var members: [(key: String, node: JSONNode)] = []
        members.reserveCapacity(Int(entry.count))
        var key = index + 1
        for _ in 0..<entry.count {
            let name = tape.string(at: key)
            members.append((name, JSONNode(tape, at: key + 1, in: path, component: .key(name))))
            key = tape.end(of: key + 1)
        }
        return members
    }

    /// The member `key` of an object; throws when this is not an object or the key is missing.
    package func required(_ key: String) throws(DocumentError) -> JSONNode {
        guard let node = try optional(key) else { throw error(.missingKey(key)) }
        return node
    }

    /// The member `key` of an object, or nil when the key is missing. An explicit `null` is
    /// returned as a node (check `isNull`).
    package func optional(_ key: String) throws(DocumentError) -> JSONNode? {
        let entry = self.entry
        guard entry.kind == .object else { throw typeMismatch(expected: "an object") }
        var member = index + 1
        for _ in 0..<entry.count {
            if tape.string(at: member) == key {
                return JSONNode(tape, at: member + 1, in: path, component: .key(key))
            }
            member = tape.end(of: member + 1)
        }
        return nil
    }

    /// The member `key`, or nil when it is missing or null.
    package func optionalNonNull(_ key: String) throws(DocumentError) -> JSONNode? {
        guard let node = try optional(key), !node.isNull else { return nil }
        return node
    }

    // MARK: Arrays

    package func array(maxCount: Int = .max, of what: String = "items") throws(DocumentError) -> [JSONNode] {
        let entry = self.entry
        guard entry.kind == .array else { throw typeMismatch(expected: "an array") }
        if entry.count > maxCount {
            throw error(.limitExceeded("\(entry.count) \(what), over the limit of \(maxCount)"))
        }
        let path = self.path
        var items: [JSONNode] = []
        items.reserveCapacity(Int(entry.count))
        var item = index + 1
        for position in 0..<Int(entry.count) {
            items.append(JSONNode(tape, at: item, in: path, component: .index(position)))
            item = tape.end(of: item)
        }
        return items
    }

    /// An array of exactly `count` finite numbers, as Apple's CGSize, CGPoint and colour
    /// components encode.
    package func numbers(count: Int, meaning: String) throws(DocumentError) -> [Double] {
        let entry = self.entry
        guard entry.kind == .array, entry.count == count else {
            throw typeMismatch(expected: "an array of \(count) numbers (\(meaning))")
        }
        var result: [Double] = []
        result.reserveCapacity(count)
        for position in 0..<count {
            result.append(try number(at: position))
        }
        return result
    }

    /// `numbers(count: 2, meaning:)` as a pair, with no array made (a drawing's every
    /// graphic has two: its centre and its size).
    package func pair(meaning: String) throws(DocumentError) -> (Double, Double) {
        let entry = self.entry
        guard entry.kind == .array, entry.count == 2 else {
            throw typeMismatch(expected: "an array of 2 numbers (\(meaning))")
        }
        return (try number(at: 0), try number(at: 1))
    }

    /// Item `position` of this array, a finite number, when the items before it are numbers
    /// (as `numbers` and `pair` read them: each number is one entry). Finite numbers are read
    /// in place; a node (and its key path) is made only to describe an item that is not one.
    private func number(at position: Int) throws(DocumentError) -> Double {
        let item = index + 1 + position
        if tape.entries[item].kind == .number {
            let number = tape.number(at: item)
            if number.isFinite { return number }
        }
        return try JSONNode(tape, at: item, in: path, component: .index(position)).double()
    }

    // MARK: Scalars

    /// A finite number. Non-finite values (1e999 overflows to infinity) are refused.
    package func double() throws(DocumentError) -> Double {
        guard entry.kind == .number else { throw typeMismatch(expected: "a number") }
        let number = tape.number(at: index)
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
        guard entry.kind == .number else { throw typeMismatch(expected: "a whole number") }
        let number = tape.number(at: index)
        guard number.isFinite, number == number.rounded(), abs(number) < 1e15 else {
            throw typeMismatch(expected: "a whole number")
        }
        return Int(number)
    }

    package func string() throws(DocumentError) -> String {
        guard entry.kind == .string else { throw typeMismatch(expected: "a string") }
        return tape.string(at: index)
    }

    package func bool() throws(DocumentError) -> Bool {
        guard entry.kind == .bool else { throw typeMismatch(expected: "true or false") }
        return entry.payload != 0
    }
}
