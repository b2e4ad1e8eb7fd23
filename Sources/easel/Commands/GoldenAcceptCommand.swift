import ArgumentParser
import FoundationEssentials
import EaselGolden

struct GoldenAccept: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Adopt the actual images of a verify report's failures as the goldens.",
        discussion: """
            Reads REPORT/report.json (written by `easel golden verify --report REPORT`, on CI or \
            here) and writes each failed or new document's actual image over its golden, in the \
            goldens folder the report names (or --goldens DIR). A golden that changed since the \
            report was made is left alone, so you accept exactly what the report showed.

            Examples:
              easel golden accept ci-report                  # every failure the report shows
              easel golden accept ci-report --only Cards/a   # just this one
              easel golden accept ci-report --dry-run        # say what would change
            """
    )

    @Argument(help: "The report folder.", completion: .directory)
    var report: String
    @Option(help: ArgumentHelp("The goldens folder (default: the one the report names).", valueName: "dir"))
    var goldens: String?
    @Option(
        help: ArgumentHelp(
            "Accept only this golden: its name (Cards/a), its file (Cards/a.png) or its document (Cards/a.rwcard); repeatable.",
            valueName: "name"))
    var only: [String] = []
    @Flag(name: .customLong("dry-run"), help: "Say what would be accepted; write nothing.")
    var dryRun = false

    func execute() throws {
        let outcomes: [GoldenAcceptance.Outcome]
        do {
            outcomes = try GoldenAcceptance.accept(
                reportFolder: URL(fileURLWithPath: report), goldens: goldens.map { URL(fileURLWithPath: $0) },
                only: only.isEmpty ? nil : Set(only), dryRun: dryRun)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.documentFailure
        }
        var accepted = 0, skipped = 0
        for outcome in outcomes {
            switch outcome {
            case .accepted(_, let golden):
                accepted += 1
                Terminal.printLine((dryRun ? "would accept " : "accepted ") + shown(golden))
            case .unchanged(_, let golden):
                Terminal.printLine("unchanged \(shown(golden)) (it already holds the report's image)")
            case .skipped(let name, let reason):
                skipped += 1
                // Paths in the reason relative too (`./Goldens/a.png` when the report named the folder).
                Terminal.error("skipped \(name): \(PathsAsGiven(given: [goldens ?? "."]).show(reason))")
            }
        }
        Terminal.printError(
            "easel: \(dryRun ? "would accept" : "accepted") \(accepted) golden\(accepted == 1 ? "" : "s")"
                + (skipped > 0 ? ", skipped \(skipped)" : "")
                + (accepted > 0 && !dryRun ? "; look at them before committing" : ""))
        if skipped > 0 { throw ExitCode.documentFailure }
    }

    /// A golden's path as the user would type it: below --goldens as that was given, else
    /// relative to the current folder, where the report's goldens folder is by its relative
    /// name (an absolute path elsewhere stays absolute).
    func shown(_ path: String) -> String {
        if let goldens { return PathsAsGiven(given: [goldens]).show(path) }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        return path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
    }
}
