import FoundationEssentials
import Glibc
import EaselCairo
import EaselGeometry
import EaselDocuments
import EaselSupport
import EaselRender

/// Exports every document below some folders into an output folder, mirroring their
/// layout, in parallel, skipping what is up to date, writing every file atomically, and
/// never writing outside the output folder.
public final class BatchExporter: Sendable {
    /// The files and folders scanned for documents (standardised).
    public let inputs: [URL]
    /// Where outputs are written, mirroring the inputs' layout (standardised).
    public let outputFolder: URL
    /// The options the batch runs with.
    public let options: BatchExportOptions
    private let registry: DocumentRegistry
    /// The manifest's key for these options (see `OutputSettings`).
    private let optionsKey: String
    /// How thumbnails are rendered, and the manifest key for that (computed once, not per document).
    private let thumbnailRender: RenderOptions
    private let thumbnailKey: String
    /// The real paths of the input folders inside the output folder: no output is written in one.
    private let inputFolders: [String]

    /// An exporter for the documents `registry` reads; throws when the output folder lies
    /// inside an input folder and is not excluded from the scan.
    public init(inputs: [URL], outputFolder: URL, options: BatchExportOptions, registry: DocumentRegistry = .standard)
        throws(BatchError)
    {
        self.inputs = inputs.map { $0.standardizedFileURL }
        self.outputFolder = outputFolder.standardizedFileURL
        self.options = options
        self.registry = registry
        self.optionsKey = options.outputSettings.key
        self.thumbnailRender = options.outputSettings.thumbnailRender
        self.thumbnailKey = options.outputSettings.thumbnailKey
        let out = Self.realPath(self.outputFolder)
        for input in self.inputs {
            let root = Self.realPath(input)
            if out == root || out.hasPrefix(root + "/") {
                let excluded = options.excluded.map { Self.realPath($0.standardizedFileURL) }
                guard excluded.contains(where: { out == $0 || out.hasPrefix($0 + "/") }) else {
                    throw BatchError(
                        message:
                            "the output folder \(outputFolder.path) is inside the input folder \(input.path); choose another output folder, or leave it out of the scan with --exclude \(outputFolder.path)"
                    )
                }
            }
        }
        // An output folder may hold an input folder (`export cards --out .`), but no output
        // is then written among that folder's own files (see `checkedTarget`). (An output
        // folder that is the input folder, or inside it, excluded from the scan, is the
        // user's own choice of where the outputs go.)
        inputFolders = self.inputs.filter { !registry.isDocument($0) }.map(Self.realPath).filter {
            $0.hasPrefix(out == "/" ? "/" : out + "/")
        }
    }

    /// The path with symbolic links resolved as far as it exists.
    package static func realPath(_ url: URL) -> String {
        var existing = url
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        let resolved = existing.resolvingSymlinksInPath().path
        return ([resolved == "/" ? "" : resolved] + rest).joined(separator: "/")
    }

    /// The documents to export (this shard's), with their outputs.
    public func plan() -> [BatchItem] { planWithDocumentSet().items }

    /// The documents to export (this shard's), and the fingerprint of the whole set they
    /// were taken from (every shard's), which the report records (`BatchReport.documentSet`).
    public func planWithDocumentSet() -> (items: [BatchItem], documentSet: String) {
        BatchPlanner.plan(inputs: inputs, outputFolder: outputFolder, options: options, registry: registry)
    }

    /// The manifest file in the output folder that records what was made, by every run
    /// whatever its shard (see `OutputFolderState`).
    public var manifestURL: URL { outputFolder.appendingPathComponent(OutputFolderState.manifestName) }

    /// Takes this run's shard's lease on the output folder (a second run of the same shard
    /// waits at most `wait` seconds, then is refused naming the holder). Held for the run.
    public func takeLease(wait: TimeInterval = 0) throws(BatchError) -> ShardLease {
        try ShardLease(folder: outputFolder, shard: options.shard, wait: wait)
    }

    /// Runs the batch. `progress` is called (from worker threads, one call at a time) as each
    /// document finishes, with the counts so far and the document's entry. With `lease` (see
    /// `takeLease`), the run's journal is folded into the manifest at the end; journals of
    /// shards no live run holds are folded too. `documentSet` goes into the report.
    public func run(
        _ items: [BatchItem], documentSet: String? = nil, lease: ShardLease? = nil,
        cancellation: CancellationFlag = CancellationFlag(),
        progress: @escaping @Sendable (BatchProgress, BatchEntry) -> Void = { _, _ in }
    ) -> BatchReport {
        let reporting = Locked()
        let start = Date()
        let (loaded, _) = OutputFolderState.load(outputFolder)
        let protection = outputProtection(items, manifest: loaded)
        let state = Locked(RunState(manifest: loaded, entries: Array(repeating: nil, count: items.count)))
        if !options.dryRun { try? FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true) }
        let journal =
            options.dryRun
            ? nil : ManifestJournal(at: outputFolder.appendingPathComponent(OutputFolderState.journalName(for: options.shard)))
        // `jobs` documents at a time, on `jobs` cores in all (a document's images decode and
        // its strips draw on the cores no other document uses); after a cancellation the
        // rest are not started.
        EncoderParallelism.withCoreBudget(options.jobs) {
            Parallel.forEach(count: items.count, workers: options.jobs) { [self] index in
                guard !cancellation.isCancelled else { return }
                let manifestEntry = state.withLock { $0.manifest.entries[items[index].key] }
                // In flight: an encode uses only the cores no other document is using.
                EncoderParallelism.begin()
                let (entry, record) = process(items[index], previous: manifestEntry, protection: protection)
                EncoderParallelism.end()
                if let record { journal?.append(key: items[index].key, entry: record) }
                let snapshot: BatchProgress = state.withLock { state in
                    state.entries[index] = entry
                    if let record { state.manifest.entries[items[index].key] = record }
                    state.count(entry.status)
                    return state.progress(since: start)
                }
                if entry.status == .failed && options.failFast { cancellation.cancel() }
                reporting.withLock {
                    guard options.dryRun else { return progress(snapshot, entry) }
                    // A dry run lists its plan in the plan's order, whatever order its checks
                    // end in: the listing is what a script reads and compares.
                    while let next = state.withLock({ $0.nextToReport() }) { progress(snapshot, next) }
                }
            }
        }
        // After a cancellation, what was checked after a document never started.
        if options.dryRun {
            let snapshot = state.withLock { $0.progress(since: start) }
            reporting.withLock {
                while let next = state.withLock({ $0.nextToReport(skippingUnstarted: true) }) { progress(snapshot, next) }
            }
        }

        let final = state.withLock { $0 }
        if !options.dryRun && !options.syncEachOutput { FileIO.syncFileSystem(containing: outputFolder.path) }
        if !options.dryRun {
            // This run's journal (and any no live run appends to) goes into the manifest. Without
            // a lease, the journal stays for a later run to fold: another run of this shard may
            // still be appending to it.
            if let lease { try? OutputFolderState.consolidate(outputFolder, own: lease) }
        }
        let entries = final.entries.compactMap { $0 }
        let seconds = Date().timeIntervalSince(start)
        let totals = BatchReport.Totals(
            documents: items.count, rendered: final.rendered, skipped: final.skipped, failed: final.failed,
            withWarnings: entries.filter { $0.status == .rendered && !$0.warnings.isEmpty }.count, planned: final.planned,
            notStarted: items.count - entries.count, seconds: seconds,
            documentsPerSecond: seconds > 0 ? Double(final.rendered) / seconds : 0,
            peakMemoryBytes: ProcessMemory.peakResidentBytes)
        return BatchReport(
            outputFolder: outputFolder.path, interrupted: cancellation.isCancelled && entries.count < items.count,
            entries: entries, totals: totals, shard: options.shard?.description, documentSet: documentSet)
    }

    private struct RunState {
        var manifest: ExportManifest
        var entries: [BatchEntry?]
        var done = 0, rendered = 0, skipped = 0, failed = 0, planned = 0
        /// The first entry a dry run has not listed yet.
        var reported = 0

        /// The next entry of the plan to list, once every one before it is listed; nil while
        /// it is not done. `skippingUnstarted` passes over those that never started.
        mutating func nextToReport(skippingUnstarted: Bool = false) -> BatchEntry? {
            while reported < entries.count {
                if let entry = entries[reported] {
                    reported += 1
                    return entry
                }
                guard skippingUnstarted else { return nil }
                reported += 1
            }
            return nil
        }

        /// Where the run stands, `start` being when it began.
        func progress(since start: Date) -> BatchProgress {
            BatchProgress(
                total: entries.count, done: done, rendered: rendered, skipped: skipped, failed: failed,
                elapsed: Date().timeIntervalSince(start))
        }

        mutating func count(_ status: BatchStatus) {
            done += 1
            switch status {
            case .rendered: rendered += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            case .planned: planned += 1
            }
        }
    }

    /// Renders (or skips) one document; returns its report entry and its new manifest record.
    /// What outputs may not replace: the manifest's outputs are earlier outputs; the
    /// documents already in the folders the outputs go to, and every file they use, are
    /// protected (each folder looked through once, here); and when the output folder and an
    /// input folder overlap (`--exclude`), so is every document of the plan and every file it
    /// uses (they are opened once, here, to learn which).
    private func outputProtection(_ items: [BatchItem], manifest: ExportManifest) -> OutputProtection {
        var protection = OutputProtection()
        var outputFolders = Set<String>()
        for item in items {
            for output in [item.output] + (item.thumbnail.map { [$0] } ?? []) {
                outputFolders.insert(outputFolder.appendingPathComponent(output).deletingLastPathComponent().path)
            }
        }
        for folder in outputFolders.sorted() where FileIO.isFolder(folder) {
            protection.protectDocuments(in: URL(fileURLWithPath: folder), registry: registry)
        }
        for entry in manifest.entries.values {
            for output in entry.writtenFiles {
                protection.earlierOutputs.insert(StateFolder.realPath(of: outputFolder.appendingPathComponent(output)))
            }
        }
        let out = Self.realPath(outputFolder)
        let overlaps = inputs.map(Self.realPath).contains { out == $0 || out.hasPrefix($0 + "/") || $0.hasPrefix(out + "/") }
        if overlaps && !options.dryRun {
            for item in items {
                if let located = try? registry.open(item.input) { protection.protect(located) }
            }
        }
        return protection
    }

    private func process(_ item: BatchItem, previous: ExportManifest.Entry?, protection: OutputProtection)
        -> (BatchEntry, ExportManifest.Entry?)
    {
        let started = Date()
        func entry(_ status: BatchStatus, warnings: [String] = [], error: String? = nil) -> BatchEntry {
            BatchEntry(
                input: item.input.path,
                output: status == .failed ? nil : outputFolder.appendingPathComponent(item.output).path, status: status,
                warnings: warnings, error: error, milliseconds: Date().timeIntervalSince(started) * 1000)
        }
        if let problem = item.problem {
            return (entry(.failed, error: "\(item.input.path): \(problem)"), nil)
        }
        guard let location = registry.location(of: item.input) else {
            return (entry(.failed, error: "\(item.input.path): not a document type Easel reads"), nil)
        }
        if !options.force, let previous,
            ExportManifest.isUpToDate(
                previous, location: location, optionsKey: optionsKey, output: item.output, outputFolder: outputFolder)
        {
            guard let thumbnail = item.thumbnail, !options.dryRun,
                !ExportManifest.thumbnailIsUpToDate(previous, path: thumbnail, key: thumbnailKey, outputFolder: outputFolder)
            else { return (entry(.skipped), nil) }
            // The output is up to date but its thumbnail is not (asked for now, or changed): only the thumbnail.
            do {
                let deadline = options.deadlineFromNow
                let located = try registry.open(item.input)
                let scene = try DocumentRenderer.scene(
                    for: located, background: options.render.background, deadline: deadline)
                try writeThumbnail(of: scene, to: thumbnail, for: item, protection: protection)
                var record = previous
                record.thumbnail = thumbnail
                record.thumbnailKey = thumbnailKey
                record.outputStamps?[thumbnail] = FileStamp.of(outputFolder.appendingPathComponent(thumbnail).path)
                return (entry(.rendered, warnings: (located.warnings + scene.warnings).map(\.description)), record)
            } catch {
                return (entry(.failed, error: Self.describe(error, of: item)), nil)
            }
        }
        if options.dryRun { return (entry(.planned), nil) }
        do {
            // Stamp first: a change during rendering then shows as a change next time.
            guard let documentStamp = FileStamp.of(location.contentFile.path) else {
                throw DocumentError(file: item.input.path, kind: .io("the document disappeared"))
            }
            let deadline = options.deadlineFromNow
            // A thumbnail that may not be written refuses the document before anything is
            // written, so that "nothing was written" holds for its output too.
            if let thumbnail = item.thumbnail {
                _ = try checkedTarget(thumbnail, format: .png, for: item, protection: protection, creatingFolders: false)
            }
            let located = try registry.open(item.input)
            let images = located.referencedFiles.map {
                ExportManifest.ImageStamp(name: $0.name, stamp: $0.path.flatMap(FileStamp.of))
            }
            let scene = try DocumentRenderer.scene(
                for: located, background: options.render.background, deadline: deadline, drawnFor: options.render)
            let file = try DocumentRenderer.export(scene, options: options.render)
            // Both rendered before either is written: a thumbnail past the deadline (or
            // failing otherwise) leaves no output behind for a document reported as failed.
            let thumbnailBytes = try item.thumbnail.map { _ in try Self.thumbnail(of: scene, options: thumbnailRender) }
            try writeOutput(file.bytes, to: item.output, format: options.render.format, for: item, protection: protection)
            var stamps = [item.output: FileStamp.of(outputFolder.appendingPathComponent(item.output).path)].compactMapValues {
                $0
            }
            if let thumbnail = item.thumbnail, let thumbnailBytes {
                try writeOutput(thumbnailBytes, to: thumbnail, format: .png, for: item, protection: protection)
                stamps[thumbnail] = FileStamp.of(outputFolder.appendingPathComponent(thumbnail).path)
            }
            let record = ExportManifest.Entry(
                rendererVersion: ExportManifest.rendererVersion, optionsKey: optionsKey,
                document: documentStamp, images: images, outputs: [item.output], outputStamps: stamps,
                // A thumbnail made earlier and not now stays known as Easel's output (so it may be
                // replaced later), but with no key: it no longer matches the document.
                thumbnail: item.thumbnail ?? previous?.thumbnail, thumbnailKey: item.thumbnail == nil ? nil : thumbnailKey,
                madeAt: Int64(Date().timeIntervalSince1970 * 1_000_000_000))
            return (entry(.rendered, warnings: (located.warnings + scene.warnings).map(\.description)), record)
        } catch {
            return (entry(.failed, error: Self.describe(error, of: item)), nil)
        }
    }

    /// What went wrong with `item`, naming its file: a document's errors name it already; a
    /// renderer's or the system's may not (a batch's report must say which document failed).
    private static func describe(_ error: any Error, of item: BatchItem) -> String {
        let text = "\(error)"
        return text.contains(item.input.path) ? text : "\(item.input.path): \(text)"
    }

    /// Writes the app-style thumbnail of `scene` (PNG, 260x400 for a card).
    private func writeThumbnail(of scene: Scene, to thumbnail: String, for item: BatchItem, protection: OutputProtection) throws {
        try writeOutput(
            try Self.thumbnail(of: scene, options: thumbnailRender), to: thumbnail, format: .png, for: item,
            protection: protection)
    }

    /// The app-style thumbnail's PNG bytes.
    private static func thumbnail(of scene: Scene, options: RenderOptions) throws -> [UInt8] {
        var thumbnailOptions = options
        thumbnailOptions.size = thumbnailSize(for: scene.canvasSize)
        return try DocumentRenderer.export(scene, options: thumbnailOptions).bytes
    }

    /// The app's thumbnail: 260x400 for a card; a drawing fits in the same box.
    static func thumbnailSize(for canvas: Size) -> OutputSize {
        .scale(min(260 / canvas.width, 400 / canvas.height))
    }

    /// Writes `bytes` at `relative` below the output folder, atomically, once
    /// `checkedTarget` allows it.
    private func writeOutput(
        _ bytes: [UInt8], to relative: String, format: OutputFormat, for item: BatchItem, protection: OutputProtection
    ) throws {
        let target = try checkedTarget(relative, format: format, for: item, protection: protection)
        do {
            // One sync for the whole run (before the manifest is saved), not one per output,
            // unless asked: the manifest only ever records outputs already on disk, and an
            // output lost in a system crash no longer matches its stamp, so it is made again.
            if options.syncEachOutput {
                try AtomicFile.write(bytes, to: target.path)
            } else {
                try AtomicFile.writeDeferringSync(bytes, to: target.path)
            }
        } catch {
            throw DocumentError(file: item.input.path, kind: .io("cannot write the output \(target.path): \(error.reason)"))
        }
    }

    /// The file at `relative` below the output folder, its folders made as needed, once it
    /// may be written: refused when the path would lead outside the output folder (through
    /// `..` or a symbolic link planted inside it) or replace a file that is not an earlier
    /// output (see `OutputProtection`). Nothing is written.
    private func checkedTarget(
        _ relative: String, format: OutputFormat, for item: BatchItem, protection: OutputProtection,
        creatingFolders: Bool = true
    ) throws -> URL {
        let target = outputFolder.appendingPathComponent(relative).standardizedFileURL
        let root = outputFolder.path
        guard target.path.hasPrefix(root + "/") else {
            throw BatchError(message: "\(target.path): outside the output folder \(root); not written")
        }
        let folder = target.deletingLastPathComponent()
        // Resolved as far as it exists, before any folder is made: a link planted inside the
        // output folder must not lead the folders made below it anywhere else.
        let realRoot = Self.realPath(outputFolder)
        let realFolder = Self.realPath(folder)
        guard realFolder == realRoot || realFolder.hasPrefix(realRoot + "/") else {
            throw BatchError(
                message: "\(folder.path) leads outside the output folder \(root) through a symbolic link; not written")
        }
        // Never among an input folder's own files (an output folder that holds an input
        // folder mirrors `in/in/x.drawing` onto `in/x.png`).
        let realTarget = realFolder + "/" + target.lastPathComponent
        if let input = inputFolders.first(where: { realTarget.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
            throw DocumentError(
                file: item.input.path,
                kind: .io(
                    "its output \(target.path) would be inside the input folder \(input), among the documents' own files; nothing was written — choose an output folder that does not hold the input folder"
                ))
        }
        if creatingFolders {
            do {
                try FileIO.createFolders(at: folder.path)
            } catch {
                throw DocumentError(
                    file: item.input.path,
                    kind: .io("cannot create the output folder \(folder.path) (\(error.reason)); check that it can be written"))
            }
        }
        if let reason = protection.refusal(toReplace: target, format: format, registry: registry) {
            throw OutputProtection.error(replacing: target, by: item.input, because: reason)
        }
        return target
    }

    /// Creates the output folder and checks that files can be written in it, so a folder
    /// that cannot be written fails the run once, before any document is rendered.
    public func prepareOutputFolder() throws(BatchError) {
        do {
            try FileIO.createFolders(at: outputFolder.path)
        } catch {
            throw BatchError(
                message:
                    "cannot create the output folder \(outputFolder.path) (\(error.reason)); choose a folder that can be written"
            )
        }
        let probe = outputFolder.appendingPathComponent(".easel-write-check-\(getpid())").path
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw BatchError(
                message:
                    "cannot write in the output folder \(outputFolder.path) (\(String(cString: strerror(errno)))); choose a folder that can be written"
            )
        }
        close(fd)
        unlink(probe)
    }
}
