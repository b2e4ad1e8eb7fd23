import FoundationEssentials
import Glibc

/// Finds and starts `easel-serve` for `easel serve`. The running `easel` is replaced by it
/// (execv, same process id), so signals reach the server itself and its exit status is the
/// command's.
enum ServeLauncher {
    /// The server program's file name.
    static let programName = "easel-serve"

    /// The running executable's path, symbolic links resolved (`/proc/self/exe`): the folder
    /// `make install` and `swift build` put easel-serve in.
    static func runningExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The `PATH` environment variable, if set.
    static var environmentPath: String? { ProcessInfo.processInfo.environment["PATH"] }

    /// `easel-serve` in the folder of `executable`, else the first executable one in a folder
    /// of `path` (colon-separated; only absolute folders, so the working folder never is
    /// searched); nil when there is none.
    static func locate(beside executable: String, path: String?) -> String? {
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(programName).path
        if isExecutableFile(beside) { return beside }
        for folder in (path ?? "").split(separator: ":").prefix(4096) where folder.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(programName).path
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// What `easel serve` says when neither place has easel-serve, and how to get it.
    static func notInstalledMessage(beside executable: String) -> String {
        "easel: error: easel serve needs easel-serve, which is not installed beside \(executable) or on PATH; "
            + "build it with: make install (or swift build -c release --product easel-serve)"
    }

    /// Replaces this process with `program`, given `arguments` unchanged (its `argv[0]` is
    /// the full path: easel-serve finds its editor files beside it). Returns only when that
    /// fails: the reason.
    static func exec(_ program: String, arguments: [String]) -> String {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        execv(program, argv)
        return String(cString: strerror(errno))
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
