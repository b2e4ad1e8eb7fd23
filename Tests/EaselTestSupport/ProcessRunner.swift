import Foundation

/// Runs a program and collects its exit status, stdout and stderr. Both pipes are read
/// concurrently so that a chatty program cannot block on a full pipe.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum ProcessRunner {
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: String? = nil,
        environment: [String: String]? = nil, currentDirectory: URL? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The built `easel` executable: next to the test bundle in the build folder.
    public static var easelExecutable: URL {
        if let override = ProcessInfo.processInfo.environment["EASEL_BINARY"] { return URL(fileURLWithPath: override) }
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        let candidate = folder.appendingPathComponent("easel")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        // Fall back to the package's debug build folder.
        return packageRoot.appendingPathComponent(".build/debug/easel")
    }

    /// The package's root folder (where Package.swift is).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
