/// Something worth telling the user about a document that still opens: a legacy card that
/// was upgraded, an id that was replaced, an image that is missing.
public struct DocumentWarning: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var keyPath: String
    public var message: String

    public init(file: String, keyPath: String = "", message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)"
    }
}
