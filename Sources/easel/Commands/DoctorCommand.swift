import ArgumentParser
import EaselCairo
import FoundationEssentials

/// `easel doctor`: is this machine ready to render? Checks the C libraries by using them and
/// every font file the font map loads, and names the package for anything missing.
struct DoctorCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the libraries and font files Easel needs; name the package for anything missing.",
        discussion: """
            Draws, encodes and decodes a small image (cairo, libpng), makes SVG and PDF pages, \
            starts FreeType, and loads every font file the font map uses. Exit status 0 when \
            everything is present and works, 1 otherwise, with the apt-get command that installs \
            what is missing.

            Examples:
              easel doctor
              easel doctor --json
            """
    )

    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Flag(name: .shortAndLong, help: "List every check, not only the problems and a summary.")
    var verbose = false

    func execute() throws {
        let report = SystemCheck.run()
        if json {
            struct Output: Encodable { var ok: Bool, checks: [SystemCheck.Item], install: String? }
            Terminal.write(
                (try? JSONOutput.string(Output(ok: report.problems.isEmpty, checks: report.items, install: report.installHint)))
                    ?? "{}")
        } else {
            let fonts = report.items.filter { $0.name.hasPrefix("font ") }
            for item in report.items where verbose || !item.ok || !item.name.hasPrefix("font ") {
                let package =
                    item.ok ? "" : "  (Debian: \(item.debianPackage)\(item.fedoraPackage.map { "; Fedora: \($0)" } ?? ""))"
                Terminal.printLine("\(item.ok ? "ok     " : "MISSING") \(item.name): \(item.detail)\(package)")
            }
            let fontProblems = fonts.filter { !$0.ok }.count
            if !verbose {
                Terminal.printLine(
                    "\(fontProblems == 0 ? "ok     " : "MISSING") fonts: \(fonts.count - fontProblems) of \(fonts.count) font files load"
                )
            }
            if let hint = report.installHint {
                Terminal.error(
                    "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); on Debian or Ubuntu: sudo \(hint)"
                )
            } else {
                Terminal.printError("easel: ready: every library works and all \(fonts.count) font files load")
            }
        }
        if !report.problems.isEmpty { throw ExitCode.documentFailure }
    }
}
