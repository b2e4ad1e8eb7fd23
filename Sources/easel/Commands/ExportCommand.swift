import ArgumentParser
import Foundation
import Dispatch
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo

struct ExportCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render a document, or every document in folders, to PNG, SVG or PDF.",
        discussion: """
            One document is rendered to the file --out names. Folders are searched recursively for \
            documents (.rwcard cards and .drawing drawings, by extension), and each is written under \
            the --out folder with the same relative path and the format's extension (several input \
            folders side by side under their own names). Folder exports run in parallel, skip \
            documents whose outputs are up to date (a manifest in the output folder records what \
            each output was made from), keep going past bad documents, and exit 1 if any failed.

            Examples:
              easel export Card.rwcard --out card.png
              easel export art.drawing --out art.svg --width 2000
              easel export ~/Documents --out pngs/ --thumbnails --report report.json
              easel export ~/Documents --out /shared/pngs --shard 3/16
            """
    )

    @Argument(help: "A document, or folders of documents.", completion: .file())
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The file to write (for one document) or the folder to write into (for folders).")
    var out: String

    @OptionGroup var render: RenderOptionGroup

    @Option(name: .shortAndLong, help: "Documents rendered at once (default: the number of cores, or `easel config set jobs N`).")
    var jobs: Int?

    @Flag(help: "Render every document, even those whose outputs are up to date.")
    var force = false

    @Flag(help: "Also write the app-style 260x400 thumbnail NAME.thumbnail.png next to each output.")
    var thumbnails = false

    @Flag(name: .customLong("dry-run"), help: "List what would be rendered and skipped; write nothing.")
    var dryRun = false

    @Flag(name: .customLong("fail-fast"), help: "Stop starting documents after the first failure.")
    var failFast = false

    @Flag(name: .shortAndLong, help: "No progress line and no list of files written; failures and the summary only.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print each document's warnings.")
    var verbose = false

    @Option(help: ArgumentHelp("Write a JSON report of every document (schema in the README).", valueName: "file.json"))
    var report: String?

    @Option(help: ArgumentHelp("Render only the K-th of N stable partitions of the documents (1 ≤ K ≤ N).", valueName: "k/n"))
    var shard: String?

    @Option(help: ArgumentHelp("Leave a path out of the scan (repeatable).", valueName: "path"))
    var exclude: [String] = []

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256.") }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, such as 2/8, not \"\(shard)\".")
        }
        guard !inputs.isEmpty else { throw ValidationError("Name a document or a folder to export.") }
    }

    func execute() throws {
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw DocumentError(file: input, kind: .io("no such file or folder"))
        }
        let first = URL(fileURLWithPath: inputs[0])
        let isSingleDocument = inputs.count == 1 && DocumentRegistry.standard.isDocument(first)
        if isSingleDocument {
            try exportOne(first, to: URL(fileURLWithPath: out), options: render.renderOptions(outputPath: out))
        } else {
            try exportFolders()
        }
    }

    private func exportOne(_ input: URL, to output: URL, options: RenderOptions) throws {
        let located = try DocumentRegistry.standard.open(input)
        try OutputProtection.checkSingleExport(of: located, to: output, format: options.format)
        let file = try DocumentRenderer.export(located, options: options)
        try file.write(to: output.path)
        for warning in located.warnings + file.warnings { Terminal.printError("easel: warning: \(warning)") }
        Terminal.printLine("wrote \(output.path) (\(file.width)x\(file.height))")
    }

    private func exportFolders() throws {
        let settings = Settings.loadReportingProblems()
        for input in inputs {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: input, isDirectory: &isFolder)
            if !exists || !isFolder.boolValue || DocumentRegistry.standard.isDocument(URL(fileURLWithPath: input)) {
                throw ValidationError(
                    "\(input) is a document: export several documents by naming their folder, or one document at a time.")
            }
        }
        let options = BatchExportOptions(
            render: render.renderOptions(outputPath: nil, settings: settings),
            jobs: jobs ?? settings[.jobs].flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount,
            force: force, thumbnails: thumbnails, dryRun: dryRun, failFast: failFast,
            shard: shard.flatMap(Shard.init(parsing:)), excluded: exclude.map { URL(fileURLWithPath: $0) })
        let exporter: BatchExporter
        do {
            exporter = try BatchExporter(
                inputs: inputs.map { URL(fileURLWithPath: $0) }, outputFolder: URL(fileURLWithPath: out), options: options)
        } catch {
            throw ValidationError(error.message)
        }
        if !dryRun {
            do { try exporter.prepareOutputFolder() } catch { throw DocumentError(file: out, kind: .io(error.message)) }
        }
        let items = exporter.plan()
        let display = ProgressDisplay(enabled: !quiet && !dryRun)
        let cancellation = CancellationFlag()
        let signals = SignalWatcher { cancellation.cancel() }
        let verbose = self.verbose, quiet = self.quiet

        let result = exporter.run(items, cancellation: cancellation) { progress in display.update(progress) }
        display.finish()
        signals.stop()

        for entry in result.entries {
            switch entry.status {
            case .rendered:
                if !quiet { Terminal.printLine("wrote \(entry.output ?? "")") }
            case .planned:
                Terminal.printLine("would render \(entry.input) -> \(entry.output ?? "")")
            case .skipped:
                if dryRun { Terminal.printLine("up to date \(entry.input)") }
            case .failed:
                Terminal.printError("easel: failed: \(entry.error ?? entry.input)")
            }
            if verbose { for warning in entry.warnings { Terminal.printError("easel: warning: \(warning)") } }
        }
        if let report {
            try Self.checkReportPath(report)
            try AtomicFile.write(Array(try JSONOutput.data(result)), to: URL(fileURLWithPath: report).path)
        }
        Terminal.printError("easel: " + Self.summary(result, dryRun: dryRun, verbose: verbose))
        if let signal = signals.caught {
            Terminal.printError(
                "easel: stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); \(result.totals.notStarted) documents not started, the manifest is saved"
            )
            throw ExitCode(128 + signal)
        }
        if result.totals.failed > 0 || result.interrupted { throw ExitCode.documentFailure }
    }

    /// A report replaces only an earlier report: never a document, never another file.
    static func checkReportPath(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let head = (try? FileHandle(forReadingFrom: url).read(upToCount: 16)).flatMap { $0 } ?? Data()
        let isReport = (status.st_mode & S_IFMT) == S_IFREG && head.first == UInt8(ascii: "{")
        guard isReport, !DocumentRegistry.standard.isDocument(url) else {
            throw DocumentError(
                file: path,
                kind: .io(
                    "the report would replace a file that is not an earlier report; nothing was written — choose another --report path"
                ))
        }
    }

    static func summary(_ report: BatchReport, dryRun: Bool, verbose: Bool = false) -> String {
        let t = report.totals
        let memory = t.peakMemoryBytes.map { ", peak memory \($0 >> 20) MiB" } ?? ""
        let time = String(format: "%.1f s", t.seconds)
        if dryRun {
            return "dry run: \(t.planned) of \(t.documents) documents would be rendered, \(t.skipped) are up to date"
        }
        if t.rendered == 0 && t.failed == 0 && t.notStarted == 0 {
            return "nothing to do: all \(t.documents) documents are up to date (\(time)\(memory))"
        }
        let rate = t.rendered > 0 ? String(format: ", %.1f documents/s", t.documentsPerSecond) : ""
        let warned =
            t.withWarnings > 0
            ? " (\(t.withWarnings) with warnings\(verbose ? "" : "; --verbose lists them, as does --report"))" : ""
        return "rendered \(t.rendered)\(warned), skipped \(t.skipped), failed \(t.failed)"
            + (t.notStarted > 0 ? ", not started \(t.notStarted)" : "")
            + " of \(t.documents) documents in \(time)\(rate)\(memory)"
    }
}
