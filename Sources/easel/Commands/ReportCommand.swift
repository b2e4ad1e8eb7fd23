import ArgumentParser
import EaselBatch
import EaselDocuments
import EaselSupport
import FoundationEssentials

/// `easel report`: what can be done with the reports of folder exports.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Combine the reports of an export's shards.",
        subcommands: [ReportMergeCommand.self])
}

struct ReportMergeCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine shard reports into the report of the whole export, naming any shard missing.",
        discussion: """
            Each shard's --report records its shard (K/N) and the fingerprint of the document \
            set it was taken from. The merged report has every shard's documents, as one run \
            of the whole set would have written it (JSON, and with --html a page listing the \
            failures). Exit status: 0 every shard is there, each once, of one document set, \
            and no document failed; 1 otherwise, each reason said on its own line.

            Examples:
              easel report merge reports/*.json -o report.json --html report.html
            """
    )

    @Argument(help: "The shards' reports (JSON, as --report writes them).", completion: .file(extensions: ["json"]))
    var reports: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: ArgumentHelp("Write the merged report here (JSON).", valueName: "file.json"))
    var out: String?

    @Option(help: ArgumentHelp("Write the merged report as a page for people.", valueName: "file.html"))
    var html: String?

    func execute() throws {
        var loaded: [(name: String, report: BatchReport)] = []
        for path in reports {
            let bytes = try FileIO.readBytes(at: path, maxBytes: 1 << 30)
            do {
                loaded.append((path, try JSONDecoder().decode(BatchReport.self, from: Data(bytes))))
            } catch {
                throw DocumentError(file: path, kind: .invalidValue("not a report of easel export --report: \(error)"))
            }
        }
        let merged = BatchReport.merged(loaded)
        if let out {
            try BatchReport.checkDestination(out)
            try AtomicFile.write(Array(try JSONOutput.data(merged.report)), to: out)
        }
        if let html {
            try BatchReport.checkPageDestination(html)
            try AtomicFile.write(Array(merged.report.html(title: "Export report", problems: merged.problems).utf8), to: html)
        }
        Terminal.printError("easel: " + merged.report.summary(dryRun: false, verbose: true))
        for problem in merged.problems { Terminal.error(problem) }
        for entry in merged.report.entries where entry.status == .failed {
            Terminal.error("\(entry.input): \(entry.error ?? "failed")")
        }
        if !merged.isComplete || merged.report.totals.failed > 0 { throw ExitCode.documentFailure }
    }
}
