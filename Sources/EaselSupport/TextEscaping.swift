extension String {
    /// The text with every C0 and C1 control character (and DEL) shown as an escape (`\n`,
    /// `\r`, `\t`, `\e`, `\x07`, `\u{9B}`), so that a name or text from a document cannot
    /// clear a terminal, set its title or forge a log line: what the CLI and the server write
    /// on a terminal or in a log. (JSON output is exact and does not use this.)
    package var escapingControlCharacters: String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        guard unicodeScalars.contains(where: isControl) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{1B}": result += "\\e"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
            }
        }
        return result
    }

    /// The text safe inside HTML, in an element or a quoted attribute: `&`, `<`, `>` and `"`
    /// as entities (the pages the batch and golden reports write). Replaced scalar by scalar:
    /// Swift's own replacing compares whole characters, and a `<` that a prefix (U+0600) or a
    /// `"` that a combining mark joins into one character was left as it was.
    package var htmlEscaped: String { markupEscaped(xml: false) }

    /// The text safe in XML 1.0, in an element or a quoted attribute (JUnit's report): as
    /// `htmlEscaped`, with tabs and line breaks as references (an attribute keeps them) and
    /// every character XML does not allow (other C0 controls, U+FFFE, U+FFFF) as U+FFFD.
    package var xmlEscaped: String { markupEscaped(xml: true) }

    /// The text as one shell word, ready to paste: as it is when it is plain (ASCII letters,
    /// digits and `._/-+=:@%,`), else in single quotes, each quote in it quoted scalar by
    /// scalar (a quote that a combining mark joins into one character is still a quote).
    package var shellWord: String {
        let plain =
            !isEmpty
            && unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "._/-+=:@%,".unicodeScalars.contains(scalar))
            }
        guard !plain else { return self }
        var quoted = "'"
        for scalar in unicodeScalars {
            if scalar == "'" { quoted += "'\\''" } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }

    private func markupEscaped(xml: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default:
                let isControl = scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                if !xml || !isControl {
                    result.unicodeScalars.append(scalar)
                } else if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    result += "&#\(scalar.value);"
                } else {
                    result.unicodeScalars.append("\u{FFFD}")
                }
            }
        }
        return result
    }
}

extension StringProtocol {
    /// The text in double quotes for a message that names a value someone gave: whole when
    /// it is short, else its first 60 characters, an ellipsis and its length, so an error
    /// about a 5,000-character value names it without repeating it.
    package var quotedForMessage: String {
        let limit = 80
        guard count > limit else { return "\"\(self)\"" }
        return "\"\(prefix(60))…\" (\(count) characters)"
    }
}
