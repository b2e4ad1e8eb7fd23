import ArgumentParser

/// The `easel` command line: open, inspect, edit and export Easel documents.
@main
struct Easel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "easel",
        abstract: "Open, inspect, edit and export drawings and Cards-app cards.",
        version: EaselVersion.current,
        subcommands: [ExportCommand.self]
    )
}

enum EaselVersion {
    static let current = "0.1.0"
}
