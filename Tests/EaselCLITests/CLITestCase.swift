import Foundation
import Testing
import EaselRender
import EaselCairo
import EaselTestSupport

/// Runs `easel` in a scratch folder with its own settings folder, so tests never touch the
/// user's files or each other's.
struct CLIScratch {
    let folder = TemporaryFolder("easel-cli")
    let config = TemporaryFolder("easel-config")
    let state = TemporaryFolder("easel-state")
    let easel = ProcessRunner.easelExecutable

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = state.path
        return environment
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try ProcessRunner.run(easel, arguments, stdin: stdin, environment: environment, currentDirectory: folder.url)
    }

    /// Runs and expects success.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let result = try run(arguments)
        #expect(
            result.status == 0, "easel \(arguments.joined(separator: " ")) -> \(result.status): \(result.stderr)",
            sourceLocation: sourceLocation)
        return result
    }

    /// Starts `easel arguments` in the scratch folder and returns at once; its standard
    /// output and error go where given (a `Pipe` or a `FileHandle`), else are discarded.
    func launch(_ arguments: [String], standardOutput: Any? = nil, standardError: Any? = nil) throws -> Process {
        let process = Process()
        process.executableURL = easel
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = environment
        process.standardOutput = standardOutput ?? FileHandle.nullDevice
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: folder.file(name))) }

    func image(_ name: String) throws -> RasterImage { try PNGDecoder.decode(try bytes(name)) }
}
