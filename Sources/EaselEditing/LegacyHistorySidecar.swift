import EaselDocuments
import EaselSupport
import FoundationEssentials
import Glibc

/// The undo history of Easel before its state folder: a hidden JSON file beside the
/// document (`.NAME.easel-history`, whole earlier versions as strings) and an empty lock
/// file (`.NAME.easel-lock`). Read once, to move the history into the state folder, then
/// both are removed: the Cards app decodes every file whose name contains ".rwcard".
enum LegacyHistorySidecar {
    static func historyURL(for document: URL) -> URL {
        document.deletingLastPathComponent().appendingPathComponent(".\(document.lastPathComponent).easel-history")
    }

    static func lockURL(for document: URL) -> URL {
        document.deletingLastPathComponent().appendingPathComponent(".\(document.lastPathComponent).easel-lock")
    }

    /// What is beside a document.
    enum Found {
        /// No sidecar.
        case none
        /// A sidecar that cannot be used (unreadable, or for another version of the document).
        case unusable
        /// The versions it holds, oldest first.
        case versions(undo: [[UInt8]], redo: [[UInt8]])
    }

    /// The sidecar beside `document`, usable when it is readable and ends at `current`.
    static func load(for document: URL, current: [UInt8]) -> Found {
        let file = historyURL(for: document)
        var status = stat()
        guard lstat(file.path, &status) == 0 else { return .none }
        guard (status.st_mode & S_IFMT) == S_IFREG,
            let bytes = try? FileIO.readBytes(at: file.path, maxBytes: 256 << 20),
            let root = try? JSONNode.parse(bytes, file: file.path, limits: JSONLimits(maxStringBytes: 64 << 20)),
            (try? root.required("format").string()) == "org.easel.history", (try? root.required("version").int()) == 1,
            (try? root.required("documentHash").string()) == EditHistory.hash(current),
            let undo = try? root.required("undo").array().map({ (node) throws(DocumentError) in Array(try node.string().utf8) }),
            let redo = try? root.required("redo").array().map({ (node) throws(DocumentError) in Array(try node.string().utf8) })
        else { return .unusable }
        return .versions(undo: undo, redo: redo)
    }

    /// Removes the sidecars (the lock only when no other process holds it).
    static func remove(for document: URL) {
        unlink(historyURL(for: document).path)
        let lock = lockURL(for: document)
        if let held = DocumentLock.tryLocking(lock, for: document) {
            unlink(lock.path)
            withExtendedLifetime(held) {}
        }
    }
}
