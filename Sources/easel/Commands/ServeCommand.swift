import ArgumentParser

/// `easel serve …`, git-style: runs the `easel-serve` program with the same arguments, so
/// that `easel` itself builds without the server stack (SwiftNIO, Hummingbird). Its options
/// and their help are easel-serve's own: `easel serve --help` shows them.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder's documents over HTTP: list, JSON, renders (PNG, SVG, PDF), edits, undo, change events.",
        discussion: """
            Runs easel-serve (beside easel, or on PATH) with these arguments; `easel serve --help` \
            shows its options. `make install` installs it; `swift build -c release --product \
            easel-serve` builds it.
            Example: easel serve Assets/Samples --port 8080
            """
    )

    @Argument(
        parsing: .captureForPassthrough, help: "The folder to serve and easel-serve's options (easel serve --help).",
        completion: .directory)
    var arguments: [String] = []

    func run() throws {
        let executable = ServeLauncher.runningExecutable()
        guard let program = ServeLauncher.locate(beside: executable, path: ServeLauncher.environmentPath) else {
            Terminal.printError(ServeLauncher.notInstalledMessage(beside: executable))
            throw ExitCode.documentFailure
        }
        let failure = ServeLauncher.exec(program, arguments: arguments)
        Terminal.printError("easel: error: cannot run \(program): \(failure)")
        throw ExitCode.documentFailure
    }
}
