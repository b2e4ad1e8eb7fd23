import Foundation

/// An open document being edited: the value, its undo history (loaded from and saved to
/// `HistoryFile`), and atomic saving. `easel`'s editing commands and its interactive
/// `edit` session are built on this; library users can do the same.
public struct DocumentEditor {
    public let url: URL
    public private(set) var document: EditableDocument
    public private(set) var history: History<[UInt8]>
    /// Problems noticed while opening (a legacy card, an invalid id).
    public private(set) var openWarnings: [DocumentWarning]
    /// Why the stored history was not used, if it was not.
    public private(set) var historyNote: String?
    /// True when there are edits not yet saved.
    public private(set) var hasUnsavedChanges = false
    private let registry: DocumentRegistry
    /// The document's bytes as last read or written, to notice other writers.
    private var baseBytes: [UInt8]
    /// Held while the document is open for editing, so no other easel edits it at the same
    /// time (nil when opened read-only).
    private let lock: DocumentLock?

    /// Opens an existing document. For editing (`locking`), takes its lock, waiting up to
    /// `lockTimeout` seconds for another easel to finish with it; the lock file is created
    /// only for a document that opens, so a failed command leaves the folder as it was.
    public init(opening url: URL, registry: DocumentRegistry = .standard, locking: Bool = true, lockTimeout: Double = 5) throws {
        var warnings: [DocumentWarning] = []
        var opened = try registry.open(url, warnings: &warnings)
        if locking {
            lock = try DocumentLock(for: url, timeout: lockTimeout)
            // Read it again under the lock: another easel may have saved it meanwhile.
            warnings = []
            opened = try registry.open(url, warnings: &warnings)
        } else {
            lock = nil
        }
        guard let document = EditableDocument(opened) else {
            throw EditError("\(url.path): easel cannot edit a \(type(of: opened)) document")
        }
        self.url = url
        self.registry = registry
        self.document = document
        self.openWarnings = warnings
        self.baseBytes = try Self.documentBytes(at: url)
        (history, historyNote) = HistoryFile.load(for: url, current: baseBytes)
    }

    /// Creates a new document file (refusing to replace an existing one) and opens it.
    public static func create(_ document: EditableDocument, at url: URL, registry: DocumentRegistry = .standard) throws -> DocumentEditor {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw DocumentError(file: url.path, kind: .io("already exists; easel new does not replace files"))
        }
        try withExtendedLifetime(try DocumentLock(for: url)) {
            try registry.save(document.fileDocument, to: url)
            try? FileManager.default.removeItem(at: HistoryFile.url(for: url)) // a leftover from an earlier file
        }
        return try DocumentEditor(opening: url, registry: registry)
    }

    /// Applies `edit`; records an undo step when the document changed. Returns whether it did.
    @discardableResult
    public mutating func perform(_ edit: (inout EditableDocument) throws -> Void) throws -> Bool {
        var edited = document
        try edit(&edited)
        guard edited != document else { return false }
        let before = try document.encoded(file: url.path)
        _ = try edited.encoded(file: url.path) // refuse edits that could not be saved
        history.record(replacing: before)
        document = edited
        hasUnsavedChanges = true
        return true
    }

    /// Goes back one edit. Returns false when there is nothing to undo.
    public mutating func undo() throws -> Bool {
        let current = try document.encoded(file: url.path)
        guard let previous = history.undo(from: current) else { return false }
        document = try EditableDocument.decode(previous, like: document, file: url.path)
        hasUnsavedChanges = true
        return true
    }

    /// Goes forward one undone edit. Returns false when there is nothing to redo.
    public mutating func redo() throws -> Bool {
        let current = try document.encoded(file: url.path)
        guard let next = history.redo(from: current) else { return false }
        document = try EditableDocument.decode(next, like: document, file: url.path)
        hasUnsavedChanges = true
        return true
    }

    /// Saves the document atomically, then its history. Refuses, leaving the file as it is,
    /// when the file changed on disk since it was opened or last saved (another program
    /// or another easel wrote it).
    public mutating func save() throws {
        let onDisk = try Self.documentBytes(at: url)
        guard onDisk == baseBytes else {
            throw DocumentError(file: url.path, kind: .io("the file changed on disk since easel opened it (another program or another easel wrote it); nothing was saved — open it again and redo the edit"))
        }
        try registry.save(document.fileDocument, to: url)
        baseBytes = try Self.documentBytes(at: url)
        try HistoryFile.save(history, for: url, current: baseBytes)
        hasUnsavedChanges = false
    }

    /// The bytes that identify the saved document: the file, or a package's JSON.
    static func documentBytes(at url: URL) throws -> [UInt8] {
        try FileIO.readBytes(at: Drawing.documentFile(for: url).path, maxBytes: DrawingLimits.maxFileBytes)
    }
}
