import ArgumentParser
import EaselSupport

/// The `easel` command line: open, inspect, edit and export Easel documents.
@main
struct EaselRoot: ParsableCommand {
    /// Keeps a closed standard stream from being reused by a file Easel opens, starts the
    /// stage clock (`EASEL_TIMINGS=1`) and a single export's document opening
    /// (see `EarlyOpen`), then parses and runs the command; what it throws is reported in
    /// Easel's one style (`UsageErrors`).
    static func main() {
        StandardStreams.reserveClosedDescriptors()
        StageTimings.start()
        EarlyOpen.start(arguments: CommandLine.arguments)
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try parsedDirectly(CommandLine.arguments) ?? parseAsRoot(nil)
        } catch {
            UsageErrors.exit(with: error, arguments: arguments)
        }
        do {
            try command.run()
        } catch {
            // A usage error found while running shows the usage of the command that ran.
            UsageErrors.exit(with: error, arguments: arguments, runBy: type(of: command))
        }
    }

    /// `easel export …` parsed as the export command alone, which is what parsing from the
    /// root gives for it, without first reading the definitions of all twenty commands (0.6
    /// ms of a render's start). Whatever that parse does not accept (help, a completion
    /// script, an unknown option, a bad value) is parsed again from the root, so every
    /// message and exit stays the root's.
    static func parsedDirectly(_ arguments: [String]) -> (any ParsableCommand)? {
        guard arguments.count > 1, arguments[1] == ExportCommand.configuration.commandName else { return nil }
        // Help comes back as ArgumentParser's own command, worded for `export` alone.
        return (try? ExportCommand.parseAsRoot(Array(arguments.dropFirst(2)))) as? ExportCommand
    }

    /// ArgumentParser's errors start as Easel's own do (`Terminal.errorPrefix`), not `Error: `.
    static var _errorPrefix: String { Terminal.errorPrefix }

    static let configuration = CommandConfiguration(
        commandName: "easel",
        abstract: "Open, inspect, edit and export drawings and Cards-app cards.",
        discussion: """
            Exit codes: 0 success, 1 failure (a document could not be read, edited or written), \
            64 usage error. Shell completion: easel --generate-completion-script bash|zsh|fish.
            """,
        version: EaselVersion.current,
        subcommands: [
            NewCommand.self, InfoCommand.self, AddCommand.self, SetCommand.self, MoveCommand.self,
            RemoveCommand.self, OrderCommand.self, AlignCommand.self, DistributeCommand.self, BackgroundCommand.self,
            UndoCommand.self, RedoCommand.self,
            EditCommand.self, ValidateCommand.self, ExportCommand.self, ReportCommand.self, GoldenCommand.self,
            ConfigCommand.self,
            ServeCommand.self, DoctorCommand.self,
        ]
    )
}
