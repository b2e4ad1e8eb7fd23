/// Something worth telling the user about a document that still opens: a legacy card that
/// was upgraded, an id that was replaced, an image that is missing.
public struct DocumentWarning: Hashable, Sendable, CustomStringConvertible {
    /// The file the warning is about, as the user named it.
    public var file: String
    /// Where in the JSON document; empty when the warning is about the whole file.
    public var keyPath: String
    /// What happened and what Easel did about it, in plain English, without the file name.
    public var message: String
    /// True when saving the document writes it in a newer format than it was read in (a
    /// legacy card): an editor says so when it first saves.
    public var upgradesFormatOnSave: Bool

    /// Creates a warning about `file`; leave `keyPath` empty when it is about the whole file.
    public init(file: String, keyPath: String = "", message: String, upgradesFormatOnSave: Bool = false) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
        self.upgradesFormatOnSave = upgradesFormatOnSave
    }

    /// A one-line message for the user: the file, the key path if any, then the message.
    public var description: String {
        keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)"
    }
}
