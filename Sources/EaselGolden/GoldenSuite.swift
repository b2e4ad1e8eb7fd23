import EaselBatch
import EaselCairo
import EaselDocuments
import EaselRender
import EaselSupport
import FoundationEssentials
import Glibc

/// A folder of documents and the folder of their goldens, in the layout
/// `easel export DOCS --out GOLDENS` writes (`DOCS/A/x.rwcard` has the golden
/// `GOLDENS/A/x.png`): verify every document against its golden, record goldens, and find
/// goldens whose document is gone. What `easel golden verify|record|prune` runs.
public struct GoldenSuite: Sendable {
    /// The documents folder.
    public var documents: URL
    /// The goldens folder.
    public var goldens: URL
    /// The document types the suite opens.
    public var registry: DocumentRegistry

    /// A suite over `documents` and `goldens`, opening Easel's own document types by default.
    public init(documents: URL, goldens: URL, registry: DocumentRegistry = .standard) {
        self.documents = documents
        self.goldens = goldens
        self.registry = registry
    }

    /// One result of a verification: a document against its golden, or a golden without
    /// a document.
    public struct Entry: Codable, Sendable {
        /// What became of it.
        public enum Status: String, Codable, Sendable {
            /// The rendering matched the golden within the tolerance.
            case passed
            /// The rendering differs from the golden beyond the tolerance, or in size.
            case failed
            /// The document has no golden yet.
            case new
            /// A golden whose document is gone (`easel golden prune` lists these); not a failure.
            case missing
            /// The document could not be rendered, or the golden could not be read.
            case error
        }

        /// The golden's name: its path in the goldens folder without `.png` (`Cards/a`).
        public var name: String
        /// The document's path in the documents folder (`Cards/a.rwcard`); nil for a golden without a document.
        public var document: String?
        /// What became of it.
        public var status: Status
        /// Why it failed (rendering, a missing golden, or how far off); nil when it passed.
        public var message: String?
        /// What differed; nil when identical, sized differently, or not compared at all.
        public var statistics: DifferenceStatistics?
        /// The folder of the failure's artifacts (actual.png, expected.png, composite.png,
        /// statistics.json) when they were written.
        public var artifacts: URL?
        /// How long rendering and comparing took, in seconds.
        public var seconds: Double = 0

        /// True unless the document failed, has no golden, or could not be rendered.
        public var passed: Bool { status == .passed || status == .missing }
        /// The golden's path in the goldens folder (`Cards/a.png`).
        public var golden: String { name + ".png" }
    }

    /// What happened to one document when recording.
    public enum RecordOutcome: Sendable {
        /// The golden was written here.
        case recorded(URL)
        /// It was left alone (`onlyMissing` and it exists).
        case kept(URL)
        /// The document could not be rendered or its golden written.
        case failed(String)
    }

    /// The file in the goldens folder that records how the goldens were rendered and are
    /// verified (`GoldenSettings`).
    public var settingsURL: URL { goldens.appendingPathComponent(GoldenSettings.fileName) }

    /// The goldens folder's settings; nil when it has none. A settings file that cannot be
    /// used is an error naming it and the key path, never ignored.
    public func settings() throws(DocumentError) -> GoldenSettings? { try GoldenSettings.read(at: settingsURL.path) }

    /// (document, golden name without `.png`) pairs, in the batch-export layout. Throws
    /// when the documents folder does not exist or holds no document: a typo must never look
    /// like a suite with nothing to check, nor make every golden an orphan.
    func allPairs() throws(BatchError) -> [(document: URL, name: String, problem: String?)] {
        guard FileIO.isFolder(documents.path) else {
            throw BatchError(message: "the documents folder \(documents.path) does not exist; check the path")
        }
        if FileManager.default.fileExists(atPath: goldens.path), !FileIO.isFolder(goldens.path) {
            throw BatchError(message: "the goldens folder \(goldens.path) is a file, not a folder; check the path")
        }
        // Goldens are written and pruned in their folder: never the documents' own (where
        // prune would take the user's PNGs for orphans), nor a folder holding it.
        let documentsPath = BatchExporter.realPath(documents.standardizedFileURL)
        let goldensPath = BatchExporter.realPath(goldens.standardizedFileURL)
        if documentsPath == goldensPath || documentsPath.hasPrefix(goldensPath + "/") {
            throw BatchError(
                message:
                    "the goldens folder \(goldens.path) \(documentsPath == goldensPath ? "is" : "holds") the documents folder \(documents.path); give the goldens a folder of their own (such as Goldens beside it), so that no PNG of the documents' is taken for a golden, written over or pruned"
            )
        }
        let exporter = try BatchExporter(
            inputs: [documents], outputFolder: goldens, options: BatchExportOptions(excluded: [goldens]),
            registry: registry)
        let items = exporter.plan()
        guard !items.isEmpty else {
            let kinds = registry.supportedExtensions.map { "." + $0 }.joined(separator: ", ")
            throw BatchError(message: "the documents folder \(documents.path) holds no documents (\(kinds)); check the path")
        }
        return items.map { item in
            (item.input, PathNames.deletingExtension(of: item.output), item.problem)
        }
    }

    /// The documents that can be rendered, with their goldens' names (`pairs` without the
    /// unusable ones).
    public func pairs() throws(BatchError) -> [(document: URL, name: String)] {
        try allPairs().filter { $0.problem == nil }.map { ($0.document, $0.name) }
    }

    /// The documents named like documents that cannot be rendered (a symbolic link, a pipe,
    /// a folder named like a card), with why: reported by verify and record, and their goldens
    /// never taken for orphans.
    func unusable() throws(BatchError) -> [(document: URL, name: String, problem: String)] {
        try allPairs().compactMap { pair in pair.problem.map { (pair.document, pair.name, $0) } }
    }

    /// The golden names of every document, usable or not (what an orphan is not).
    func wantedGoldens() throws(BatchError) -> Set<String> { Set(try allPairs().map { $0.name + ".png" }) }

    /// Renders every document with `options` (as PNG pixels) and compares it with its
    /// golden, `jobs` documents at a time, ignoring each golden's `ignore` regions; failures
    /// leave their artifacts (composite, statistics) in `artifacts`. The results are in
    /// document order, followed by the goldens without a document. A failure suggests the
    /// tolerance that would pass in `spelling` (Swift, or `easel golden` options).
    public func verify(
        options: RenderOptions, tolerance: Tolerance, ignore: [String: [PixelRect]] = [:], artifacts: URL, jobs: Int = 1,
        spelling: Tolerance.Spelling = .swift
    ) throws(BatchError) -> [Entry] {
        // As a shell word each, ready to paste.
        let folders = [documents.relativePath, goldens.relativePath].map(\.shellWord).joined(separator: " ")
        var verifier = GoldenVerifier(
            goldensFolder: goldens, artifactsFolder: artifacts, recordMode: .never, tolerance: tolerance)
        verifier.toleranceSpelling = spelling
        verifier.missingGoldenHint =
            "record it with `easel golden record \(folders) --only-missing`, then look at it"
        verifier.unreadableGoldenHint =
            "if the rendering is right, record it again with `easel golden record \(folders) --only-failed`"
        verifier.mentionsArtifacts = false
        var options = options
        options.format = .png
        // One scan: the documents to render, those that cannot be, and the goldens wanted.
        let all = try allPairs()
        let pairs = all.filter { $0.problem == nil }.map { ($0.document, $0.name) }
        let results = Locked([Entry?](repeating: nil, count: pairs.count))
        let registry = self.registry, suite = self
        let (verifierForJobs, optionsForJobs) = (verifier, options)
        let check = { @Sendable (index: Int) in
            let (verifier, options) = (verifierForJobs, optionsForJobs)
            let (document, name) = pairs[index]
            let started = Date()
            var entry = Entry(name: name, document: suite.relativePath(of: document), status: .error)
            do {
                let located = try registry.open(document)
                let rendered = try DocumentRenderer.render(located, options: options)
                let outcome = verifier.verify(rendered.image, named: name, ignoring: ignore[name] ?? [])
                entry.status =
                    outcome.passed ? .passed : outcome.comparison == nil ? (outcome.goldenExists ? .error : .new) : .failed
                // What the render drew around (a missing image, an unmapped font) is often why
                // it differs: said with the failure, as the test assertions say it.
                let warnings = (located.warnings + rendered.warnings).map(\.description)
                entry.message = outcome.message.map {
                    warnings.isEmpty ? $0 : $0 + " (the render's warnings: " + warnings.joined(separator: "; ") + ")"
                }
                entry.statistics = outcome.comparison?.statistics
                entry.artifacts = outcome.artifacts
            } catch {
                entry.message = "\(suite.shownPath(of: document)): \(error)"
            }
            entry.seconds = Date().timeIntervalSince(started)
            results.withLock { $0[index] = entry }
        }
        // Each worker takes the next document; the results keep document order.
        Parallel.forEach(count: pairs.count, workers: jobs, check)
        let unusable = all.compactMap { document, name, problem in
            problem.map {
                Entry(
                    name: name, document: relativePath(of: document), status: .error,
                    message: "\(shownPath(of: document)): \($0)")
            }
        }
        let orphans = orphans(wanted: Set(all.map { $0.name + ".png" })).map {
            Entry(
                name: String($0.dropLast(4)), document: nil, status: .missing,
                message: "\(goldens.appendingPathComponent($0).path): no document renders this golden")
        }
        return results.withLock { $0.compactMap { $0 } } + unusable + orphans
    }

    /// Renders every document with `options` (as PNG) and writes its golden, or only the
    /// missing ones. `each` hears of every document as it is done.
    /// With `onlyFailing`, a golden that exists is rewritten only when the rendering does
    /// not match it within that tolerance (accepting intended changes, keeping the rest).
    /// A `tolerance` is written to the settings for verify to use (nil keeps theirs).
    /// `warned` hears what a render drew around (a missing photo, an unmapped font), one
    /// message at a time, naming the document: a golden that shows an error image should
    /// not be recorded in silence.
    public func record(
        options: RenderOptions, onlyMissing: Bool = false, onlyFailing: Tolerance? = nil, tolerance: Tolerance? = nil,
        warned: (String) -> Void = { _ in }, each: (RecordOutcome) -> Void = { _ in }
    ) throws(BatchError) -> [RecordOutcome] {
        var options = options
        options.format = .png
        // A settings file people edited must not be lost to a typo in it: refuse, naming it.
        let existing: GoldenSettings?
        do { existing = try settings() } catch { throw BatchError(message: error.description, isUsage: false) }
        let ignore = existing?.ignore ?? [:]
        // One scan: the documents to render and those that cannot be.
        let all = try allPairs()
        let outcomes = all.filter { $0.problem == nil }.map { document, name, _ in
            let golden = goldens.appendingPathComponent(name + ".png")
            let outcome: RecordOutcome
            if onlyMissing && FileManager.default.fileExists(atPath: golden.path) {
                outcome = .kept(golden)
            } else {
                do {
                    // Rendered once: compared with the golden, and written when it differs.
                    let located = try registry.open(document)
                    let rendered = try DocumentRenderer.render(located, options: options)
                    let image = rendered.image
                    if let tolerance = onlyFailing,
                        let expected = try? PNGDecoder.decode(
                            FileIO.readBytes(at: golden.path, maxBytes: RenderLimits.maxImageFileBytes)),
                        ImageComparator.compare(image, expected, tolerance: tolerance, ignoring: ignore[name] ?? [])
                            .passed
                    {
                        outcome = .kept(golden)
                    } else {
                        // Checked before any folder is made (a planted link must not lead them elsewhere).
                        try Self.checkInside(golden, goldens: goldens)
                        do {
                            try FileIO.createFolders(at: golden.deletingLastPathComponent().path)
                            try image.writePNG(to: golden.path, options: options.png)
                        } catch {
                            throw DocumentError(
                                file: document.path,
                                kind: .io("its golden \(golden.path) cannot be written: \(FileIO.reason(error))"))
                        }
                        for warning in located.warnings + rendered.warnings { warned(warning.description) }
                        outcome = .recorded(golden)
                    }
                } catch {
                    outcome = .failed("\(error)")
                }
            }
            each(outcome)
            return outcome
        }
        // Named like documents but not renderable: said, never passed over in silence.
        let unusable = all.compactMap { document, _, problem in
            problem.map { problem in
                let outcome = RecordOutcome.failed("\(shownPath(of: document)): \(problem); no golden was recorded for it")
                each(outcome)
                return outcome
            }
        }
        // Remember how they were rendered, for verify (only once there were documents),
        // keeping the tolerance and ignored regions people wrote unless a tolerance is given.
        var settings = existing ?? GoldenSettings(render: options)
        settings.render = options
        if let tolerance { settings.tolerance = tolerance }
        if (try? FileIO.createFolders(at: goldens.path)) != nil { try? settings.write(to: settingsURL.path) }
        return outcomes + unusable
    }

    /// `document`'s path inside the documents folder (`sub/a.rwcard`), as reports name it.
    func relativePath(of document: URL) -> String {
        String(document.standardizedFileURL.path.dropFirst(documents.standardizedFileURL.path.count + 1))
    }

    /// `document`'s path as the user typed the documents folder (`Docs/sub/a.rwcard`), for messages.
    func shownPath(of document: URL) -> String {
        documents.appendingPathComponent(relativePath(of: document)).relativePath
    }

    /// Throws unless `golden`'s folder, with symbolic links resolved, is inside the goldens
    /// folder: a link planted there (`Goldens/A` → `Docs/A`) must not lead a write among
    /// the documents or anywhere else.
    static func checkInside(_ golden: URL, goldens: URL) throws(DocumentError) {
        let root = BatchExporter.realPath(goldens.standardizedFileURL)
        let folder = BatchExporter.realPath(golden.deletingLastPathComponent().standardizedFileURL)
        guard folder == root || folder.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw DocumentError(
                file: golden.path,
                kind: .io("its folder leads outside the goldens folder \(goldens.path) through a symbolic link; not written"))
        }
    }

    /// The goldens (relative paths ending in `.png`, sorted) that no document maps to.
    public func orphans() throws(BatchError) -> [String] {
        orphans(wanted: try wantedGoldens())
    }

    /// The PNGs below the goldens folder that are not in `wanted`, leaving out hidden files
    /// and everything in hidden folders (`.git`, `.history`: record, verify and accept never
    /// use them, so prune never takes them for goldens).
    func orphans(wanted: Set<String>) -> [String] {
        var orphans: [String] = []
        // Folder by folder (links to folders are not followed), hidden names skipped.
        var folders = [""]
        let root = goldens.standardizedFileURL.path
        while let relativeFolder = folders.popLast() {
            let folder = relativeFolder.isEmpty ? root : PathNames.appending(relativeFolder, to: root)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                var status = stat()
                if lstat(PathNames.appending(name, to: folder), &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                    folders.append(relative)
                } else if relative.hasSuffix(".png"), !wanted.contains(relative) {
                    orphans.append(relative)
                }
            }
        }
        return orphans.sorted()
    }
}
