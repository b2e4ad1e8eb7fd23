import EaselTestSupport
import Foundation

/// The built `easel`, run in a scratch folder with settings and state folders of its own,
/// for what only a whole process shows: being killed at any moment, its peak memory.
struct EaselProcess {
    let folder = TemporaryFolder("easel-reliability")
    let state = TemporaryFolder("easel-state")
    let config = TemporaryFolder("easel-config")

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = state.path
        return environment
    }

    /// Runs `easel arguments` to its end.
    func run(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.easelExecutable, arguments, environment: environment, currentDirectory: folder.url)
    }

    /// Starts `easel arguments` and returns at once, its output discarded.
    func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = ProcessRunner.easelExecutable
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The PNGs below `relative` (paths relative to the scratch folder).
    func pngs(in relative: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder.file(relative).path) ?? []).filter { $0.hasSuffix(".png") }
            .map { relative + "/" + $0 }
    }

    /// The totals of the report a run wrote at `name`.
    func totals(_ name: String) throws -> [String: Any] {
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file(name))) as? [String: Any]
        return report?["totals"] as? [String: Any] ?? [:]
    }
}
