import EaselSupport
import FoundationEssentials
import Glibc

/// Output helpers: results on stdout, diagnostics on stderr, colour only where it helps.
///
/// Every line on stderr starts `easel: `; a problem's line then says what it is —
/// `easel: error: …` (something failed: the command, or one document of several),
/// `easel: warning: …` (done, but not quite as asked), `easel: note: …` (worth knowing) —
/// and the other lines are progress and summaries.
enum Terminal {
    /// The start of every error line, the argument parser's included (`EaselRoot`).
    static let errorPrefix = "easel: error: "

    /// Prints `easel: error: message` on stderr.
    static func error(_ message: String) { printError(errorPrefix + message) }

    /// Prints `easel: warning: message` on stderr.
    static func warning(_ message: String) { printError("easel: warning: " + message) }

    /// Prints `easel: note: message` on stderr.
    static func note(_ message: String) { printError("easel: note: " + message) }

    /// Prints one diagnostic line on stderr, its control characters escaped.
    static func printError(_ message: String) {
        let line = safe(message.hasSuffix("\n") ? String(message.dropLast()) : message) + "\n"
        StandardStreams.writeError(Array(line.utf8))
    }

    /// Prints one result line on stdout, its control characters escaped, written at once
    /// (not buffered), so a pipe or a log sees each line as it happens.
    static func printLine(_ line: String) {
        write(safe(line))
    }

    /// Writes `text` and a newline to stdout at once, unbuffered: text that is already safe
    /// (styled, or JSON, which escapes its own control characters).
    static func write(_ text: String) {
        outputLock.withLock { StandardStreams.writeOutput(Array((text + "\n").utf8)) }
    }

    /// One line at a time, whichever thread writes it.
    static let outputLock = Locked()

    /// `text` with every control character shown as an escape (`\n`, `\r`, `\t`, `\e`,
    /// `\x07`, `\u{9B}`), so a name or text inside a document cannot clear the screen, set
    /// the window title or forge a log line. JSON output is exact and does not use this.
    static func safe(_ text: String) -> String { text.escapingControlCharacters }

    enum Style: String {
        case green = "32"
        case yellow = "33"
        case red = "31"
        case bold = "1"
    }

    /// Whether stdout gets ANSI colours: the `color` setting (always, never, auto); `auto`
    /// means on a terminal, unless NO_COLOR is set.
    static let colorsStdout: Bool = {
        switch Settings.load()[.color] ?? "auto" {
        case "always": return true
        case "never": return false
        default: return isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        }
    }()

    static func styled(_ text: String, _ style: Style) -> String {
        colorsStdout ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
