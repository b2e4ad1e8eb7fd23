import EaselDocuments
import EaselRender
import EaselSupport
import FoundationEssentials
import Glibc

/// An open document being edited: the located value, its undo history, and saving. An
/// edit is one transaction: the document and its history change together or not at all.
/// `easel`'s editing commands and its interactive `edit` session are built on this;
/// library users can do the same. Any registered document type that conforms to
/// `EditableDocument` can be edited.
///
/// The history lives in Easel's state folder (`$XDG_STATE_HOME/easel`), keyed by the
/// document's real path; sidecars of earlier Easel versions (`.NAME.easel-history`,
/// `.NAME.easel-lock`) are moved there the first time the document is edited. The edit lock
/// lives beside the document (`DocumentLock`), where every editor of the folder sees it,
/// whether or not they share a state folder.
public struct DocumentEditor {
    /// The document's file (or package folder).
    public var url: URL { located.url }
    /// The document as it is now, with where it lives.
    public private(set) var located: LocatedDocument
    /// The document as it is now.
    public private(set) var document: any EditableDocument
    /// Problems noticed while opening (a legacy card, an invalid id).
    public var openWarnings: [DocumentWarning] { located.warnings }
    /// Why the stored history was not used, or what happened to it, if anything did.
    public private(set) var historyNote: String?
    /// The document file's bytes as they were read or last saved (a package's: its content
    /// file's), of the same version as `document` was read from and as its history.
    package var savedContentBytes: [UInt8] { baseBytes }
    /// True when there are edits not yet saved.
    public private(set) var hasUnsavedChanges = false
    /// Whether there is an edit to undo.
    public var canUndo: Bool { !history.undo.isEmpty || !pending.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !history.redo.isEmpty || !pendingRedo.isEmpty }
    /// True when this state folder holds no history of the document as it is now: it was
    /// never edited with this state folder, or last written by an editor whose history is
    /// elsewhere (an `easel serve` replica with a state folder of its own, the CLI of another
    /// user, another program). Undo and redo then have nothing, and the reason is this, not
    /// that nothing was done.
    public private(set) var historyIsElsewhere = false
    /// The most undo steps kept for a document (the oldest are dropped first, also when
    /// the steps together pass 64 MiB).
    public static let maxUndoSteps = EditHistory.maxDepth

    private let registry: DocumentRegistry
    private var history: EditHistory
    /// Where the history is kept; nil when opened read-only.
    private let store: HistoryStore?
    /// The document's bytes as last read or written, to notice other writers.
    private var baseBytes: [UInt8]
    /// The saved form of `document` when known: the bytes it was read from (the file as
    /// opened, or as an undo step kept it), else its encoding once worked out (edits clear
    /// it; encoding a large document is the expensive step, so it is done only when
    /// needed). Saving writes these bytes, so undoing back to a version restores its file
    /// byte for byte, even one Easel did not write.
    private var encodedCurrent: [UInt8]?
    /// A version of the document kept in memory, with its saved form when known.
    private struct Version {
        var document: any EditableDocument
        var bytes: [UInt8]?

        func savedBytes(file: String) throws -> [UInt8] { try bytes ?? document.historyBytes(file: file) }
    }
    /// Versions before the edits made since the last save, oldest first: the newest undo
    /// steps, kept as values so that an edit costs no encoding (a session of thousands of
    /// piped commands stays linear); they become patches when saved.
    private var pending: [Version] = []
    /// Versions undone from `pending`, as values: redo steps below those in `history.redo`.
    private var pendingRedo: [Version] = []
    /// Held while the document is open for editing, so no other easel edits it at the same
    /// time (nil when opened read-only).
    private let lock: DocumentLock?

    /// Opens an existing document. For editing (`locking`), takes its lock, waiting up to
    /// `lockTimeout` seconds for another easel to finish with it. Opened read-only, nothing
    /// is written anywhere. `stateFolder` is where histories and locks are kept (default:
    /// `$XDG_STATE_HOME/easel`).
    public init(
        opening url: URL, registry: DocumentRegistry = .standard, locking: Bool = true, lockTimeout: Double = 5,
        stateFolder: URL? = nil
    ) throws {
        // A document reached through a symbolic link is edited where it is, as editors do:
        // saving replaces the target, not the link with a copy that forks from it.
        let url = Self.followingLink(url)
        let state = stateFolder.map(StateFolder.init(url:)) ?? .fromEnvironment
        let opened: LocatedDocument
        let bytes: [UInt8]
        let loaded: HistoryStore.Loaded
        if locking {
            // Not a document, or not one easel reads: said before anything is made for it.
            _ = try registry.open(url)
            let folder = try state.folder(forDocument: url)
            lock = try DocumentLock(beside: url, timeout: lockTimeout)
            // Read it again under the lock: another easel may have saved it meanwhile. The
            // document and the bytes a save compares with come from one read: read twice, a
            // write landing between the two would be taken for the version opened, and
            // overwritten by the next save.
            let read = try registry.openReadingContent(url)
            opened = read.located
            let store = HistoryStore(folder: folder, document: url)
            self.store = store
            bytes = try read.content ?? Self.contentBytes(of: opened)
            loaded = store.load(current: bytes)
        } else {
            lock = nil
            store = nil
            (opened, bytes, loaded) = try Self.readAsOneVersion(url, registry: registry, state: state)
        }
        guard let document = opened.document as? any EditableDocument else {
            throw EditError("\(url.path): easel cannot edit a \(type(of: opened.document)) document")
        }
        self.registry = registry
        self.located = opened
        self.document = document
        self.baseBytes = bytes
        self.encodedCurrent = baseBytes
        (history, historyNote, historyIsElsewhere) = (loaded.history, loaded.note, loaded.isElsewhere)
        // A history made for another version of the document (it changed outside easel) is
        // removed at once, under the lock: said once, even if this edit fails. One that could
        // not be read is left for a save to replace: the fault may pass (a file limit, a
        // newer Easel's format).
        if let store, historyNote == HistoryStore.changedOutsideNote { store.reset(changedOutside: baseBytes) }
        if store != nil { try migrateLegacySidecars() }
    }

    /// The document at `url`, its content file's bytes and its history, read without the
    /// lock as one version. An editor saving renames the document into place, then its
    /// history, all while it holds the lock: read across a rename, or between the two, they
    /// are of two versions (the revision named is not the document described; the history
    /// looks made for another, or absent, with nothing to undo). So the read waits while an
    /// editor holds the lock; when none holds it just after the content file is noted, and
    /// the file is not replaced before the read ends, no save came between. Otherwise (an
    /// editor holding the lock longer, or coming in meanwhile) it reads again, at most three
    /// times in all, and takes a read whose file was not replaced and whose history belongs
    /// to it. A history that still disagrees was made for another version.
    private static func readAsOneVersion(
        _ url: URL, registry: DocumentRegistry, state: StateFolder
    ) throws -> (LocatedDocument, [UInt8], HistoryStore.Loaded) {
        let store = HistoryStore(folder: state.location(forDocument: url), document: url)
        // Read only from a state folder of this user's alone (an editing one is checked when made).
        let readsHistory = state.isPrivate(down: store.folder)
        let contentFile = registry.location(of: url)?.contentFile.path
        var attempt = 1
        while true {
            DocumentLock.waitWhileHeld(beside: url, timeout: 0.5)
            let before = contentFile.map(replacementMark(of:))
            let noEditor = DocumentLock.waitWhileHeld(beside: url, timeout: 0)
            let (opened, content) = try registry.openReadingContent(url)
            let bytes = try content ?? contentBytes(of: opened)
            let loaded =
                readsHistory ? store.load(current: bytes) : HistoryStore.Loaded(history: EditHistory(), isElsewhere: true)
            let unchanged = before?.isEmpty == false && before == contentFile.map(replacementMark(of:))
            let agrees = loaded.note != HistoryStore.changedOutsideNote
            if attempt == 3 || (unchanged && (noEditor || agrees)) { return (opened, bytes, loaded) }
            attempt += 1
        }
    }

    /// What changes when the file at `path` is replaced or written: its device and inode
    /// (a save renames a new file into place), size and status-change time. Empty when it
    /// cannot be read.
    private static func replacementMark(of path: String) -> [Int] {
        var status = stat()
        guard lstat(path, &status) == 0 else { return [] }
        return [
            Int(truncatingIfNeeded: status.st_dev), Int(truncatingIfNeeded: status.st_ino), Int(status.st_size),
            Int(status.st_ctim.tv_sec), Int(status.st_ctim.tv_nsec),
        ]
    }

    /// `url`, or the file it names when it is a symbolic link (resolved to its real path).
    static func followingLink(_ url: URL) -> URL {
        var status = stat()
        guard lstat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK,
            let real = realpath(url.path, nil)
        else { return url }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real))
    }

    /// Why `create` refused: something is at the path already (see `isAlreadyExists`).
    public static let alreadyExistsReason = "already exists; easel new does not replace files"

    /// True when `error` is `create`'s refusal of a path already taken (a caller choosing
    /// names, such as the server's "Untitled 2", then tries the next one).
    public static func isAlreadyExists(_ error: any Error) -> Bool {
        (error as? DocumentError)?.kind == .io(alreadyExistsReason)
    }

    /// Creates a new document file and opens it, never replacing anything: the file (or
    /// package) is written beside its path under a hidden name and moved into place only if
    /// the name is still free, in one step, so two creators of one name (two requests, a
    /// request and `easel new`) get one file and one refusal, never one file overwritten.
    public static func create(
        _ document: any EditableDocument, at url: URL, registry: DocumentRegistry = .standard, stateFolder: URL? = nil
    ) throws -> DocumentEditor {
        guard !FileIO.entryExists(atPath: url.path) else {
            throw DocumentError(file: url.path, kind: .io(alreadyExistsReason))
        }
        // The type is checked at the path given, before a hidden temporary name stands in for it.
        _ = try registry.locate(document, at: url)
        let state = stateFolder.map(StateFolder.init(url:)) ?? .fromEnvironment
        let folder = try state.folder(forDocument: url)
        try withExtendedLifetime(try DocumentLock(beside: url)) {
            let temporary = url.deletingLastPathComponent().appendingPathComponent(
                ".easel-new-\(UUID().uuidString).\(url.pathExtension)")
            do {
                try registry.save(try registry.locate(document, at: temporary))
                guard try FileIO.moveIntoFreeName(temporary.path, to: url.path) else {
                    throw DocumentError(file: url.path, kind: .io(alreadyExistsReason))
                }
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw error
            }
            HistoryStore(folder: folder, document: url).reset()  // a leftover from an earlier file at this path
        }
        return try DocumentEditor(opening: url, registry: registry, stateFolder: stateFolder)
    }

    /// Applies `edit`; records an undo step when the document changed. Returns whether it
    /// did. (A result Easel could not open again is refused when it is saved.)
    @discardableResult
    public mutating func perform(_ edit: (inout any EditableDocument) throws -> Void) throws -> Bool {
        var edited = document
        try edit(&edited)
        guard !edited.isEqual(to: document) else { return false }
        pending.append(Version(document: document, bytes: encodedCurrent))
        pendingRedo.removeAll()
        history.redo.removeAll()
        try trimPending()
        replace(with: edited, bytes: nil)
        return true
    }

    /// Keeps the history within its bounds: at most `maxUndoSteps` steps, and only as many
    /// versions in memory as 64 MiB of saved document holds (a huge document turns its
    /// older steps into patches at once).
    private mutating func trimPending() throws {
        while history.undo.count + pending.count > EditHistory.maxDepth {
            if history.undo.isEmpty { pending.removeFirst() } else { history.undo.removeFirst() }
        }
        let inMemory = max(1, min(EditHistory.maxDepth, (64 << 20) / max(1, baseBytes.count)))
        while pending.count > inMemory {
            let older = try pending[0].savedBytes(file: url.path)
            let newer = try pending.count > 1 ? pending[1].savedBytes(file: url.path) : currentBytes()
            history.undo.append(EditHistory.Step(patch: HistoryPatch.turning(newer, into: older)))
            pending.removeFirst()
        }
    }

    /// Adds the element `request` describes; its images go into the document's resource
    /// folder. Returns where it went.
    public mutating func add(_ request: ElementRequest) throws -> AddedElement {
        var added = AddedElement(index: 0, kind: request.kind)
        let folder = located.resourceFolder
        try perform { document in added = try document.add(request, resourceFolder: folder) }
        return added
    }

    /// Goes back one edit. Returns false when there is nothing to undo.
    public mutating func undo() throws -> Bool {
        if let previous = pending.popLast() {
            pendingRedo.append(Version(document: document, bytes: encodedCurrent))
            replace(with: previous.document, bytes: previous.bytes)
            return true
        }
        guard let step = history.undo.last else { return false }
        try materializePendingRedo()
        let current = try currentBytes()
        guard let previous = step.patch.applied(to: current) else { throw Self.historyMismatch(url) }
        let restored = try restoring(previous, "undo", blocking: \.undo)
        history.undo.removeLast()
        history.redo.append(EditHistory.Step(patch: HistoryPatch.turning(previous, into: current)))
        replace(with: restored, bytes: previous)
        return true
    }

    /// Goes forward one undone edit. Returns false when there is nothing to redo.
    public mutating func redo() throws -> Bool {
        if let step = history.redo.last {
            let current = try currentBytes()
            guard let next = step.patch.applied(to: current) else { throw Self.historyMismatch(url) }
            let restored = try restoring(next, "redo", blocking: \.redo)
            history.redo.removeLast()
            history.undo.append(EditHistory.Step(patch: HistoryPatch.turning(next, into: current)))
            replace(with: restored, bytes: next)
            return true
        }
        guard let next = pendingRedo.popLast() else { return false }
        pending.append(Version(document: document, bytes: encodedCurrent))
        replace(with: next.document, bytes: next.bytes)
        return true
    }

    /// The saved form of the current document.
    private mutating func currentBytes() throws -> [UInt8] {
        if let encodedCurrent { return encodedCurrent }
        let bytes = try document.historyBytes(file: url.path)
        encodedCurrent = bytes
        return bytes
    }

    /// Turns the in-memory undo versions into patch steps on top of `history.undo`.
    private mutating func materializePending() throws {
        guard !pending.isEmpty else { return }
        var newer = try currentBytes()
        var steps: [EditHistory.Step] = []
        for version in pending.reversed() {
            let older = try version.savedBytes(file: url.path)
            steps.append(EditHistory.Step(patch: HistoryPatch.turning(newer, into: older)))
            newer = older
        }
        history.undo += steps.reversed()
        pending.removeAll()
    }

    /// Turns the in-memory redo versions into patch steps below `history.redo` (which is
    /// empty whenever there are any: see `undo`).
    private mutating func materializePendingRedo() throws {
        guard !pendingRedo.isEmpty else { return }
        var from = try currentBytes()
        var steps: [EditHistory.Step] = []
        for version in pendingRedo.reversed() {
            let next = try version.savedBytes(file: url.path)
            steps.append(EditHistory.Step(patch: HistoryPatch.turning(from, into: next)))
            from = next
        }
        history.redo = steps.reversed() + history.redo
        pendingRedo.removeAll()
    }

    /// Saves the document and its history as one transaction: every new file is written
    /// and flushed first (where a full disk fails, before anything visible changed), then
    /// the document and the history are renamed into place; should the second rename fail,
    /// the document is put back. Refuses, leaving the file as it is, when the file changed
    /// on disk since it was opened or last saved (another program or another easel wrote it).
    public mutating func save() throws {
        try checkUnchangedOnDisk()
        // A file its owner made read-only is left alone: replacing it needs only the folder's
        // permission, and would both ignore the protection and take the file over.
        if access(located.contentFile.path, W_OK) != 0 && (errno == EACCES || errno == EPERM) {
            throw DocumentError(
                file: url.path,
                kind: .readOnly("is read-only (its permissions do not let you write it); nothing was saved"))
        }
        // Easel must open what it saves. Each edit checks the element it makes (see
        // `ElementFormatCheck`); this whole-document check is the last line, before any write.
        do {
            _ = try document.restored(from: try currentBytes(), file: url.path)
        } catch let error as DocumentError {
            throw DocumentError(
                file: url.path,
                kind: .io(
                    "the edit would make a document Easel cannot open again (\(error.reason)); nothing was saved — undo it or change it"
                ))
        }
        // The version's own bytes when they are known (undone to the file as it was).
        let wrapper = try registry.fileWrapper(for: document, at: url)
            .replacingContent(at: located.contentFile, of: url, with: try currentBytes())
        try materializePending()
        try materializePendingRedo()
        history.trim()
        guard let store else {
            try wrapper.write(to: url)
            baseBytes = try savedBytes(of: wrapper)
            hasUnsavedChanges = false
            announceUpgrade()
            return
        }
        var newHistory = history
        let preparedHistory: PreparedHistory
        let preparedDocument: [PreparedFile]
        do {
            preparedHistory = try store.prepare(&newHistory, current: try currentBytes())
        } catch {
            throw Self.nothingSaved(error, url: url)
        }
        do {
            preparedDocument = try wrapper.prepareWrite(to: url)
        } catch {
            preparedHistory.discard()
            throw Self.nothingSaved(error, url: url)
        }
        // Checked again now that everything is written and flushed, just before the renames:
        // another program that saved meanwhile (an export of a large document takes a while
        // to write) must not lose its change.
        do {
            try checkUnchangedOnDisk()
        } catch {
            for file in preparedDocument { file.discard() }
            preparedHistory.discard()
            throw error
        }
        var committed = 0
        do {
            for file in preparedDocument {
                try file.commit()
                committed += 1
            }
        } catch {
            for file in preparedDocument.dropFirst(committed + 1) { file.discard() }
            preparedHistory.discard()
            if committed > 0 { try? putBack(replacing: try currentBytes()) }
            throw Self.nothingSaved(error, url: url)
        }
        do {
            try preparedHistory.commit()
        } catch {
            // The document is saved but its history is not: put the document back.
            preparedHistory.discard()
            do {
                try putBack(replacing: try currentBytes())
            } catch let restoreError {
                throw DocumentError(
                    file: url.path,
                    kind: .io(
                        "the edit was saved but its undo history could not be (\(error)), and the document could not be put back (\(restoreError)); undo is not available for this edit"
                    ))
            }
            throw Self.nothingSaved(error, url: url)
        }
        history = newHistory
        baseBytes = try savedBytes(of: wrapper)
        hasUnsavedChanges = false
        announceUpgrade()
    }

    /// What a save just wrote to the content file: the bytes of `wrapper`'s content, not the
    /// file read again, which a program writing just after the rename would have changed, and
    /// its change then taken for easel's own and overwritten by the next save.
    private func savedBytes(of wrapper: FileWrapper) throws -> [UInt8] {
        try wrapper.content(at: located.contentFile, of: url) ?? Self.contentBytes(of: located)
    }

    /// Puts the content file back as it was before a save that failed halfway, but only
    /// while it still holds what that save wrote (`written`): a program that wrote it just
    /// after easel's rename keeps its version, and a file the save never reached stays as it
    /// is. The old bytes are written and flushed first, so the check sits just before the
    /// rename, as a save's own last check does.
    private func putBack(replacing written: [UInt8]) throws(DocumentError) {
        let restored = try AtomicFile.prepare(baseBytes, to: located.contentFile.path)
        guard (try? Self.contentBytes(of: located)) == written else {
            restored.discard()
            return
        }
        try restored.commit()
    }

    /// Throws, leaving everything as it is, when the document on disk is no longer what
    /// easel read or last wrote (another program or another easel wrote it).
    private func checkUnchangedOnDisk() throws {
        guard try Self.contentBytes(of: located) == baseBytes else {
            throw DocumentError(
                file: url.path,
                kind: .io(
                    "the file changed on disk since easel opened it (another program or another easel wrote it); nothing was saved — open it again and redo the edit"
                ))
        }
    }

    /// Set by the first save of a document read in an older format (a legacy card): what
    /// that save changed, for the editor to tell the user once. Nil otherwise.
    public private(set) var formatUpgrade: String?
    private var upgradeAnnounced = false

    private mutating func announceUpgrade() {
        guard !upgradeAnnounced, let warning = openWarnings.first(where: \.upgradesFormatOnSave) else { return }
        upgradeAnnounced = true
        formatUpgrade = "\(url.path): saved in the current format — \(warning.message)"
    }

    /// A description of the document as `easel info` shows it.
    public var description: DocumentDescription {
        DocumentDescription(
            document, at: url, resourceFolder: located.resourceFolder,
            warnings: openWarnings + ((try? DocumentRenderer.warnings(for: LocatedDocument(document, at: url))) ?? []))
    }

    /// The failure of a save that changed nothing, saying so.
    private static func nothingSaved(_ error: Error, url: URL) -> DocumentError {
        let reason = (error as? DocumentError)?.reason ?? "\(error)"
        return DocumentError(
            file: url.path, kind: .io("\(reason); nothing was saved: the document and its undo history are as they were"))
    }

    /// The document a history step's bytes make, read before anything changes: a step that
    /// makes no valid document is the history's fault, said as such (not the document's,
    /// which is left as it was). The damaged step and those behind it in `steps` (which can
    /// only be reached through it) are dropped, and the history kept without them when the
    /// document has no unsaved changes: the next undo or redo does not fail on it again.
    private mutating func restoring(
        _ bytes: [UInt8], _ verb: String, blocking steps: WritableKeyPath<EditHistory, [EditHistory.Step]>
    ) throws -> any EditableDocument {
        do {
            return try document.restored(from: bytes, file: url.path)
        } catch {
            let dropped = history[keyPath: steps].count
            history[keyPath: steps].removeAll()
            var kept = ""
            if let store, !hasUnsavedChanges, pending.isEmpty, pendingRedo.isEmpty {
                var trimmed = history
                do {
                    try store.prepare(&trimmed, current: baseBytes).commit()
                    history = trimmed
                } catch {
                    kept = " (this could not be saved: \(error.reason))"
                }
            }
            throw DocumentError(
                file: url.path,
                kind: .io(
                    "the undo history is damaged: the step to \(verb) does not make a valid document (\(error.reason)); the document is unchanged, and the \(verb) steps from there on (\(dropped)) were dropped from the history, as they can never be applied\(kept)"
                ))
        }
    }

    private static func historyMismatch(_ url: URL) -> DocumentError {
        DocumentError(file: url.path, kind: .io("the undo history does not fit the document; it was not applied"))
    }

    private mutating func replace(with edited: any EditableDocument, bytes: [UInt8]?) {
        document = edited
        encodedCurrent = bytes
        located.document = edited
        hasUnsavedChanges = true
    }

    /// Moves a history kept beside the document by an earlier Easel into the state folder,
    /// and removes the sidecars.
    private mutating func migrateLegacySidecars() throws {
        guard let store else { return }
        let found = LegacyHistorySidecar.load(for: url, current: baseBytes)
        if case .none = found { return }
        if case .versions(let undo, let redo) = found, history.undo.isEmpty, history.redo.isEmpty {
            var migrated = EditHistory()
            // Versions are stored oldest first; each step turns the newer one into the older.
            let undoChain = undo + [baseBytes]
            for index in 1..<undoChain.count {
                migrated.undo.append(EditHistory.Step(patch: HistoryPatch.turning(undoChain[index], into: undoChain[index - 1])))
            }
            let redoChain = redo + [baseBytes]
            for index in 1..<redoChain.count {
                migrated.redo.append(EditHistory.Step(patch: HistoryPatch.turning(redoChain[index], into: redoChain[index - 1])))
            }
            migrated.trim()
            let prepared = try store.prepare(&migrated, current: baseBytes)
            try prepared.commit()
            history = migrated
            historyNote = "moved the undo history from beside the document into \(store.folder.path)"
        }
        LegacyHistorySidecar.remove(for: url)
    }

    /// The bytes that identify the saved document: the file, or a package's JSON.
    private static func contentBytes(of located: LocatedDocument) throws -> [UInt8] {
        try FileIO.readBytes(at: located.contentFile.path, maxBytes: type(of: located.document).maxFileBytes)
    }
}
