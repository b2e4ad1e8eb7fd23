/// Why an edit cannot be made. The message says what to do instead.
public struct EditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do instead.
    public var message: String
    /// True when the request itself is malformed (an unknown kind, unparsable path
    /// commands) rather than impossible on this document; the CLI reports it as a usage error.
    public var isInvalidRequest: Bool

    /// The property at fault when one is, named as an edit request names it (`at`, `size`,
    /// `rotation`, `strokeWidth`, `opacity`, `fontSize`, `dash`, `text`, `fill`, `stroke`, and
    /// an added element's `kind` and `value`):
    /// for the server's key path. Nil when the edit as a whole is at fault.
    public var property: String?

    /// An error with `message`; set `isInvalidRequest` when the request itself is malformed,
    /// and `property` when one property's value is the fault.
    public init(_ message: String, isInvalidRequest: Bool = false, property: String? = nil) {
        self.message = message
        self.isInvalidRequest = isInvalidRequest
        self.property = property
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
