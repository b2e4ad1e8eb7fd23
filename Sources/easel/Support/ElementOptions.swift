import ArgumentParser
import EaselEditing
import FoundationEssentials

/// The element properties `add` and `set` take: every property of the table
/// (`ElementProperty.all`) as an option, `--stroke-width 3`, read and checked by the table
/// itself, so a property added there is an option here with nothing more to write.
struct ElementOptions: ParsableArguments {
    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("Element properties, such as --fill tomato --at 400,300 (listed below).", valueName: "property"),
        completion: .custom { words, index, _ in
            ElementOptions.completions(after: words.indices.contains(index - 1) ? words[index - 1] : nil)
        })
    var words: [String] = []

    /// The word before the first option, when it is not one: `add`'s value (a text's
    /// string, an image's file, a path's commands).
    var leadingValue: String? { words.first.flatMap { $0.hasPrefix("-") && $0.count > 1 ? nil : $0 } }

    /// The changes the options make, a property given twice taking its last value; with
    /// `afterValue`, the leading value is skipped (`add`), else refused (`set`).
    func changes(afterValue: Bool = false) throws -> ElementChanges {
        var changes = ElementChanges()
        var remaining = words[...]
        if afterValue, leadingValue != nil { remaining = remaining.dropFirst() }
        while let word = remaining.popFirst() {
            if word == "--help" || word == "-h" { throw CleanExit.helpRequest() }
            let (flag, inline) = Self.split(word)
            guard flag.hasPrefix("--"), let property = ElementProperty.forFlag(flag) else {
                throw ValidationError(
                    flag.hasPrefix("-")
                        ? "Unknown option '\(flag)'; the element properties are \(ElementProperty.all.map(\.flag).joined(separator: ", "))."
                        : "Unexpected argument '\(word)'.")
            }
            guard let text = inline ?? remaining.popFirst() else {
                throw ValidationError("Missing value for '\(flag) <\(property.type.valueName)>'.")
            }
            // As every option's value is refused: `--by 20: expected DX,DY, e.g. 20,0`.
            do {
                changes[property] = try property.value(fromText: text)
            } catch {
                throw ValidationError("\(flag) \(text): \(error.message).")
            }
        }
        return changes
    }

    /// `--fill=tomato` as `--fill` and `tomato`.
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// What completion offers after the word `previous`: a property's values after its
    /// option, else the options.
    static func completions(after previous: String?) -> [String] {
        if let previous, let property = ElementProperty.forFlag(previous) {
            return property.type.names + property.suggestions
        }
        return ElementProperty.all.flatMap(\.flags)
    }

    /// The properties as help lists them: each option and its value, then its help indented
    /// below, wrapped here to 78 columns (ArgumentParser would wrap longer lines to column 0).
    /// Made once: `add` and `set` both show it, and ArgumentParser reads every command's
    /// configuration on each start, whatever the command.
    static let helpText: String = ElementProperty.all.map { property in
        let options = "  " + property.flags.map { "\($0) <\(property.type.valueName)>" }.joined(separator: ", ")
        var lines = [options], line = "     ", width = 5
        for word in property.help.split(separator: " ") {
            let wordWidth = word.count
            if width + wordWidth + 1 > 78 {
                lines.append(line)
                (line, width) = ("     ", 5)
            }
            line += " " + word
            width += wordWidth + 1
        }
        return (lines + [line]).joined(separator: "\n")
    }.joined(separator: "\n")
}
