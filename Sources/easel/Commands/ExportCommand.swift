import ArgumentParser
import FoundationEssentials
import Glibc
import Dispatch
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo
import EaselSupport

struct ExportCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render documents to PNG, SVG or PDF: one to a file (or standard output), many into a folder.",
        discussion: """
            One document and an --out (-o) that is a file: that file is written, in the format its \
            extension names (.png, .svg, .pdf; another extension needs --format, and a format that \
            contradicts the extension is refused). --out - writes to standard output, as one \
            document does without --out when standard output is not a terminal \
            (easel export a.drawing > a.png); a document path - reads the document from standard \
            input (its images from --base, default the current folder).

            Any mix of documents and folders, or an --out that is a folder (an existing one, or a \
            path ending in /): every document is written inside it, folders searched \
            recursively and mirrored (several inputs side by side under their own names). Such \
            exports run in parallel, skip documents whose outputs are up to date (a manifest in \
            the output folder records what each output was made from), keep going past bad \
            documents. --thumbnails, --report, --shard, --jobs, --force, --dry-run, --fail-fast \
            and --exclude apply to them only. Exit status: 0 every document rendered or up to \
            date; 1 the run finished but some documents failed (the report names them); 2 the \
            run could not start (an output folder that cannot be written, another run of the \
            same shard); 64 a usage error; 130 or 143 stopped by a signal.

            --shard auto takes the shard from the scheduler: a Slurm array task, a Kubernetes \
            Indexed Job's pod (JOB_COMPLETION_INDEX, with --shard-count or EASEL_SHARD_COUNT), \
            or EASEL_SHARD=K/N. Every shard of every run shares the output folder's manifest, \
            so another shard count, or one process, renders nothing twice.

            Each line is printed as it happens. With --json, standard output carries one JSON \
            object per document as it finishes and a final totals object (schema in docs/cli.md).

            Examples:
              easel export Card.rwcard -o card.png
              easel export Card.rwcard > card.png
              easel export art.drawing --out art.svg --width 2000 --height 1000 --fit cover
              easel export art.drawing --out - --format png | convert - art.jpg
              easel export *.rwcard Albums --out pngs/ --thumbnails --report report.json
              easel export ~/Documents --out /shared/pngs --shard 3/16 --json
              easel export /data/cards --out /data/pngs/ --shard auto --report /data/reports/
            """
    )

    @Argument(help: "Documents and folders of documents; - reads one document from standard input.", completion: .file())
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: ArgumentHelp(
            "The file to write for one document (- for standard output, the default when that is no terminal), or the folder to write into (ends in / or exists).",
            valueName: "out"))
    var outOption: String?

    /// Where to write: --out as given; without it, standard output, which `validate` allows
    /// for one document when standard output is not a terminal.
    var out: String { outOption ?? "-" }

    @Option(help: ArgumentHelp("The folder a document read from standard input takes its images from.", valueName: "dir"))
    var base: String?

    @OptionGroup var render: RenderOptionGroup

    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: "Documents rendered at once (default: the number of cores, or `easel config set jobs N`).")
    var jobs: Int?

    @Flag(help: "Render every document, even those whose outputs are up to date.")
    var force = false

    @Flag(help: "Also write the app-style 260x400 thumbnail NAME.thumbnail.png next to each output.")
    var thumbnails = false

    @Flag(
        name: .customLong("dry-run"),
        help: "List what would be rendered and skipped; write no output (a --report is written, its entries planned).")
    var dryRun = false

    @Flag(name: .customLong("fail-fast"), help: "Stop starting documents after the first failure.")
    var failFast = false

    @Flag(name: .shortAndLong, help: "No progress line and no list of files written; failures and the summary only.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print each document's warnings.")
    var verbose = false

    @Flag(help: "Print one JSON object per document as it finishes, then the totals (NDJSON), on standard output.")
    var json = false

    @Flag(help: "After exporting, watch the documents and their images and export again as they change, until Ctrl-C.")
    var watch = false

    @Option(
        help: ArgumentHelp(
            "Write a JSON report of every document (schema in docs/batch.md); a folder (DIR/) gets report-K-of-N.json, made if need be.",
            valueName: "file.json|dir/"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Render only the K-th of N stable partitions of the documents (1 ≤ K ≤ N); auto: the scheduler's task (Slurm array, Kubernetes Indexed Job, EASEL_SHARD).",
            valueName: "k/n|auto"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "With --shard auto in a Kubernetes Indexed Job: how many indexes (the Job's completions).", valueName: "n"))
    var shardCount: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds to wait when another run of the same shard is exporting into the output folder (default 0: refuse at once).",
            valueName: "seconds"))
    var leaseWait: Double?

    @Option(help: ArgumentHelp("Leave a path out of the scan (repeatable).", valueName: "path"))
    var exclude: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a document may take to render; past it, that document stops and fails as timed out (a folder export goes on with the others).",
            valueName: "seconds"))
    var timeout: Double?

    // For the benchmark: flush each output to disk as it is written (the old way).
    @Flag(name: .customLong("sync-each-output"), help: .hidden)
    var syncEachOutput = false

    /// The options only a folder export uses, by the name the user typed.
    var batchOnlyOptions: [String] {
        var given: [String] = []
        if jobs != nil { given.append("--jobs") }
        if force { given.append("--force") }
        if thumbnails { given.append("--thumbnails") }
        if dryRun { given.append("--dry-run") }
        if failFast { given.append("--fail-fast") }
        if report != nil { given.append("--report") }
        if shard != nil { given.append("--shard") }
        if shardCount != nil { given.append("--shard-count") }
        if leaseWait != nil { given.append("--lease-wait") }
        if !exclude.isEmpty { given.append("--exclude") }
        return given
    }

    /// True when --out names a folder to write into: an existing folder that is not itself a
    /// document, or a path ending in /.
    var outIsFolder: Bool {
        if out == "-" { return false }
        if out.hasSuffix("/") { return true }
        return FileIO.isFolder(out) && !DocumentRegistry.standard.isDocument(URL(fileURLWithPath: out))
    }

    /// One document to one file (or standard output).
    var isSingle: Bool {
        guard inputs.count == 1, !outIsFolder else { return false }
        if inputs[0] == "-" || DocumentRegistry.standard.isDocument(URL(fileURLWithPath: inputs[0])) { return true }
        // A file that is no document is one input too (refused as such), not a folder.
        return FileManager.default.fileExists(atPath: inputs[0]) && !FileIO.isFolder(inputs[0])
    }

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256.") }
        if let timeout, !(timeout > 0 && timeout <= RenderTimeout.maxSeconds) {
            throw ValidationError(
                "--timeout must be a number of seconds above 0 and at most \(formatNumber(RenderTimeout.maxSeconds)), not \(formatNumber(timeout))."
            )
        }
        if let shard, shard != "auto", Shard(parsing: shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, such as 2/8, or auto, not \"\(shard)\".")
        }
        if let shardCount, !(1...1_000_000).contains(shardCount) {
            throw ValidationError("--shard-count must be from 1 to 1000000, not \(shardCount).")
        }
        if shardCount != nil && shard != "auto" { throw ValidationError("--shard-count goes with --shard auto.") }
        if let leaseWait, !(leaseWait >= 0 && leaseWait <= 86_400) {
            throw ValidationError("--lease-wait must be from 0 to 86400 seconds, not \(formatNumber(leaseWait)).")
        }
        guard !inputs.isEmpty else { throw ValidationError("Name a document or a folder to export.") }
        if outOption == nil { try checkStandardOutput() }
        if inputs.contains("-") && inputs.count > 1 {
            throw ValidationError("- reads one document from standard input: it cannot be mixed with other inputs.")
        }
        if base != nil && inputs != ["-"] { throw ValidationError("--base is for a document read from standard input (-).") }
        if watch && (inputs == ["-"] || out == "-" || dryRun) {
            throw ValidationError("--watch watches files: not standard input or output, and not with --dry-run.")
        }
        if isSingle {
            let batchOnly = batchOnlyOptions
            if !batchOnly.isEmpty {
                throw ValidationError(
                    "\(batchOnly.joined(separator: ", ")) \(batchOnly.count == 1 ? "applies" : "apply") to exports into a folder; give --out a folder (out/) to use \(batchOnly.count == 1 ? "it" : "them") with one document."
                )
            }
            try checkFormatAgainstExtension()
        } else {
            if out == "-" { throw ValidationError("--out - writes one document to standard output; several need a folder.") }
            if render.areaIndex != nil {
                throw ValidationError("--area with an element index is for one document; a folder export renders whole canvases.")
            }
        }
    }

    /// Without --out, the one document goes to standard output: not several (they need a
    /// folder), and not onto a terminal, where PNG bytes are noise; either says what to type.
    func checkStandardOutput() throws {
        guard isSingle else {
            throw ValidationError(
                "give --out DIR (or -o) to export several documents or a folder: easel export \(inputs.map(\.shellWord).joined(separator: " ")) --out DIR/"
            )
        }
        guard isatty(STDOUT_FILENO) == 0 else {
            let input = inputs[0]
            let name = input == "-" ? "out" : PathNames.deletingExtension(of: PathNames.lastComponent(of: input))
            let suggested = (name + "." + (render.format ?? .png).rawValue).shellWord
            throw ValidationError(
                "give --out FILE (or -o), or redirect standard output to a file: easel export \(input.shellWord) > \(suggested)"
            )
        }
    }

    /// The format follows the output's extension; a contradiction, or an extension Easel does
    /// not write with no --format, is a usage error rather than PNG bytes under a wrong name.
    func checkFormatAgainstExtension() throws {
        guard out != "-" else { return }
        let ext = PathNames.extension(of: out).lowercased()
        guard !ext.isEmpty else { return }
        if let named = OutputFormat(rawValue: ext) {
            if let format = render.format, format != named {
                throw ValidationError(
                    "--out \(out) names a .\(ext) file but --format is \(format.rawValue): give one, or make them agree.")
            }
        } else if render.format == nil {
            throw ValidationError(
                "easel writes PNG, SVG and PDF; --out \(out) ends in .\(ext): name it .png, .svg or .pdf, or give --format.")
        }
    }

    func execute() throws {
        // A render never outlives the task that started it (a scheduler killing its parent).
        ParentWatch.endWithParent()
        let registry = DocumentRegistry.standard
        for input in inputs where input != "-" {
            guard FileManager.default.fileExists(atPath: input) else {
                throw DocumentError(file: input, kind: .io("no such file or folder"))
            }
            // Neither a document nor a folder of them (a typo in the extension, a text
            // file): refused before anything is made, as `info` and `validate` refuse it.
            let url = URL(fileURLWithPath: input)
            if !FileIO.isFolder(input) && !registry.isDocument(url) {
                throw DocumentError(
                    file: input,
                    kind: .unsupportedType(fileExtension: url.pathExtension, supported: registry.supportedExtensions))
            }
        }
        guard watch else {
            guard isSingle else { return try exportOnce() }
            // Stopped by Ctrl-C or SIGTERM, a single export removes its temporary file (the
            // output, if there was one, stays as it was) and ends as the signal would.
            let signals = SignalWatcher { number in
                Terminal.printError("easel: \(number == SIGINT ? "interrupted" : "terminated"); nothing was written")
                PendingTemporaryFiles.removeAllAndExit(status: 128 + number)
            }
            defer { signals.stop() }
            return try exportOne()
        }
        try? reportingFailures(exportOnce)
        try watchAndExport()
    }

    private func exportOnce() throws {
        if isSingle { try exportOne() } else { try exportMany() }
    }

    /// Runs `body`, reporting what it throws on stderr instead (a watch goes on).
    private func reportingFailures(_ body: () throws -> Void) throws {
        do { try body() } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.error("\(error)")
        }
    }

    // MARK: Watching

    /// Exports again whenever a document or an image it uses changes, until SIGINT or
    /// SIGTERM (`ExportWatch`, which also ends when a watched folder is gone for good).
    private func watchAndExport() throws {
        let ending = try ExportWatch.run(
            inputs: inputs.map { URL(fileURLWithPath: $0) }, ignoring: [out] + (report.map { [$0] } ?? []),
            warn: { Terminal.warning($0) },
            started: { Terminal.printError("easel: watching \($0) folder\($0 == 1 ? "" : "s"); Ctrl-C stops") }
        ) {
            do {
                try reportingFailures(exportOnce)
            } catch let exit as ExitCode {
                // A failed document was reported: keep watching; a signal during the export ends the watch.
                return exit.rawValue != 128 + SIGINT && exit.rawValue != 128 + SIGTERM
            } catch {}
            return true
        }
        if case .folderGone(let failure) = ending {
            Terminal.error("\(failure); stopped watching")
            throw ExitCode.failure
        }
        Terminal.printError("easel: stopped watching")
    }

    // MARK: One document

    private func exportOne() throws {
        StageTimings.mark("arguments")
        defer { if let timings = StageTimings.report() { Terminal.printError("easel: timings: \(timings)") } }
        let deadline = RenderTimeout.deadline(seconds: timeout)
        var options = render.renderOptions(outputPath: out == "-" ? nil : out)
        // While the document is read on another core: what the output's folder protects.
        let outputCheck =
            out == "-" ? nil : OutputProtection.SingleExportCheck(output: URL(fileURLWithPath: out), format: options.format)
        let located: LocatedDocument
        var early: EarlyOpen.Opened? = nil
        if inputs[0] == "-" {
            located = try Self.readStandardInput(base: URL(fileURLWithPath: base ?? FileManager.default.currentDirectoryPath))
        } else {
            guard FileManager.default.fileExists(atPath: inputs[0]) else {
                throw DocumentError(file: inputs[0], kind: .io("no such file or folder"))
            }
            // Usually opened already, while the arguments were parsed.
            early = EarlyOpen.take(inputs[0])
            located = try early?.document() ?? DocumentRegistry.standard.open(URL(fileURLWithPath: inputs[0]))
        }
        StageTimings.mark("read")
        if let index = render.areaIndex { options.area = try Self.area(of: index, in: located) }
        let started = Date()
        func scene() throws -> Scene {
            // Usually lowered already too, unless another background is asked for.
            let lowered = options.background == nil ? early?.scene(for: options) : nil
            return try lowered
                ?? DocumentRenderer.scene(
                    for: located, background: options.background, deadline: deadline, drawnFor: options)
        }
        let file: (width: Int, height: Int, warnings: [DocumentWarning])
        if out == "-" {
            let exported = try DocumentRenderer.export(scene(), options: options)
            StandardStreams.writeOutput(exported.bytes)
            file = (exported.width, exported.height, exported.warnings)
        } else {
            let output = URL(fileURLWithPath: out)
            try outputCheck?.check(of: located)
            StageTimings.mark("check output")
            // Written as it is encoded, to a temporary file renamed over the output at the end;
            // parent folders are made as needed, once the rendering succeeded.
            let written = try DocumentRenderer.export(scene(), options: options, writingTo: output.path, creatingFolders: true)
            file = (written.width, written.height, written.warnings)
            StageTimings.mark("write")
        }
        let warnings = (located.warnings + file.warnings).map(\.description)
        if json {
            let entry = BatchEntry(
                input: inputs[0], output: out, status: .rendered, warnings: warnings, error: nil,
                milliseconds: Date().timeIntervalSince(started) * 1000)
            Terminal.write(try JSONOutput.line(BatchDocumentEvent(entry)))
            Terminal.write(try JSONOutput.line(BatchTotalsEvent(single: entry)))
            return
        }
        for warning in warnings { Terminal.warning(warning) }
        let size = "(\(file.width)x\(file.height))"
        if out == "-" {
            Terminal.printError("easel: wrote standard output \(size)")
        } else if !quiet {
            Terminal.printLine("wrote \(out) \(size)")
        }
    }

    /// A document from standard input, its images looked for in `base` (its type as the
    /// registry recognizes the bytes: `DocumentRegistry.open(bytes:name:in:)`).
    static func readStandardInput(base: URL) throws -> LocatedDocument {
        let largest = DocumentRegistry.standard.entries.map { $0.documentType.maxFileBytes }.max() ?? 0
        let bytes = try FileIO.readBytes(at: "/dev/stdin", maxBytes: largest, allowingStreams: true)
        return try DocumentRegistry.standard.open(bytes: bytes, name: "standard input", in: base)
    }

    /// The canvas bounds of element `index`: its frame, rotated, as `easel info` lists it.
    static func area(of index: Int, in located: LocatedDocument) throws -> RenderOptions.Area {
        guard let editable = located.document as? any EditableDocument else {
            throw ValidationError("--area \(index): \(located.displayName) has no elements to choose from.")
        }
        let elements = editable.elementDescriptions(resourceFolder: located.resourceFolder)
        guard elements.indices.contains(index) else {
            // The editing commands' words for an index out of range.
            let outOfRange = EditError.indexOutOfRange(index, count: elements.count, kind: editable.kindName)
            throw ValidationError("--area \(index): \(located.displayName): \(outOfRange.message).")
        }
        let element = elements[index]
        var frame = Path()
        frame.addRect(Rect(center: .zero, size: element.size))
        let placed = frame.applying(
            Transform2D.rotation(degrees: element.rotation)
                .concatenating(.translation(x: element.center.x, y: element.center.y)))
        guard let bounds = placed.controlPointBounds, bounds.width > 0, bounds.height > 0 else {
            throw ValidationError("--area \(index): the element has no area.")
        }
        return RenderOptions.Area(bounds)
    }

    // MARK: Many documents, into a folder

    /// Where the report goes: `--report FILE`, or inside a folder (`DIR/`, or one that
    /// exists; made if need be) under the shard's name, so every shard of an export can be
    /// given the same folder.
    private func reportPath(shard: Shard?) throws -> String? {
        guard let report else { return nil }
        guard report.hasSuffix("/") || FileIO.isFolder(report) else { return report }
        do {
            try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
        } catch {
            Terminal.error("\(report): cannot make the reports' folder: \(FileIO.reason(error))")
            throw ExitCode.couldNotRun
        }
        return URL(fileURLWithPath: report).appendingPathComponent(BatchReport.fileName(shard: shard)).path
    }

    /// The shard to export: as given, or (auto) as the scheduler's variables say.
    private func resolvedShard() throws -> Shard? {
        guard let shard else { return nil }
        guard shard == "auto" else { return Shard(parsing: shard) }
        do {
            return try ShardEnvironment.shard(from: ProcessInfo.processInfo.environment, count: shardCount)
        } catch {
            throw ValidationError(error.message)
        }
    }

    private func exportMany() throws {
        let settings = Settings.loadReportingProblems()
        let options = BatchExportOptions(
            render: render.renderOptions(outputPath: nil, settings: settings),
            jobs: jobs ?? settings[.jobs].flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount,
            force: force, thumbnails: thumbnails, dryRun: dryRun, failFast: failFast,
            shard: try resolvedShard(), excluded: exclude.map { URL(fileURLWithPath: $0) })
        var batchOptions = options
        batchOptions.syncEachOutput = syncEachOutput
        batchOptions.timeout = timeout
        let exporter: BatchExporter
        do {
            exporter = try BatchExporter(
                inputs: inputs.map { URL(fileURLWithPath: $0) }, outputFolder: URL(fileURLWithPath: out), options: batchOptions)
        } catch {
            throw ValidationError(error.message)
        }
        // The report's place is checked before anything is made, not after every document.
        let report = try reportPath(shard: options.shard)
        if let report {
            do { try BatchReport.checkDestination(report) } catch {
                Terminal.error(error.description)
                throw ExitCode.couldNotRun
            }
        }
        // What keeps the run from starting is its own status (2), apart from documents failing (1).
        var lease: ShardLease?
        if !dryRun {
            do {
                try exporter.prepareOutputFolder()
                lease = try exporter.takeLease(wait: leaseWait ?? 0)
            } catch {
                Terminal.error(DocumentError(file: out, kind: .io(error.message)).description)
                throw ExitCode.couldNotRun
            }
        }
        let (items, documentSet) = exporter.planWithDocumentSet()
        let display = ProgressDisplay(enabled: !quiet && !dryRun && !json)
        let cancellation = CancellationFlag()
        let signals = SignalWatcher { _ in cancellation.cancel() }
        let printer = EventPrinter(
            display: display, quiet: quiet, verbose: verbose, json: json, dryRun: dryRun,
            paths: PathsAsGiven(given: inputs + [out]))

        let result = exporter.run(items, documentSet: documentSet, lease: lease, cancellation: cancellation) {
            progress, entry in
            printer.print(entry)
            display.update(progress)
        }
        display.finish()
        signals.stop()

        var reportFailure: DocumentError?
        if let report {
            do {
                try BatchReport.checkDestination(report)
                try AtomicFile.write(Array(try JSONOutput.data(result)), to: URL(fileURLWithPath: report).path)
            } catch let error as DocumentError {
                reportFailure = DocumentError(file: report, kind: error.kind)
            }
        }
        if json { Terminal.write(try JSONOutput.line(BatchTotalsEvent(result))) }
        Terminal.printError("easel: " + result.summary(dryRun: dryRun, verbose: verbose))
        // Said after the summary, which a failed report does not take away.
        if let reportFailure { throw reportFailure }
        if let signal = signals.caught {
            Terminal.printError(
                "easel: stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); \(result.totals.notStarted) documents not started, the manifest is saved"
            )
            throw ExitCode(128 + signal)
        }
        if result.totals.failed > 0 || result.interrupted { throw ExitCode.documentFailure }
    }
}

/// Shows paths the way the user typed them: the exporter works with absolute paths, and
/// each one below an input or the output folder is written from what was given instead.
struct PathsAsGiven: Sendable {
    /// (absolute, as given) pairs, the longest absolute path first.
    let prefixes: [(absolute: String, given: String)]

    init(given: [String]) {
        prefixes = given.filter { $0 != "-" }.map { given in
            let trimmed = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
            return (URL(fileURLWithPath: trimmed).standardizedFileURL.path, trimmed)
        }.sorted { $0.absolute.count > $1.absolute.count }
    }

    /// `path` (or a message holding it) with the absolute prefixes written as given. A
    /// prefix counts only as whole path components (`/tmp/a` is not the start of
    /// `/tmp/a-out/x.png`), and the text is read once, left to right, so a path already
    /// written as given is not rewritten by a shorter prefix.
    func show(_ text: String) -> String {
        let characters = Array(text)
        var shown = ""
        var index = 0
        scan: while index < characters.count {
            let startsPath = index == 0 || !Self.continuesPath(characters[index - 1])
            if startsPath && characters[index] == "/" {
                for (absolute, given) in prefixes {
                    let candidate = Array(absolute)
                    let end = index + candidate.count
                    guard end <= characters.count, Array(characters[index..<end]) == candidate,
                        end == characters.count || characters[end] == "/" || !Self.continuesPath(characters[end])
                    else { continue }
                    shown += given
                    index = end
                    continue scan
                }
            }
            shown.append(characters[index])
            index += 1
        }
        return shown
    }

    /// Whether `character` can go on a path's last component in a message (a colon, a space,
    /// a quote or a bracket ends it).
    private static func continuesPath(_ character: Character) -> Bool {
        !(character == ":" || character == ";" || character == " " || character == "\"" || character == "'" || character == ","
            || character == "(" || character == ")" || character == "\n")
    }

    /// The entry with its paths as given.
    func show(_ entry: BatchEntry) -> BatchEntry {
        var entry = entry
        entry.input = show(entry.input)
        entry.output = entry.output.map(show)
        entry.error = entry.error.map(show)
        entry.warnings = entry.warnings.map(show)
        return entry
    }
}

/// Prints each finished document of a folder export as it happens (called one at a time
/// from the workers): a line, or a JSON object with --json, above the live progress line.
final class EventPrinter: Sendable {
    let display: ProgressDisplay
    let quiet: Bool, verbose: Bool, json: Bool, dryRun: Bool
    let paths: PathsAsGiven

    init(display: ProgressDisplay, quiet: Bool, verbose: Bool, json: Bool, dryRun: Bool, paths: PathsAsGiven) {
        self.display = display
        self.quiet = quiet
        self.verbose = verbose
        self.json = json
        self.dryRun = dryRun
        self.paths = paths
    }

    func print(_ raw: BatchEntry) {
        let entry = paths.show(raw)
        if json {
            if let line = try? JSONOutput.line(BatchDocumentEvent(entry)) { display.printAbove(line, toStandardError: false) }
            return
        }
        switch entry.status {
        case .rendered:
            if !quiet { display.printAbove(Terminal.safe("wrote \(entry.output ?? "")"), toStandardError: false) }
        case .planned:
            display.printAbove(Terminal.safe("would render \(entry.input) -> \(entry.output ?? "")"), toStandardError: false)
        case .skipped:
            if dryRun { display.printAbove(Terminal.safe("up to date \(entry.input)"), toStandardError: false) }
        case .failed:
            display.printAbove(Terminal.safe(Terminal.errorPrefix + (entry.error ?? entry.input)), toStandardError: true)
        }
        if verbose {
            for warning in entry.warnings {
                display.printAbove(Terminal.safe("easel: warning: \(warning)"), toStandardError: true)
            }
        }
    }
}
