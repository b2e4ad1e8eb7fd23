import Foundation

/// Output helpers: results on stdout, diagnostics on stderr, colour only where it helps.
enum Terminal {
    static func printError(_ message: String) {
        var line = message
        if !line.hasSuffix("\n") { line += "\n" }
        FileHandle.standardError.write(Data(line.utf8))
    }

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
