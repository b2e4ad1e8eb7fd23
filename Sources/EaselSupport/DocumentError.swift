/// Why a document could not be read or written. Every case names the file; decoding
/// failures also name the JSON key path (`imageElements[2].transform.size`), what was
/// expected there and what was found.
public struct DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, with the details that go into the message.
    public enum Kind: Equatable, Sendable {
        /// The bytes are not JSON (or break a parser limit); line and column are 1-based.
        case syntax(line: Int, column: Int, message: String)
        case missingKey(String)
        case typeMismatch(expected: String, found: String)
        case invalidValue(String)
        case limitExceeded(String)
        /// The file has an extension no registered document type reads.
        case unsupportedType(fileExtension: String, supported: [String])
        /// Reading or writing the file system failed.
        case io(String)
        /// The file's permissions do not let it be written (its owner made it read-only):
        /// trying again cannot help.
        case readOnly(String)
        /// The document cannot be written in the requested format (for example a custom
        /// clip shape that a card file cannot express).
        case notRepresentable(String)
    }

    /// The file (or folder) the error is about, as the user named it.
    public var file: String
    /// Where in the JSON document; empty when the error is about the whole file.
    public var keyPath: String
    /// What is wrong: bad JSON, a missing or mistyped key, a bad value, a failed read or write.
    public var kind: Kind

    /// Creates an error about `file`; leave `keyPath` empty when the whole file is at fault.
    public init(file: String, keyPath: String = "", kind: Kind) {
        self.file = file
        self.keyPath = keyPath
        self.kind = kind
    }

    /// A one-line message for the user that starts with the file (and key path, if any).
    /// The problem without the file's name: an I/O error's own message, or the whole
    /// description (for messages that name the file themselves).
    public var reason: String {
        switch kind {
        case .io(let message), .readOnly(let message): return message
        default: return description
        }
    }

    public var description: String {
        let location = keyPath.isEmpty ? file : "\(file): \(keyPath)"
        switch kind {
        case .syntax(let line, let column, let message):
            return
                "\(file): not valid JSON at line \(line), column \(column)\(keyPath.isEmpty ? "" : " (in \(keyPath))"): \(message)"
        case .missingKey(let key):
            return "\(location): the required key \"\(key)\" is missing"
        case .typeMismatch(let expected, let found):
            return "\(location): expected \(expected), found \(found)"
        case .invalidValue(let reason):
            return "\(location): \(reason)"
        case .limitExceeded(let reason):
            return "\(location): \(reason)"
        case .unsupportedType(let ext, let supported):
            let list = supported.map { ".\($0)" }.joined(separator: ", ")
            return
                "\(file): \(ext.isEmpty ? "a file with no extension" : "the extension .\(ext)") is not a supported document type (supported: \(list))"
        case .io(let message), .readOnly(let message):
            return "\(file): \(message)"
        case .notRepresentable(let reason):
            return "\(location): \(reason)"
        }
    }
}
