import EaselSupport

/// The server's lines on stderr (its start line and a failure to start), written at once
/// with their control characters escaped, as the `easel` CLI writes its own: a folder name
/// cannot clear the screen or forge a log line.
enum ServeDiagnostics {
    /// Prints one line on stderr, its control characters shown as escapes (`\n`, `\e`, `\x07`).
    static func printError(_ message: String) {
        StandardStreams.writeError(Array((message.escapingControlCharacters + "\n").utf8))
    }
}
