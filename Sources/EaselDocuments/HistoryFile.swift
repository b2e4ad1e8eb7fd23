import EaselGeometry
import EaselSupport
import Foundation

/// Undo history kept between invocations, in a hidden file beside the document:
/// `.NAME.easel-history` (for `Card.rwcard`: `.Card.rwcard.easel-history`). The Cards app
/// reads only `.rwcard` files, so it never sees it. JSON:
///
///     { "format": "org.easel.history", "version": 1, "documentHash": "…",
///       "undo": ["<document JSON>", …], "redo": [ … ] }
///
/// Each entry is a whole earlier version of the document (a memento); at most
/// `maxDepth` are kept. `documentHash` identifies the version the history ends at: when the
/// file on disk no longer matches (it was edited by something else), the history is stale
/// and is discarded rather than applied to a different document.
public enum HistoryFile {
    /// The most undo steps kept between invocations.
    public static let maxDepth = 50

    /// The hidden history file beside `document`: `.NAME.easel-history` in the same folder.
    public static func url(for document: URL) -> URL {
        document.deletingLastPathComponent().appendingPathComponent(".\(document.lastPathComponent).easel-history")
    }

    /// FNV-1a, 64 bits, as hex: enough to notice that a file changed.
    public static func hash(_ bytes: [UInt8]) -> String {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return String(value, radix: 16)
    }

    /// The stored history for the document whose current bytes are `current`, or an empty one
    /// (with the reason) when there is none or it is stale or unreadable.
    public static func load(for document: URL, current: [UInt8]) -> (history: History<[UInt8]>, note: String?) {
        let empty = History<[UInt8]>(maxDepth: maxDepth)
        let file = url(for: document)
        guard FileManager.default.fileExists(atPath: file.path) else { return (empty, nil) }
        do {
            let root = try JSONNode.parse(try FileIO.readBytes(at: file.path, maxBytes: 256 << 20), file: file.path)
            guard try root.required("format").string() == "org.easel.history", try root.required("version").int() == 1 else {
                return (empty, "the undo history \(file.lastPathComponent) is of an unknown format and was ignored")
            }
            guard try root.required("documentHash").string() == hash(current) else {
                return (empty, "the document changed outside easel since its last edit, so its undo history was reset")
            }
            let undo = try root.required("undo").array().map { (n) throws(DocumentError) in Array(try n.string().utf8) }
            let redo = try root.required("redo").array().map { (n) throws(DocumentError) in Array(try n.string().utf8) }
            return (History(undoStack: undo, redoStack: redo, maxDepth: maxDepth), nil)
        } catch {
            return (empty, "the undo history is unreadable and was reset (\(error))")
        }
    }

    /// Writes the history atomically; `current` is the document as now saved.
    public static func save(_ history: History<[UInt8]>, for document: URL, current: [UInt8]) throws(DocumentError) {
        func strings(_ stack: [[UInt8]]) -> JSONValue { .array(stack.map { .string(String(decoding: $0, as: UTF8.self)) }) }
        let root: JSONValue = .object([
            ("format", .string("org.easel.history")),
            ("version", .number(1)),
            ("documentHash", .string(hash(current))),
            ("undo", strings(history.undoStack)),
            ("redo", strings(history.redoStack)),
        ])
        try AtomicFile.write(JSONWriter.prettyPrinted(root), to: url(for: document).path)
    }
}
