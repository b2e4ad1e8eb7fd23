import ArgumentParser
import EaselDocuments
import EaselSupport
import FoundationEssentials
import Glibc

/// Usage errors in Easel's one style (`easel: error: …`, exit 64), including the two that
/// ArgumentParser words for its own purposes: a command line without its command
/// (`easel a.drawing -o x.png`) and a value an argument type could not read.
enum UsageErrors {
    /// Reports `error`, which parsing or running the command line `arguments` (without the
    /// program's name) threw, and exits with its status: help and the version on stdout,
    /// everything else on stderr, each problem's line starting `easel: error: `. `command` is
    /// the command that ran and threw, whose usage a usage error shows (ArgumentParser knows
    /// the command only while it parses, and would show the root's).
    static func exit(with error: Error, arguments: [String], runBy command: (any ParsableCommand.Type)? = nil) -> Never {
        let status = EaselRoot.exitCode(for: error)
        if status == .validationFailure, let message = missingCommand(arguments) {
            for line in message.split(separator: "\n") { Terminal.printError(String(line)) }
            Glibc.exit(status.rawValue)
        }
        // Help, the version and completion scripts are ArgumentParser's, on stdout.
        if status == .success { EaselRoot.exit(withError: error) }
        var lines = EaselRoot.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let command, command != EaselRoot.self, status == .validationFailure,
            let usage = lines.firstIndex(where: { $0.hasPrefix("Usage: ") })
        {
            let usageLine = EaselRoot.usageString(for: command)
            // "easel add <document> <kind> ...": the words before the first argument name it.
            let name = usageLine.split(separator: " ").prefix { !"<[-".contains($0.first ?? "<") }.joined(separator: " ")
            lines[usage...] = ["Usage: " + usageLine, "  See '\(name) --help' for more information."]
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        if let first = lines.first, first.hasPrefix(Terminal.errorPrefix) {
            lines[0] = Terminal.errorPrefix + readable(String(first.dropFirst(Terminal.errorPrefix.count)))
        }
        for line in lines { Terminal.printError(line) }
        Glibc.exit(status.rawValue)
    }

    /// The commands, by name, in the order `easel --help` lists them.
    static var commandNames: [String] {
        EaselRoot.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// What to say when the first word of `arguments` is no command, or nil when it is one
    /// (or an option): the commands there are, and the command most likely meant — `export`
    /// for a document (`easel export a.drawing -o x.png`), or the command a typo is closest to.
    static func missingCommand(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !commandNames.contains(word), word != "help" else {
            return nil
        }
        var message = Terminal.errorPrefix + "'\(Terminal.safe(word))' is not a command"
        if DocumentRegistry.standard.isDocument(path: word) || FileManager.default.fileExists(atPath: word) {
            let typed = (["easel", "export"] + arguments).map(\.shellWord).joined(separator: " ")
            message += "; did you mean '\(Terminal.safe(typed))'?"
        } else if let near = nearestCommand(to: word) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "."
        }
        return message + "\nCommands: \(commandNames.joined(separator: ", ")) (easel COMMAND --help shows its options)."
    }

    /// The command `word` is a slip of the keyboard for: at most two letters added, left out,
    /// changed or swapped, and not for a word so short that any command would be as near.
    static func nearestCommand(to word: String) -> String? {
        let typed = Array(word.lowercased())
        guard (3...32).contains(typed.count) else { return nil }
        let distances = commandNames.map { ($0, editDistance(typed, Array($0))) }
        guard let best = distances.min(by: { $0.1 < $1.1 }), best.1 <= min(2, typed.count / 2) else { return nil }
        return best.0
    }

    /// The optimal string alignment distance between `a` and `b` (insertions, deletions,
    /// substitutions and adjacent transpositions), both at most 32 characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// ArgumentParser's message for a value an argument type refused with what it expected,
    /// "The value '20' is invalid for '--by <dx,dy>': expected DX,DY, e.g. 20,0", as Easel
    /// says it: "--by 20: expected DX,DY, e.g. 20,0". Any other message is returned as it is.
    static func readable(_ message: String) -> String {
        let head = "The value '", middle = "' is invalid for '", tail = "': expected "
        // The value is the user's and may hold any of these words; the option's name and what
        // it expects never do. So the value ends at the last `middle` (after `head`, which
        // `middle` overlaps), and the option's name at the first `tail` after that.
        guard message.hasPrefix(head) else { return message }
        let valueStart = message.index(message.startIndex, offsetBy: head.count)
        guard let middleRange = message[valueStart...].ranges(of: middle).last,
            let tailRange = message[middleRange.upperBound...].firstRange(of: tail)
        else { return message }
        let value = message[valueStart..<middleRange.lowerBound]
        // "--by <dx,dy>": the option's name, without its value's.
        let option = message[middleRange.upperBound..<tailRange.lowerBound].split(separator: " ").first ?? ""
        return "\(option) \(value): expected " + message[tailRange.upperBound...]
    }
}

/// A value an argument type cannot read, saying what it expected and giving an example
/// (`expected DX,DY, e.g. 20,0`); `UsageErrors.readable` puts the option and value first.
struct ExpectedValue: Error, CustomStringConvertible {
    /// "expected …", what the option takes.
    let description: String

    init(_ expected: String) { description = "expected " + expected }
}
