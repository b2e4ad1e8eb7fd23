import EaselDocuments
import EaselSupport
import Foundation

/// An open document being edited: the located value, its undo history, and saving. An
/// edit is one transaction: the document and its history change together or not at all.
/// `easel`'s editing commands and its interactive `edit` session are built on this;
/// library users can do the same. Any registered document type that conforms to
/// `EditableDocument` can be edited.
///
/// The history and the edit lock live in Easel's state folder (`$XDG_STATE_HOME/easel`),
/// keyed by the document's real path, so nothing is left beside the user's documents;
/// sidecars of earlier Easel versions (`.NAME.easel-history`, `.NAME.easel-lock`) are moved
/// there the first time the document is edited.
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
    /// True when there are edits not yet saved.
    public private(set) var hasUnsavedChanges = false
    /// Whether there is an edit to undo.
    public var canUndo: Bool { !history.undo.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !history.redo.isEmpty }
    /// The most undo steps kept for a document (the oldest are dropped first, also when
    /// the steps together pass 64 MiB).
    public static let maxUndoSteps = EditHistory.maxDepth

    private let registry: DocumentRegistry
    private var history: EditHistory
    /// Where the history is kept; nil when opened read-only.
    private let store: HistoryStore?
    /// The document's bytes as last read or written, to notice other writers.
    private var baseBytes: [UInt8]
    /// The document's bytes as it is now in memory (the saved form of `document`).
    private var currentBytes: [UInt8]
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
        let state = stateFolder.map(StateFolder.init(url:)) ?? .fromEnvironment
        var opened = try registry.open(url)
        if locking {
            let folder = try state.folder(forDocument: url)
            lock = try DocumentLock(at: folder.appendingPathComponent("lock"), for: url, timeout: lockTimeout)
            // Read it again under the lock: another easel may have saved it meanwhile.
            opened = try registry.open(url)
            store = HistoryStore(folder: folder, document: url)
        } else {
            lock = nil
            store = nil
        }
        guard let document = opened.document as? any EditableDocument else {
            throw EditError("\(url.path): easel cannot edit a \(type(of: opened.document)) document")
        }
        self.registry = registry
        self.located = opened
        self.document = document
        self.baseBytes = try Self.contentBytes(of: opened)
        self.currentBytes = try document.historyBytes(file: url.path)
        let readStore = store ?? HistoryStore(folder: state.location(forDocument: url), document: url)
        (history, historyNote) = readStore.load(current: baseBytes)
        if store != nil { try migrateLegacySidecars() }
    }

    /// Creates a new document file (refusing to replace an existing one) and opens it.
    public static func create(
        _ document: any EditableDocument, at url: URL, registry: DocumentRegistry = .standard, stateFolder: URL? = nil
    ) throws -> DocumentEditor {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw DocumentError(file: url.path, kind: .io("already exists; easel new does not replace files"))
        }
        let state = stateFolder.map(StateFolder.init(url:)) ?? .fromEnvironment
        let folder = try state.folder(forDocument: url)
        try withExtendedLifetime(try DocumentLock(at: folder.appendingPathComponent("lock"), for: url)) {
            try registry.save(try registry.locate(document, at: url))
            HistoryStore(folder: folder, document: url).reset()  // a leftover from an earlier file at this path
        }
        return try DocumentEditor(opening: url, registry: registry, stateFolder: stateFolder)
    }

    /// Applies `edit`; records an undo step when the document changed. Returns whether it
    /// did. Refuses an edit whose result could not be saved or opened again.
    @discardableResult
    public mutating func perform(_ edit: (inout any EditableDocument) throws -> Void) throws -> Bool {
        var edited = document
        try edit(&edited)
        guard !edited.isEqual(to: document) else { return false }
        let after = try edited.historyBytes(file: url.path)
        _ = try registry.fileWrapper(for: edited, at: url)  // refuses what could not be saved or opened again
        history.record(HistoryPatch.turning(after, into: currentBytes))
        replace(with: edited, bytes: after)
        return true
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
        guard let step = history.undo.last else { return false }
        let previous = try restore(step.patch)
        history.undo.removeLast()
        history.redo.append(EditHistory.Step(patch: HistoryPatch.turning(previous, into: currentBytes)))
        history.trim()
        replace(with: try document.restored(from: previous, file: url.path), bytes: previous)
        return true
    }

    /// Goes forward one undone edit. Returns false when there is nothing to redo.
    public mutating func redo() throws -> Bool {
        guard let step = history.redo.last else { return false }
        let next = try restore(step.patch)
        history.redo.removeLast()
        history.undo.append(EditHistory.Step(patch: HistoryPatch.turning(next, into: currentBytes)))
        history.trim()
        replace(with: try document.restored(from: next, file: url.path), bytes: next)
        return true
    }

    /// Saves the document and its history as one transaction: every new file is written
    /// and flushed first (where a full disk fails, before anything visible changed), then
    /// the document and the history are renamed into place; should the second rename fail,
    /// the document is put back. Refuses, leaving the file as it is, when the file changed
    /// on disk since it was opened or last saved (another program or another easel wrote it).
    public mutating func save() throws {
        let onDisk = try Self.contentBytes(of: located)
        guard onDisk == baseBytes else {
            throw DocumentError(
                file: url.path,
                kind: .io(
                    "the file changed on disk since easel opened it (another program or another easel wrote it); nothing was saved — open it again and redo the edit"
                ))
        }
        let wrapper = try registry.fileWrapper(for: document, at: url)
        guard let store else {
            try wrapper.write(to: url)
            baseBytes = try Self.contentBytes(of: located)
            hasUnsavedChanges = false
            return
        }
        var newHistory = history
        let preparedHistory: PreparedHistory
        let preparedDocument: [PreparedFile]
        do {
            preparedHistory = try store.prepare(&newHistory, current: currentBytes)
        } catch {
            throw Self.nothingSaved(error, url: url)
        }
        do {
            preparedDocument = try wrapper.prepareWrite(to: url)
        } catch {
            preparedHistory.discard()
            throw Self.nothingSaved(error, url: url)
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
            if committed > 0 { try? AtomicFile.write(baseBytes, to: located.contentFile.path) }
            throw Self.nothingSaved(error, url: url)
        }
        do {
            try preparedHistory.commit()
        } catch {
            // The document is saved but its history is not: put the document back.
            preparedHistory.discard()
            do {
                try AtomicFile.write(baseBytes, to: located.contentFile.path)
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
        baseBytes = try Self.contentBytes(of: located)
        hasUnsavedChanges = false
    }

    /// A description of the document as `easel info` shows it.
    public var description: DocumentDescription {
        DocumentDescription(document, at: url, resourceFolder: located.resourceFolder, warnings: openWarnings)
    }

    /// The failure of a save that changed nothing, saying so.
    private static func nothingSaved(_ error: Error, url: URL) -> DocumentError {
        let reason =
            (error as? DocumentError).map { error in
                if case .io(let message) = error.kind { return message }
                return error.description
            } ?? "\(error)"
        return DocumentError(
            file: url.path, kind: .io("\(reason); nothing was saved: the document and its undo history are as they were"))
    }

    /// The version a stored step leads to from the current bytes.
    private func restore(_ patch: HistoryPatch) throws -> [UInt8] {
        guard let bytes = patch.applied(to: currentBytes) else {
            throw DocumentError(file: url.path, kind: .io("the undo history does not fit the document; it was not applied"))
        }
        return bytes
    }

    private mutating func replace(with edited: any EditableDocument, bytes: [UInt8]) {
        document = edited
        currentBytes = bytes
        located.document = edited
        hasUnsavedChanges = true
    }

    /// Moves a history kept beside the document by an earlier Easel into the state folder,
    /// and removes the sidecars.
    private mutating func migrateLegacySidecars() throws {
        guard let store, let legacy = LegacyHistorySidecar.load(for: url, current: baseBytes) else { return }
        if let versions = legacy, history.undo.isEmpty, history.redo.isEmpty {
            let (undo, redo) = versions
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
