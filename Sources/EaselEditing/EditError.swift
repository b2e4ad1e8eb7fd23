/// Why an edit cannot be made. The message says what to do instead.
public struct EditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do instead.
    public var message: String
    /// True when the request itself is malformed (an unknown kind, unparsable path
    /// commands) rather than impossible on this document; the CLI reports it as a usage error.
    public var isInvalidRequest: Bool

    /// An error with `message`; set `isInvalidRequest` when the request itself is malformed.
    public init(_ message: String, isInvalidRequest: Bool = false) {
        self.message = message
        self.isInvalidRequest = isInvalidRequest
    }

    /// The error for an element index the document does not have, saying which indexes exist.
    public static func indexOutOfRange(_ index: Int, count: Int, kind: String) -> EditError {
        EditError(
            count == 0
                ? "element \(index) does not exist: the \(kind) is empty"
                : "element \(index) does not exist: the \(kind) has \(count) element\(count == 1 ? "" : "s"), numbered 0 to \(count - 1)"
        )
    }

    /// The message, as shown to the user.
    public var description: String { message }
}
