import FoundationEssentials
import Glibc
import EaselBatch
import EaselDocuments
import EaselRender
import EaselSupport

/// One document exported to one file or to standard output, as plain values: what
/// `ExportCommand` parsed, or what `plain(_:)` recognised in the command line most single
/// exports are (`easel export DOC --out FILE.png`) without swift-argument-parser, whose
/// parsing of the export's thirty options is most of a new process's first milliseconds
/// (4–5 ms of a 12 ms export on a slow host: docs/performance.md). Both ways give the same
/// value for such a command line (`PlainExportLineTests`), and this value is all the
/// export reads.
struct SingleExport: Equatable {
    var input: String
    var out: String
    var base: String? = nil
    var timeout: Double? = nil
    var render = RenderChoices()
    var json = false
    var quiet = false

    /// The single export `arguments` (the process's, program name first) ask for when they
    /// are `export DOC --out FILE` (or `-o FILE`, or `--out=FILE`, in either order) and
    /// nothing else, DOC a document file and FILE a .png, .svg or .pdf that is not a folder:
    /// what ArgumentParser would make of them, without it. Nil for anything else, which the
    /// parser takes as always (with its messages and help).
    static func plain(_ arguments: [String]) -> SingleExport? {
        guard let (document, output) = plainWords(arguments) else { return nil }
        guard DocumentRegistry.standard.isDocument(path: document), ExportCommand.isOneDocument(document),
            !ExportCommand.namesFolder(output)
        else { return nil }
        return SingleExport(input: document, out: output)
    }

    /// The document and the output of `export DOC --out FILE` (or `-o FILE`, `--out=FILE`, in
    /// either order) when the arguments are that and nothing else, FILE named .png, .svg or
    /// .pdf, and neither starting with `-` (which the parser reads as an option).
    static func plainWords(_ arguments: [String]) -> (document: String, output: String)? {
        guard arguments.count >= 4, arguments.count <= 5, arguments[1] == ExportCommand.configuration.commandName else {
            return nil
        }
        let rest = Array(arguments.dropFirst(2))
        let found: (String, String)?
        switch rest.count {
        case 2:
            found =
                rest[0].hasPrefix("--out=")
                ? (rest[1], String(rest[0].dropFirst("--out=".count)))
                : rest[1].hasPrefix("--out=") ? (rest[0], String(rest[1].dropFirst("--out=".count))) : nil
        case 3:
            found =
                ["--out", "-o"].contains(rest[0])
                ? (rest[2], rest[1]) : ["--out", "-o"].contains(rest[1]) ? (rest[0], rest[2]) : nil
        default: found = nil
        }
        guard let (document, output) = found, !document.hasPrefix("-"), !output.hasPrefix("-"),
            OutputFormat(rawValue: PathNames.extension(of: output).lowercased()) != nil
        else { return nil }
        return (document, output)
    }

    /// Exports, ending with the task that started it and, on Ctrl-C or SIGTERM, removing its
    /// temporary file (the output, if there was one, stays as it was) as the signal ends it.
    func execute() throws {
        // A render never outlives the task that started it (a scheduler killing its parent).
        ParentWatch.endWithParent()
        try ExportCommand.checkInputs([input])
        let signals = SignalWatcher { number in
            Terminal.printError("easel: \(number == SIGINT ? "interrupted" : "terminated"); nothing was written")
            PendingTemporaryFiles.removeAllAndExit(status: 128 + number)
        }
        defer { signals.stop() }
        try export()
    }

    /// Renders the document and writes it, then says what was written.
    func export() throws {
        StageTimings.mark("arguments")
        defer { if let timings = StageTimings.report() { Terminal.printError("easel: timings: \(timings)") } }
        let deadline = RenderTimeout.deadline(seconds: timeout)
        var options = render.renderOptions(outputPath: out == "-" ? nil : out)
        // While the document is read on another core: what the output's folder protects.
        let outputCheck =
            out == "-" ? nil : OutputProtection.SingleExportCheck(output: URL(fileURLWithPath: out), format: options.format)
        let located: LocatedDocument
        var early: EarlyOpen.Opened? = nil
        if input == "-" {
            located = try ExportCommand.readStandardInput(
                base: URL(fileURLWithPath: base ?? FileManager.default.currentDirectoryPath))
        } else {
            guard FileManager.default.fileExists(atPath: input) else {
                throw DocumentError(file: input, kind: .io("no such file or folder"))
            }
            // Usually opened already, while the arguments were parsed.
            early = EarlyOpen.take(input)
            located = try early?.document() ?? DocumentRegistry.standard.open(URL(fileURLWithPath: input))
        }
        StageTimings.mark("read")
        if let index = render.areaIndex { options.area = try ExportCommand.area(of: index, in: located) }
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
                input: input, output: out, status: .rendered, warnings: warnings, error: nil,
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
}
