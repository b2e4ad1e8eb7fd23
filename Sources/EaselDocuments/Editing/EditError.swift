/// Why an edit cannot be made. The message says what to do instead.
public struct EditError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public static func indexOutOfRange(_ index: Int, count: Int, kind: String) -> EditError {
        EditError(count == 0
            ? "element \(index) does not exist: the \(kind) is empty"
            : "element \(index) does not exist: the \(kind) has \(count) element\(count == 1 ? "" : "s"), numbered 0 to \(count - 1)")
    }

    public var description: String { message }
}
