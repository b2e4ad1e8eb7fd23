import CEaselEdit
import FoundationEssentials
import Glibc

/// The interactive session's prompt, through libedit's readline interface: line editing
/// (arrows, Ctrl-A/E/K…), a history recalled with Up and Down, and Tab completion of verbs,
/// element indices, colour names and options. Used only when standard input is a terminal;
/// piped commands are read as plain lines.
enum LineEditor {
    /// What Tab offers after the words already typed (`words`) for the word being typed.
    nonisolated(unsafe) static var completer: (_ words: [String], _ partial: String) -> [String] = { _, _ in [] }
    /// The candidates of the completion in progress (libedit asks for them one at a time).
    nonisolated(unsafe) private static var matches: [String] = []

    /// Sets completion up; call once before the first `readLine`.
    static func setUp() {
        easel_edit_set_up { text, start, _ in
            let typed = easel_edit_line_buffer().map { String(cString: $0) } ?? ""
            let before = String(typed.utf8.prefix(Int(start))) ?? ""
            let partial = text.map { String(cString: $0) } ?? ""
            LineEditor.matches = LineEditor.completer((try? ShellWords.split(before)) ?? [], partial)
                .filter { $0.hasPrefix(partial) }
            return rl_completion_matches(text) { _, state in
                let index = Int(state)
                guard index < LineEditor.matches.count else { return nil }
                return strdup(LineEditor.matches[index])
            }
        }
    }

    /// Shows `prompt` and reads one edited line; nil at the end of input (Ctrl-D). Lines
    /// with something in them go into the history.
    static func readLine(prompt: String) -> String? {
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingWhitespace.isEmpty { add_history(raw) }
        return line
    }
}
