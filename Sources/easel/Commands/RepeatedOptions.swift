import ArgumentParser
import FoundationEssentials

/// A command's words with repeated options merged, before ArgumentParser sees them.
///
/// ArgumentParser takes time growing with the square of the number of words (each option
/// it reads is searched for and removed from a list of them all): a session line repeating
/// `--fill red` 8,000 times kept `easel edit` busy for seconds, and a longer one for
/// minutes, deaf to Ctrl-C. A single-valued option given many times means its last value
/// (as ArgumentParser reads it), so every occurrence but the last is dropped here, in one
/// pass; what is left is at most one occurrence of each option, and the session refuses a
/// line with more than `maxWords` words left.
struct RepeatedOptions: Sendable {
    /// The most words a session command may have once repeats are merged: no command
    /// needs more than a few dozen.
    static let maxWords = 256

    /// How an option reads its value.
    private struct Valued {
        /// It takes the next word whatever it looks like (`parsing: .unconditional`, for
        /// `--by -10,5`); otherwise only a word that cannot be read as an option.
        var unconditional: Bool
        /// It keeps one value, the last given: its repeats may be merged. (A repeatable one,
        /// `--exclude a --exclude b`, keeps them all.)
        var merges: Bool
    }

    /// The part of ArgumentParser's JSON help (`_dumpHelp()`) read here: each argument's
    /// kind, names and how it reads its value.
    private struct DumpedHelp: Decodable {
        struct Command: Decodable { var arguments: [Argument]? }
        struct Argument: Decodable {
            var kind: String?
            var names: [Name]?
            var parsingStrategy: String?
            var isRepeating: Bool?
        }
        struct Name: Decodable {
            var kind: String?
            var name: String?
        }
        var command: Command
    }

    /// The options that take one word as their value, by name (`--fill`, `-f`).
    private var valued: [String: Valued] = [:]
    /// Names of options that read words in other ways (up to the next option, the rest of
    /// the line, scanning past options): merging stops at the first of them, and what
    /// follows is left alone.
    private var stopsMerging: Set<String> = []

    /// The options `command` declares, as ArgumentParser describes them (its JSON help).
    init(_ command: ParsableArguments.Type) {
        let help = try? JSONDecoder().decode(DumpedHelp.self, from: Data(command._dumpHelp().utf8))
        for argument in help?.command.arguments ?? [] {
            guard argument.kind == "option" else { continue }
            let names = (argument.names ?? []).compactMap { name -> String? in
                guard let text = name.name else { return nil }
                return (name.kind == "long" ? "--" : "-") + text
            }
            let strategy = argument.parsingStrategy ?? ""
            let repeating = argument.isRepeating ?? true
            for name in names {
                if ["default", "unconditional"].contains(strategy) {
                    valued[name] = Valued(unconditional: strategy == "unconditional", merges: !repeating)
                } else {
                    stopsMerging.insert(name)
                }
            }
        }
    }

    /// Also merges the repeats of `flags`, options read past ArgumentParser that take one
    /// word, whatever it looks like (the element properties of `add` and `set`).
    func adding(unconditional flags: [String]) -> RepeatedOptions {
        var options = self
        for flag in flags { options.valued[flag] = Valued(unconditional: true, merges: true) }
        return options
    }

    /// `words` with every occurrence of a single-valued option but its last one dropped
    /// (with its value); all else is kept, in order. Linear in the number of words. Only
    /// occurrences that read plainly are merged — `--name=value`, or `--name value` where
    /// the value cannot be read as an option — and nothing after `--` or after an option
    /// that reads words otherwise, so what ArgumentParser reads is what it would have read.
    func merging(_ words: [String]) -> [String] {
        // Each word's option, when it starts a plain occurrence of a single-valued one.
        var occurrences: [(start: Int, count: Int, name: String)] = []
        var index = 0
        scan: while index < words.count {
            let word = words[index]
            if word == "--" || stopsMerging.contains(word) { break scan }
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "="), let option = valued[String(word[..<equals])] {
                if option.merges { occurrences.append((index, 1, String(word[..<equals]))) }
                index += 1
            } else if let option = valued[word], index + 1 < words.count,
                option.unconditional || !words[index + 1].hasPrefix("-")
            {
                if option.merges { occurrences.append((index, 2, word)) }
                index += 2  // its value is never read as an option, whatever it says
            } else {
                index += 1
            }
        }
        var last: [String: Int] = [:]
        for (position, occurrence) in occurrences.enumerated() { last[occurrence.name] = position }
        guard last.count < occurrences.count else { return words }  // nothing repeated
        var dropped = [Bool](repeating: false, count: words.count)
        for (position, occurrence) in occurrences.enumerated() where last[occurrence.name] != position {
            for offset in 0..<occurrence.count { dropped[occurrence.start + offset] = true }
        }
        return words.indices.filter { !dropped[$0] }.map { words[$0] }
    }
}
