import ArgumentParser
import FoundationEssentials
import Glibc
import EaselDocuments
import EaselGeometry
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo

struct ValidateCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check documents and list every problem; exit 1 if a document cannot be opened.",
        discussion: """
            An error stops a document from opening (named with its JSON key path) and makes the \
            exit status 1. A warning is something drawn differently from what the document says: \
            a missing, refused or unreadable image (the error image is drawn, as the app does \
            for its own preview cards, whose photos were never saved), an unknown font, a \
            character no font has, a legacy card that is upgraded when read. Warnings are listed \
            and exit 0 unless --strict. Folders are searched recursively.

            Examples:
              easel validate ~/Documents --json
              easel validate Cards --strict      # warnings fail too (for CI)
            """
    )

    @Argument(help: "Documents or folders of documents.", completion: .file())
    var paths: [String]

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Exit 1 on warnings too, not only on documents that cannot be opened.")
    var strict = false

    @Option(
        help:
            "The most seconds one document's check may take (decoding its images, laying out its texts); one that takes longer is reported invalid."
    )
    var timeout: Double?

    // Warnings exit 0 by default now; the old flag is still accepted.
    @Flag(name: .customLong("warnings-ok"), help: .hidden)
    var warningsOK = false

    struct Result: Codable {
        var path: String
        var valid: Bool
        var errors: [String]
        var warnings: [String]
    }

    func validate() throws {
        if strict && warningsOK { throw ValidationError("--strict fails on warnings; --warnings-ok does not: give one.") }
        if let timeout, !(timeout > 0 && timeout <= RenderTimeout.maxSeconds) {
            throw ValidationError(
                "--timeout must be a number of seconds above 0 and at most \(formatNumber(RenderTimeout.maxSeconds)), not \(formatNumber(timeout))."
            )
        }
    }

    func execute() throws {
        var results: [Result] = []
        for path in paths {
            guard FileManager.default.fileExists(atPath: path) else {
                results.append(Result(path: path, valid: false, errors: ["\(path): no such file or folder"], warnings: []))
                continue
            }
            let url = URL(fileURLWithPath: path)
            if FileIO.isFolder(path) && !DocumentRegistry.standard.isDocument(url) {
                // Everything named like a document, as a folder export sees it: what it
                // cannot export (a link, a pipe, an undecodable name) is invalid here too.
                for entry in DocumentScanner.scan(url, registry: .standard) {
                    let entryPath = url.appendingPathComponent(entry.relativePath).relativePath
                    if let problem = entry.problem {
                        results.append(Result(path: entryPath, valid: false, errors: ["\(entryPath): \(problem)"], warnings: []))
                    } else {
                        results.append(check(url.appendingPathComponent(entry.relativePath)))
                    }
                }
            } else {
                results.append(check(url))
            }
        }
        if json {
            Terminal.write(try JSONOutput.string(results))
        } else {
            for result in results {
                if result.errors.isEmpty && result.warnings.isEmpty {
                    Terminal.write("\(Terminal.styled("ok", .green)) \(Terminal.safe(result.path))")
                }
                for error in result.errors { Terminal.write("\(Terminal.styled("error:", .red)) \(Terminal.safe(error))") }
                for warning in result.warnings {
                    Terminal.write("\(Terminal.styled("warning:", .yellow)) \(Terminal.safe(warning))")
                }
            }
        }
        let failed = results.contains { !$0.errors.isEmpty || (strict && !$0.warnings.isEmpty) }
        if !json {
            let bad = results.filter { !$0.errors.isEmpty }.count
            let warned = results.filter { $0.errors.isEmpty && !$0.warnings.isEmpty }.count
            Terminal.printError(
                "easel: \(results.count) document\(results.count == 1 ? "" : "s") checked: \(results.count - bad - warned) ok, \(warned) with warnings, \(bad) invalid"
            )
        }
        if failed { throw ExitCode.documentFailure }
    }

    private func check(_ url: URL) -> Result {
        do {
            let deadline = RenderTimeout.deadline(seconds: timeout)
            let located = try DocumentRegistry.standard.open(url)
            // Lowering loads every image and font the document uses, without rasterising.
            let warnings = try DocumentRenderer.warnings(for: located, deadline: deadline)
            let all = (located.warnings + warnings).map(\.description)
            return Result(path: url.relativePath, valid: true, errors: [], warnings: all)
        } catch {
            return Result(path: url.relativePath, valid: false, errors: ["\(error)"], warnings: [])
        }
    }
}
