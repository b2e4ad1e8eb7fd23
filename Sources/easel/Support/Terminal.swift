import Foundation

/// Output helpers: results on stdout, diagnostics on stderr.
enum Terminal {
    static func printError(_ message: String) {
        var line = message
        if !line.hasSuffix("\n") { line += "\n" }
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func formatBytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return "\(count / 1024) KB" }
        return String(format: "%.1f MB", Double(count) / 1048576)
    }
}
