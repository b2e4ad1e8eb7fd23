import EaselSupport

/// The server's lines on stderr (its start line and a failure to start), written at once
/// with their control characters escaped, as the `easel` CLI writes its own: a folder name
/// cannot clear the screen or forge a log line.
enum ServeDiagnostics {
    /// Prints one line on stderr, its control characters shown as escapes (`\n`, `\e`, `\x07`).
    static func printError(_ message: String) {
        StandardStreams.writeError(Array((escaped(message) + "\n").utf8))
    }

    /// `text` with every C0 and C1 control character (and DEL) shown as an escape.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x1B: result += "\\e"
            case 0..<0x20, 0x7F: result += "\\x" + hex(scalar.value, digits: 2)
            case 0x80...0x9F: result += "\\u{" + hex(scalar.value, digits: 1) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
