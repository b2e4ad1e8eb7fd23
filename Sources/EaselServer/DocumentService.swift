import EaselBatch
import EaselCairo
import EaselDocuments
import EaselEditing
import EaselRender
import EaselSupport
import Foundation

/// What `easel serve` does with the served folder's documents, without HTTP: list them,
/// describe one as `easel info --json` does, render one (through the render cache), and
/// edit, undo and redo with the same history and locks as the CLI. Every method blocks
/// (files, locks, rendering); the routes call them off the server's event loops.
final class DocumentService: Sendable {
    let folder: ServedFolder
    let registry: DocumentRegistry
    let cache: RenderCache
    let limits: ServerLimits
    /// Where histories and locks are kept (nil: `$XDG_STATE_HOME/easel`, as the CLI).
    let stateFolder: URL?
    /// Where histories, locks, uploads, the trash and the disk cache are kept: `stateFolder`,
    /// or the environment's.
    let state: StateFolder

    init(folder: ServedFolder, registry: DocumentRegistry, limits: ServerLimits, stateFolder: URL?) {
        self.folder = folder
        self.registry = registry
        self.limits = limits
        self.stateFolder = stateFolder
        let state = stateFolder.map(StateFolder.init(url:)) ?? .fromEnvironment
        self.state = state
        cache = RenderCache(
            maxBytes: limits.cacheBytes,
            disk: limits.diskCacheBytes > 0
                ? DiskRenderCache(folder: state.url.appendingPathComponent("render-cache"), maxBytes: limits.diskCacheBytes) : nil
        )
    }

    // MARK: Finding documents

    /// The document at `relativePath`; a 404 problem when there is none inside the folder.
    func document(at relativePath: String) throws(Problem) -> URL {
        // (Found by a walk that lstat()s every component: it exists.)
        guard let url = folder.document(at: relativePath, registry: registry) else {
            // Named as decoded (`a b.drawing`, not `a%20b.drawing`), as every other message names it.
            let shown = relativePath.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.removingPercentEncoding ?? String($0) }.joined(separator: "/")
            throw Problem(.notFound, "no document \(shown.quotedForMessage) in the served folder", document: shown)
        }
        return url
    }

    /// The revision of a document: a hash of its saved bytes (a package's JSON), quoted as an
    /// ETag is. It changes with every saved change, whoever made it.
    func revision(of url: URL) throws -> String {
        guard let location = registry.location(of: url) else { throw Problem(.notFound, "not a document") }
        let bytes = try FileIO.readBytes(at: location.contentFile.path, maxBytes: 256 << 20)
        return Self.revision(of: bytes)
    }

    static func revision(of bytes: [UInt8]) -> String {
        let hex = String(FNV1a.hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Listing

    /// Summaries by the document's path (by its bytes, as render keys), with the stamps
    /// of the document and of every image it draws when it was summarised.
    private let summaries = Locked(
        [[UInt8]: (stamp: FileStamp, images: [(path: String, stamp: FileStamp?)], summary: DocumentSummary)]())

    /// Every document below the folder, and every entry named like one that cannot be
    /// served, with the reason. Summaries are remembered until the file or one of its
    /// images changes (an image added or removed changes the warnings), and forgotten when
    /// the document is no longer listed (documents made and deleted do not pile up).
    func list() -> [DocumentSummary] {
        let entries = DocumentScanner.scan(folder.url, registry: registry)
        let listed = Set(entries.map { Array($0.relativePath.utf8) })
        summaries.withLock { known in known = known.filter { listed.contains($0.key) } }
        return entries.map { entry in
            if let problem = entry.problem { return DocumentSummary(path: entry.relativePath, problem: problem) }
            let url = URL(fileURLWithPath: folder.realPath + "/" + entry.relativePath)
            guard let location = registry.location(of: url), let stamp = FileStamp.of(location.contentFile.path) else {
                return DocumentSummary(path: entry.relativePath, problem: "the document disappeared while being listed")
            }
            let key = Array(entry.relativePath.utf8)
            if let known = summaries.withLock({ $0[key] }), known.stamp == stamp,
                known.images.allSatisfy({ FileStamp.of($0.path) == $0.stamp })
            {
                return known.summary
            }
            var summary = DocumentSummary(path: entry.relativePath)
            var images: [(path: String, stamp: FileStamp?)] = []
            summary.size = Int(stamp.size)
            summary.modified = Self.timestamp(nanoseconds: stamp.modified)
            summary.revision = try? revision(of: url)
            do {
                let located = try registry.open(url)
                images = located.referencedFiles.compactMap { file in file.path.map { ($0, FileStamp.of($0)) } }
                let editable = located.document as? any EditableDocument
                summary.kind = editable?.kindName ?? located.contentType.identifier
                summary.title = editable.map {
                    DocumentTitle.title(
                        of: $0, fileName: url.lastPathComponent,
                        modified: Date(timeIntervalSince1970: TimeInterval(stamp.modified) / 1e9))
                }
                // Checked briefly: a listing must not wait for one heavy document's whole render.
                let checked = Result {
                    try DocumentRenderer.warnings(
                        for: located, deadline: RenderTimeout.deadline(seconds: Self.summaryCheckSeconds))
                }
                let sceneWarnings = (try? checked.get())?.map(\.description) ?? []
                let timedOut =
                    if case .failure(RenderError.timedOut) = checked {
                        [
                            "\(entry.relativePath): not checked in full: decoding its images and laying out its texts took longer than \(Int(Self.summaryCheckSeconds)) s"
                        ]
                    } else { [String]() }
                summary.warnings = (located.warnings.map(\.description) + sceneWarnings + timedOut).map {
                    ServedFolder.hidingServerPaths(in: $0, folder: folder.url)
                }
            } catch {
                summary.problem = ServedFolder.hidingServerPaths(in: "\(error)", folder: folder.url)
            }
            summaries.withLock { $0[key] = (stamp, images, summary) }
            return summary
        }
    }

    /// How many summaries are remembered.
    var rememberedSummaries: Int { summaries.withLock { $0.count } }

    /// A file's modification time as RFC 3339 (`2026-11-28T10:04:05Z`).
    static func timestamp(nanoseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(nanoseconds) / 1e9))
    }

    /// The most seconds a listing spends checking one document for warnings.
    static let summaryCheckSeconds = 2.0

    // MARK: One document

    /// The document as `easel info --json` describes it (its path relative to the folder),
    /// and its revision.
    func describe(_ url: URL, relativePath: String) throws -> (json: [UInt8], revision: String, canUndo: Bool, canRedo: Bool) {
        let editor = try DocumentEditor(opening: url, registry: registry, locking: false, stateFolder: stateFolder)
        // The revision of the very bytes described, read with the history as one version.
        let revision = Self.revision(of: editor.savedContentBytes)
        var description = editor.description
        description.path = relativePath
        let resources = editor.located.resourceFolder.standardizedFileURL.path
        description.resourceFolder =
            resources == folder.realPath || resources == folder.url.standardizedFileURL.path
            ? "" : folder.relativePath(of: editor.located.resourceFolder)
        if let stamp = registry.location(of: url).flatMap({ FileStamp.of($0.contentFile.path) }) {
            description.title = DocumentTitle.title(
                of: editor.document, fileName: url.lastPathComponent,
                modified: Date(timeIntervalSince1970: TimeInterval(stamp.modified) / 1e9))
        }
        description.warnings = description.warnings.map { ServedFolder.hidingServerPaths(in: $0, folder: folder.url) }
        for index in description.elements.indices {
            description.elements[index].imageStatus = description.elements[index].imageStatus.map {
                ServedFolder.hidingServerPaths(in: $0, folder: folder.url)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (Array(try encoder.encode(description)), revision, editor.canUndo, editor.canRedo)
    }

    /// The render cache's key for the document at `relativePath` rendered with `query`. It
    /// holds the served folder's real path, since the disk tier is shared by every server
    /// using the state folder (two folders hold cards of the same names when one is a copy of
    /// the other). Paths go in by their bytes (base64 of the UTF-8): Swift compares strings
    /// by canonical equivalence, and `café` precomposed and decomposed are two files.
    func renderKey(relativePath: String, query: RenderQuery) -> String {
        Data((folder.realPath + "\u{0}" + relativePath).utf8).base64EncodedString() + "\u{0}" + query.key
    }

    /// The document rendered with `query`'s options: from the cache when nothing it was made
    /// from has changed, else rendered now. `hit` says which.
    func render(_ url: URL, relativePath: String, query: RenderQuery) throws -> (entry: RenderCache.Entry, hit: Bool) {
        let key = renderKey(relativePath: relativePath, query: query)
        if let entry = cache.entry(for: key) { return (entry, true) }
        guard let location = registry.location(of: url) else { throw Problem(.notFound, "not a document") }
        // Stamp first: a change while rendering then shows as a change next time.
        let documentStamp = FileStamp.of(location.contentFile.path)
        // One read: the revision answered is the version whose pixels are answered.
        var (located, content) = try registry.openReadingContent(url)
        let revision = try content.map(Self.revision(of:)) ?? revision(of: url)
        try Self.select(query.elements, of: &located)
        let sources =
            [(location.contentFile.path, documentStamp)]
            + located.referencedFiles.compactMap { file in
                file.path.map { ($0, FileStamp.of($0)) }
            }
        var scene = try DocumentRenderer.scene(
            for: located, background: query.options.background, deadline: limits.renderDeadline, drawnFor: query.options)
        try limits.prepare(&scene, options: query.options, document: relativePath)
        let file = try DocumentRenderer.export(scene, options: query.options)
        let stamps = sources.map {
            "\($0.0):\($0.1.map { "\($0.size).\($0.modified).\($0.changed).\($0.inode)" } ?? "missing")"
        }
        let etag =
            "\""
            + Self.revision(
                of: Array(
                    (([ExportManifest.rendererVersion, PNGEncoder.writerVersion, revision, query.key] + stamps)
                        .joined(separator: "\n")).utf8)) + "\""
        let entry = RenderCache.Entry(bytes: file.bytes, etag: etag, revision: revision, sources: sources)
        cache.store(entry, for: key)
        return (entry, false)
    }

    /// Keeps the elements `elements` names in `located`'s document (a layer of the
    /// editor's previews); an index out of range is a bad request.
    static func select(_ elements: RenderQuery.Elements, of located: inout LocatedDocument) throws {
        guard elements != .all else { return }
        guard let document = located.document as? any EditableDocument else {
            throw Problem(.badRequest, "only and without are for documents made of elements (cards and drawings)")
        }
        do {
            switch elements {
            case .all: break
            case .only(let indices): located.document = try document.keepingOnly(indices)
            case .without(let indices): located.document = try document.removing(indices)
            }
        } catch {
            throw Problem(.badRequest, error.message)
        }
    }

    /// The document as it would be after `edits`, rendered with `query` and not saved: what
    /// the editor shows while a value is being typed. An edit that would add an image is
    /// refused (a preview brings no file into the folder).
    func preview(_ url: URL, relativePath: String, edits: EditRequest, query: RenderQuery) throws -> [UInt8] {
        for case .add(let element) in edits.operations where element.addsImageFile {
            throw Problem(.badRequest, "a preview cannot add an image or a sticker; add it with …/edits or …/images")
        }
        var editor = try DocumentEditor(opening: url, registry: registry, locking: false, stateFolder: stateFolder)
        do {
            _ = try apply(edits, to: &editor)
        } catch let error as EditError {
            throw Problem(.badRequest, error.message, document: relativePath)
        }
        var located = editor.located
        located.document = editor.document
        try Self.select(query.elements, of: &located)
        var scene = try DocumentRenderer.scene(
            for: located, background: query.options.background, deadline: limits.renderDeadline, drawnFor: query.options)
        try limits.prepare(&scene, options: query.options, document: relativePath)
        return try DocumentRenderer.export(scene, options: query.options).bytes
    }

    // MARK: Editing

    /// What an edit, undo or redo did.
    struct EditOutcome: Encodable {
        var revision: String
        var changed: Bool
        var canUndo: Bool
        var canRedo: Bool
        var results: [String]
        /// The indices of the elements the edit added, as they are after it (the editor
        /// selects what it pasted or dropped).
        var added: [Int]
        /// The places the elements of the edit's last `order` operation have after the edit
        /// (the editor keeps them selected where they went); empty when a later operation
        /// of the edit removed elements.
        var reordered: [Int]
    }

    /// What applying an edit did: a line for each operation, the elements it added and
    /// where its last `order` operation put the elements it moved.
    struct Applied {
        var results: [String]
        var added: [Int] = []
        var reordered: [Int] = []
    }

    /// Throws 412, with the current revision, unless `ifMatch` (when given) names the
    /// revision of the document at `url`; `doing` is what to do again after a reload.
    func checkRevision(of url: URL, relativePath: String, ifMatch: String?, doing: String) throws {
        guard let ifMatch else { return }
        let current = try revision(of: url)
        guard !Self.matches(ifMatch, revision: current) else { return }
        var problem = Problem(
            .preconditionFailed,
            "the document changed since revision \(ifMatch) (it is now at \"\(current)\"); reload it and \(doing) again",
            document: relativePath)
        problem.extensions["currentRevision"] = current
        problem.headers[.eTag] = "\"\(current)\""
        throw problem
    }

    /// Opens the document for editing (its lock held, as the CLI's verbs hold it), checks
    /// `ifMatch` against its revision, applies `change`, and saves atomically with its history.
    func edit(
        _ url: URL, relativePath: String, ifMatch: String?, _ change: (inout DocumentEditor) throws -> Applied
    ) throws -> EditOutcome {
        var editor = try DocumentEditor(
            opening: url, registry: registry, locking: true, lockTimeout: limits.lockTimeout, stateFolder: stateFolder)
        try checkRevision(of: url, relativePath: relativePath, ifMatch: ifMatch, doing: "make the edit")
        // A photo an operation imported is taken away again when the edit fails after it
        // (a later operation refused, the save failed): a refused edit changes nothing.
        let (applied, changed) = try CreatedFiles.removingOnFailure { () throws -> (Applied, Bool) in
            let results: Applied
            do {
                results = try change(&editor)
            } catch let error as EditError {
                throw Problem(.badRequest, error.message, document: relativePath)
            } catch var problem as Problem {
                problem.document = problem.document ?? relativePath
                throw problem
            }
            let changed = editor.hasUnsavedChanges
            if changed { try editor.save() }
            return (results, changed)
        }
        // The revision of what this edit saved (or found), not of the file read again: a
        // program that wrote just after the save would have its version answered as ours,
        // and the page's next edit, made on what it shows, pass If-Match on theirs.
        return EditOutcome(
            revision: Self.revision(of: editor.savedContentBytes), changed: changed, canUndo: editor.canUndo,
            canRedo: editor.canRedo, results: applied.results, added: applied.added, reordered: applied.reordered)
    }

    /// Throws 409 when `editor` has nothing to undo (or redo) because this server's state
    /// folder holds no history of the document as it is now (another replica with a state
    /// folder of its own wrote it last, say). Saying "nothing to undo" then would be false.
    static func checkHistoryIsHere(_ editor: DocumentEditor, for action: String, document: String) throws {
        let nothing = action == "undo" ? !editor.canUndo : !editor.canRedo
        guard nothing, editor.historyIsElsewhere else { return }
        throw Problem(
            .conflict,
            "cannot \(action): this server's state folder holds no undo history of the document as it is now; it was last changed elsewhere (another easel serve replica with a state folder of its own, the CLI with another XDG_STATE_HOME, or another program). Give every replica the same state folder on shared storage (XDG_STATE_HOME) to undo across them",
            document: document)
    }

    /// Applies `request`'s operations as one undo step.
    func apply(_ request: EditRequest, to editor: inout DocumentEditor) throws -> Applied {
        var applied = Applied(results: [])
        let folder = editor.located.resourceFolder
        try editor.perform { document in
            applied = Applied(results: [])
            for (position, operation) in request.operations.enumerated() {
                // An operation that cannot apply is named, with its place in the request.
                do {
                    try apply(operation, to: &document, folder: folder, applied: &applied)
                } catch let error as EditError {
                    throw Self.operationProblem(error, operation: operation, at: position, of: request)
                }
            }
        }
        return applied
    }

    private static func operationProblem(
        _ error: EditError, operation: EditRequest.Operation, at position: Int, of request: EditRequest
    ) -> Problem {
        let place = request.isList ? "operations[\(position)]" : nil
        let keyPath = [place, error.property].compactMap { $0 }.joined(separator: ".")
        return Problem(
            .badRequest, "\(place.map { "\($0) (\(operation.verb))" } ?? operation.verb): \(error.message)",
            keyPath: keyPath.isEmpty ? nil : keyPath)
    }

    private func apply(
        _ operation: EditRequest.Operation, to document: inout any EditableDocument, folder: URL, applied: inout Applied
    ) throws {
        func note(_ line: String) { applied.results.append(line) }
        switch operation {
        case .add(let element):
            let added = try document.add(element, resourceFolder: folder)
            // An element put in below others added before it (a card's image goes under its
            // texts) moves them up one.
            applied.added = applied.added.map { $0 >= added.index ? $0 + 1 : $0 } + [added.index]
            applied.reordered = applied.reordered.map { $0 >= added.index ? $0 + 1 : $0 }
            note("added \(added.kind) as element \(added.index)")
        case .set(let index, let changes):
            try document.apply(changes, at: index)
            note("changed element \(index)")
        case .move(let index, let by):
            try document.move(index, by: by)
            note("moved element \(index)")
        case .remove(let indices):
            try document.remove(indices)
            // (Where the elements went is not worth following past a removal.)
            applied.reordered = []
            note("removed \(Self.elements(indices))")
        case .order(let indices, let direction):
            let places = try document.reorder(indices, direction)
            applied.reordered = places
            note("\(Self.elements(indices)) \(indices.count == 1 ? "is" : "are") now \(Self.elements(places))")
        case .align(let indices, let edge):
            try document.align(indices, edge)
            note("aligned \(Self.elements(indices)) on the \(edge.rawValue)")
        case .distribute(let indices, let axis):
            try document.distribute(indices, axis)
            note("distributed \(Self.elements(indices)) \(axis.rawValue)ly")
        case .background(let color):
            try document.setBackground(color)
            note("background is \(color?.hex ?? "transparent")")
        }
    }

    /// "element 2", "elements 0, 3": as results name the elements an operation took.
    private static func elements(_ indices: [Int]) -> String {
        let sorted = Array(Set(indices)).sorted()
        return (sorted.count == 1 ? "element " : "elements ") + sorted.map(String.init).joined(separator: ", ")
    }

    /// Adds an uploaded image as a new element (one undo step): the bytes go to a private
    /// file in the state folder, which the editor brings into the document's folder as the
    /// CLI's `add image` does, and which is removed afterwards.
    func addUploadedImage(
        _ bytes: [UInt8], extension ext: String, placed placement: ElementChanges = ElementChanges(), to url: URL,
        relativePath: String, ifMatch: String?
    ) throws -> EditOutcome {
        let uploads = state.url.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let file = uploads.appendingPathComponent("upload-\(UUID().uuidString).\(ext)")
        try AtomicFile.write(bytes, to: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            return try edit(url, relativePath: relativePath, ifMatch: ifMatch) { editor in
                let added = try editor.add(
                    ElementRequest(kind: "image", value: file.path, style: placement, documentName: relativePath))
                return Applied(results: ["added \(added.kind) as element \(added.index)"], added: [added.index])
            }
        } catch let error as DocumentError where error.file == file.path {
            // The client sent the image; where the server kept it for a moment is no business of theirs.
            throw DocumentError(file: "the uploaded image", keyPath: error.keyPath, kind: error.kind)
        } catch let error as EditError {
            throw EditError(
                error.message.replacingOccurrences(of: file.path, with: "the uploaded image"),
                isInvalidRequest: error.isInvalidRequest)
        }
    }

    /// Copies the package at `url` to `target` (which must not exist) with `content` as its
    /// document: the copy is made under a hidden name beside it and renamed into place whole,
    /// so a failure leaves no partial package.
    func copyPackage(_ url: URL, to target: URL, content: any EditableDocument) throws {
        let temporary = target.deletingLastPathComponent().appendingPathComponent(
            ".easel-copy-\(UUID().uuidString).\(target.pathExtension)")
        do {
            try FileManager.default.copyItem(at: url, to: temporary)
            try registry.save(content, to: temporary)
            // Moved in only if the name is still free (never over a copy made meanwhile).
            guard try FileIO.moveIntoFreeName(temporary.path, to: target.path) else {
                throw DocumentError(file: target.path, kind: .io(DocumentEditor.alreadyExistsReason))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Whether `url` is a package folder that holds its document (its content file is a
    /// regular file), not merely a folder named like one.
    private func isWholePackage(_ url: URL) -> Bool {
        guard registry.isPackage(url), let content = registry.location(of: url)?.contentFile else { return false }
        var status = stat()
        return lstat(content.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Moves a document (file or package folder) into Easel's trash in the state folder,
    /// under a name that keeps it apart from others of the same name, with the files it owns
    /// (a card's photos that no other document uses, as the app deletes them); never deletes it.
    /// Anything else named like one (a plain folder, a pipe) is refused, and stays.
    func moveToTrash(_ url: URL, relativePath: String, ifMatch: String? = nil) throws {
        // Under the document's lock, as every edit is: an edit in flight saves first, and
        // an edit waiting for the lock finds the document gone, so none writes it back.
        let lock = try DocumentLock(beside: url, timeout: limits.lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        // A client that names the revision it saw deletes only that one, as it edits.
        try checkRevision(of: url, relativePath: relativePath, ifMatch: ifMatch, doing: "delete it")
        var status = stat()
        guard lstat(url.path, &status) == 0,
            (status.st_mode & S_IFMT) == S_IFREG || ((status.st_mode & S_IFMT) == S_IFDIR && isWholePackage(url))
        else {
            throw DocumentError(
                file: url.path,
                kind: .io("is not a document (a folder or a special file named like one); easel serve deletes documents only"))
        }
        let trash = state.url.appendingPathComponent("trash")
        do { try FileIO.createFolders(at: trash.path, permissions: 0o700) } catch {
            // Said of the document, with the trash named in the reason: the server's fault.
            throw DocumentError(file: url.path, kind: .io("cannot create Easel's trash \(trash.path): \(error.reason)"))
        }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "-")
        let prefix = "\(stamp)-\(UUID().uuidString.prefix(8))-"
        // What goes with it, worked out before it goes (a card's photos no other document uses).
        let owned = ((try? registry.open(url))?.document as? any EditableDocument)?.filesOwned(savedAt: url) ?? []
        try Self.moveIntoTrash(url, trash: trash, prefix: prefix)
        for file in owned { try? Self.moveIntoTrash(file, trash: trash, prefix: prefix) }
    }

    /// Renames `url` into `trash` under `prefix` and its name (copies it across file
    /// systems, removing the original only once the copy is whole).
    private static func moveIntoTrash(_ url: URL, trash: URL, prefix: String) throws {
        let target = trash.appendingPathComponent(Self.trashName(for: url.lastPathComponent, prefix: prefix))
        guard rename(url.path, target.path) == 0 else {
            let code = errno
            guard code == EXDEV else {
                // The reason names the trash (in the state folder): the client is told it was
                // the server's fault, the path itself only the log.
                throw DocumentError(
                    file: url.path,
                    kind: .io("cannot be moved to Easel's trash \(target.path): \(String(cString: strerror(code)))"))
            }
            // Another file system: copy, then remove the original only once the copy is whole.
            try FileManager.default.copyItem(at: url, to: target)
            try FileManager.default.removeItem(at: url)
            return
        }
    }

    /// The longest file name Linux file systems take, in bytes (`NAME_MAX`).
    static let maxNameBytes = 255

    /// The name of a document `name` in the trash: `prefix` (its time and a unique part)
    /// then the name, cut (at a character boundary, keeping a short extension, so a
    /// package stays one) to fit `maxNameBytes`: a document may have a name of 255 bytes
    /// already, and the prefix must not make it one the file system refuses.
    static func trashName(for name: String, prefix: String) -> String {
        let room = maxNameBytes - prefix.utf8.count
        guard name.utf8.count > room else { return prefix + name }
        var stem = Substring(name)
        var suffix = Substring("")
        if let dot = name.lastIndex(of: "."), name[dot...].utf8.count <= 32 {
            stem = name[..<dot]
            suffix = name[dot...]
        }
        var cut = ""
        var bytes = 0
        for character in stem {
            let size = character.utf8.count
            guard bytes + size <= room - suffix.utf8.count else { break }
            cut.append(character)
            bytes += size
        }
        return prefix + cut + suffix
    }

    /// Whether an `If-Match` value names `revision` (`*` matches any; quotes and a weak
    /// prefix are allowed, as clients send them).
    static func matches(_ ifMatch: String, revision: String) -> Bool {
        ifMatch.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value == "*" { return true }
            if value.hasPrefix("W/") { value.removeFirst(2) }
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            // A document's ETag is its revision and a tag of the answer (`revision-tag`):
            // the revision is what an edit must be based on.
            if let dash = value.firstIndex(of: "-") { value = String(value[..<dash]) }
            return value == revision
        }
    }
}

/// One entry of `GET /api/documents`.
struct DocumentSummary: Codable, Sendable {
    var path: String
    /// card, drawing, or a registered type's name.
    var kind: String?
    /// What the document browser calls it (`DocumentTitle`): the file name, or a card's
    /// first text when its name is only its id.
    var title: String?
    /// Bytes of the saved document (a package's JSON).
    var size: Int?
    /// When it was last saved (RFC 3339, UTC): the editor lists the newest first.
    var modified: String?
    var revision: String?
    var warnings: [String]?
    /// Why it cannot be served (not valid, a symbolic link...).
    var problem: String?

    init(path: String, problem: String? = nil) {
        self.path = path
        self.problem = problem
    }
}
