import EaselGeometry
import EaselDocuments
import EaselSupport
import Foundation

/// An open document being edited: the located value, its undo history (loaded from and
/// saved to `HistoryFile`), and atomic saving. `easel`'s editing commands and its
/// interactive `edit` session are built on this; library users can do the same. Any
/// registered document type that conforms to `EditableDocument` can be edited.
public struct DocumentEditor {
    /// The document's file (or package folder).
    public var url: URL { located.url }
    /// The document as it is now, with where it lives.
    public private(set) var located: LocatedDocument
    /// The document as it is now.
    public private(set) var document: any EditableDocument
    /// Earlier and undone versions, as saved bytes.
    public private(set) var history: History<[UInt8]>
    /// Problems noticed while opening (a legacy card, an invalid id).
    public var openWarnings: [DocumentWarning] { located.warnings }
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
        var opened = try registry.open(url)
        if locking {
            lock = try DocumentLock(for: url, timeout: lockTimeout)
            // Read it again under the lock: another easel may have saved it meanwhile.
            opened = try registry.open(url)
        } else {
            lock = nil
        }
        guard let document = opened.document as? any EditableDocument else {
            throw EditError("\(url.path): easel cannot edit a \(type(of: opened.document)) document")
        }
        self.registry = registry
        self.located = opened
        self.document = document
        self.baseBytes = try Self.contentBytes(of: opened)
        (history, historyNote) = HistoryFile.load(for: url, current: baseBytes)
    }

    /// Creates a new document file (refusing to replace an existing one) and opens it.
    public static func create(_ document: any EditableDocument, at url: URL, registry: DocumentRegistry = .standard) throws
        -> DocumentEditor
    {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw DocumentError(file: url.path, kind: .io("already exists; easel new does not replace files"))
        }
        try withExtendedLifetime(try DocumentLock(for: url)) {
            try registry.save(try registry.locate(document, at: url))
            try? FileManager.default.removeItem(at: HistoryFile.url(for: url))  // a leftover from an earlier file
        }
        return try DocumentEditor(opening: url, registry: registry)
    }

    /// Applies `edit`; records an undo step when the document changed. Returns whether it did.
    @discardableResult
    public mutating func perform(_ edit: (inout any EditableDocument) throws -> Void) throws -> Bool {
        var edited = document
        try edit(&edited)
        guard !edited.isEqual(to: document) else { return false }
        let before = try document.historyBytes(file: url.path)
        _ = try edited.historyBytes(file: url.path)  // refuse edits that could not be saved
        history.record(replacing: before)
        replace(with: edited)
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
        let current = try document.historyBytes(file: url.path)
        guard let previous = history.undo(from: current) else { return false }
        replace(with: try document.restored(from: previous, file: url.path))
        return true
    }

    /// Goes forward one undone edit. Returns false when there is nothing to redo.
    public mutating func redo() throws -> Bool {
        let current = try document.historyBytes(file: url.path)
        guard let next = history.redo(from: current) else { return false }
        replace(with: try document.restored(from: next, file: url.path))
        return true
    }

    /// Saves the document atomically, then its history. Refuses, leaving the file as it is,
    /// when the file changed on disk since it was opened or last saved (another program
    /// or another easel wrote it).
    public mutating func save() throws {
        let onDisk = try Self.contentBytes(of: located)
        guard onDisk == baseBytes else {
            throw DocumentError(
                file: url.path,
                kind: .io(
                    "the file changed on disk since easel opened it (another program or another easel wrote it); nothing was saved — open it again and redo the edit"
                ))
        }
        try registry.save(located)
        baseBytes = try Self.contentBytes(of: located)
        try HistoryFile.save(history, for: url, current: baseBytes)
        hasUnsavedChanges = false
    }

    /// A description of the document as `easel info` shows it.
    public var description: DocumentDescription {
        DocumentDescription(document, at: url, resourceFolder: located.resourceFolder, warnings: openWarnings)
    }

    private mutating func replace(with edited: any EditableDocument) {
        document = edited
        located.document = edited
        hasUnsavedChanges = true
    }

    /// The bytes that identify the saved document: the file, or a package's JSON.
    private static func contentBytes(of located: LocatedDocument) throws -> [UInt8] {
        try FileIO.readBytes(at: located.contentFile.path, maxBytes: type(of: located.document).maxFileBytes)
    }
}
