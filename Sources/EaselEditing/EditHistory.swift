import EaselDocuments
import EaselSupport
import FoundationEssentials
import Glibc

/// A document's undo and redo steps as patches (see `HistoryPatch`), kept between
/// invocations in Easel's state folder (see `HistoryStore`). Bounded: at most `maxDepth`
/// undo steps and `maxBytes` of patches in all; the oldest are dropped first. A new edit
/// after an undo drops the redo branch, as every editor does.
struct EditHistory: Sendable {
    /// One step, and the file it is stored in once saved.
    struct Step: Sendable {
        var patch: HistoryPatch
        var file: String?
    }

    /// Undo steps, oldest first: the last turns the current document into the one before.
    var undo: [Step] = []
    /// Redo steps, oldest first: the last turns the current document into the next one.
    var redo: [Step] = []

    /// The most undo steps kept.
    static let maxDepth = 50
    /// The most bytes of patches kept for one document.
    static let maxBytes = 64 << 20

    /// Records an edit: `undoPatch` turns the edited document back into the one before.
    mutating func record(_ undoPatch: HistoryPatch) {
        undo.append(Step(patch: undoPatch))
        redo.removeAll()
        trim()
    }

    /// Drops the oldest undo steps beyond the bounds.
    mutating func trim() {
        while undo.count > Self.maxDepth || (!undo.isEmpty && totalBytes > Self.maxBytes) {
            undo.removeFirst()
        }
    }

    var totalBytes: Int { (undo + redo).reduce(0) { $0 + $1.patch.size } }

    /// FNV-1a, 64 bits, as hex: enough to notice that a file changed.
    static func hash(_ bytes: [UInt8]) -> String { String(FNV1a.hash(bytes), radix: 16) }
}

/// Where one document's history lives: a folder in Easel's state folder holding
/// `index.json` and one file per step.
///
///     { "format": "org.easel.history", "version": 2, "document": "/real/path/Card.rwcard",
///       "documentHash": "…", "undo": ["3f2a….patch", …], "redo": [ … ] }
///
/// `documentHash` identifies the version the history ends at: when the document on disk no
/// longer matches (something else wrote it), the history is stale and is reset rather than
/// applied to a different document.
struct HistoryStore {
    let folder: URL
    let document: URL

    var indexURL: URL { folder.appendingPathComponent("index.json") }

    /// The note of a history kept for another version of the document.
    static let changedOutsideNote = "the document changed outside easel since its last edit, so its undo history was reset"

    /// A stored history as read.
    struct Loaded {
        /// The history, empty when there is none or it could not be used.
        var history: EditHistory
        /// Why the stored history was not used, to say once; nil when there is nothing to say.
        var note: String?
        /// True when this state folder holds no history of the document as it is now: none
        /// at all, or one for a version another editor replaced (see
        /// `DocumentEditor.historyIsElsewhere`).
        var isElsewhere = false
    }

    /// The stored history for the document whose bytes are `current`, or an empty one (with
    /// the reason) when there is none, or it is stale or unreadable.
    func load(current: [UInt8]) -> Loaded {
        var status = stat()
        guard lstat(indexURL.path, &status) == 0 else { return Loaded(history: EditHistory(), isElsewhere: true) }
        do {
            let root = try JSONNode.parse(try FileIO.readBytes(at: indexURL.path, maxBytes: 1 << 20), file: indexURL.path)
            guard try root.required("format").string() == "org.easel.history", try root.required("version").int() == 2 else {
                return Loaded(history: EditHistory(), note: "the undo history is of an unknown format and was reset")
            }
            guard try root.required("documentHash").string() == EditHistory.hash(current) else {
                return Loaded(history: EditHistory(), note: Self.changedOutsideNote, isElsewhere: true)
            }
            // Reset already for this very version, which another editor wrote (said once, when
            // it was found): nothing to undo until an edit here starts a history again.
            if try root.optional("changedOutside")?.bool() == true {
                return Loaded(history: EditHistory(), isElsewhere: true)
            }
            // A saved history's undo steps hold at most maxBytes, and its redo steps what undo
            // held: more in all (or a step named twice) is not a history Easel wrote, and is
            // not read into memory.
            var names = Set<String>()
            var total = 0
            func steps(_ key: String) throws -> [EditHistory.Step] {
                try root.required(key).array(maxCount: EditHistory.maxDepth * 2).map { (node) throws in
                    let name = try node.string()
                    guard name.hasSuffix(".patch"), !name.contains("/") else { throw node.invalid("not a step file name") }
                    guard names.insert(name).inserted else { throw node.invalid("the step \(name) is named twice") }
                    let bytes = try FileIO.readBytes(
                        at: folder.appendingPathComponent(name).path, maxBytes: EditHistory.maxBytes + 64)
                    total += bytes.count
                    guard total <= 2 * EditHistory.maxBytes + (1 << 20) else {
                        throw node.invalid("the steps hold more than a history may")
                    }
                    guard let patch = HistoryPatch(decoding: bytes) else { throw node.invalid("the step \(name) is damaged") }
                    return EditHistory.Step(patch: patch, file: name)
                }
            }
            return Loaded(history: EditHistory(undo: try steps("undo"), redo: try steps("redo")))
        } catch {
            return Loaded(history: EditHistory(), note: "the undo history is unreadable and was reset (\(error))")
        }
    }

    /// The first half of a save: writes the steps not yet stored and the new index under a
    /// temporary name. Nothing the next load reads has changed until `commit`.
    func prepare(_ history: inout EditHistory, current: [UInt8]) throws(DocumentError) -> PreparedHistory {
        var written: [String] = []
        func store(_ steps: inout [EditHistory.Step]) throws(DocumentError) {
            for index in steps.indices where steps[index].file == nil {
                let name = String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".patch"
                do {
                    try AtomicFile.write(
                        steps[index].patch.encoded, to: folder.appendingPathComponent(name).path, permissions: 0o600)
                } catch {
                    for file in written { unlink(folder.appendingPathComponent(file).path) }
                    throw error
                }
                written.append(name)
                steps[index].file = name
            }
        }
        try store(&history.undo)
        try store(&history.redo)
        let root = index(current: current, undo: history.undo, redo: history.redo)
        do {
            let index = try AtomicFile.prepare(JSONWriter.prettyPrinted(root), to: indexURL.path, permissions: 0o600)
            let kept = Set((history.undo + history.redo).compactMap(\.file))
            return PreparedHistory(index: index, folder: folder, written: written, kept: kept)
        } catch {
            for file in written { unlink(folder.appendingPathComponent(file).path) }
            throw error
        }
    }

    /// Removes the stored history (a new document at the same path starts afresh).
    func reset() {
        try? FileManager.default.removeItem(at: indexURL)
        Self.removeSteps(in: folder, except: [])
    }

    /// Removes the stored history of a document another editor changed, keeping only that
    /// fact for its version `current`, so that every later undo of that version says why
    /// there is nothing to undo (see `DocumentEditor.historyIsElsewhere`).
    func reset(changedOutside current: [UInt8]) {
        reset()
        let root = index(current: current, undo: [], redo: [], changedOutside: true)
        try? AtomicFile.write(JSONWriter.prettyPrinted(root), to: indexURL.path, permissions: 0o600)
    }

    /// The index naming `undo` and `redo` for the document whose bytes are `current`;
    /// `changedOutside` marks an index kept only to say another editor wrote that version.
    private func index(current: [UInt8], undo: [EditHistory.Step], redo: [EditHistory.Step], changedOutside: Bool = false)
        -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [
            ("format", .string("org.easel.history")),
            ("version", .number(2)),
            ("document", .string(StateFolder.realPath(of: document))),
            ("documentHash", .string(EditHistory.hash(current))),
        ]
        if changedOutside { members.append(("changedOutside", .bool(true))) }
        members.append(("undo", .array(undo.map { .string($0.file ?? "") })))
        members.append(("redo", .array(redo.map { .string($0.file ?? "") })))
        return .object(members)
    }

    /// Removes step files the index no longer names.
    static func removeSteps(in folder: URL, except kept: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".patch") && !kept.contains(name) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}

/// A history written but not yet in force: commit it with the document, or discard it.
struct PreparedHistory {
    let index: PreparedFile
    let folder: URL
    /// Step files written for this save.
    let written: [String]
    /// Every step file the new index names.
    let kept: Set<String>

    /// Puts the new index in force and removes the step files it no longer names.
    func commit() throws(DocumentError) {
        try index.commit()
        HistoryStore.removeSteps(in: folder, except: kept)
    }

    /// Leaves the stored history as it was.
    func discard() {
        index.discard()
        for file in written { unlink(folder.appendingPathComponent(file).path) }
    }
}
