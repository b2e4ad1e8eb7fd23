import EaselCairo
import EaselDocuments
import EaselGeometry
import Foundation

/// Runs the built `easel` in a scratch folder with settings and state folders of its own,
/// so tests never touch the user's files or each other's: the CLI's tests, and those of what
/// only a whole process shows (being killed, its peak memory).
public struct EaselScratch: Sendable {
    /// The folder easel runs in, where a test's documents go.
    public let folder = TemporaryFolder("easel-cli")
    /// Its settings folder (`XDG_CONFIG_HOME`).
    public let config = TemporaryFolder("easel-config")
    /// Its state folder (`XDG_STATE_HOME`): histories, locks.
    public let state = TemporaryFolder("easel-state")
    /// The executable run.
    public let easel = ProcessRunner.easelExecutable

    /// A scratch folder with settings and state folders of its own.
    public init() {}

    /// The environment easel runs with: this process's, with the scratch settings and state folders.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = state.path
        return environment
    }

    /// Runs `easel arguments` to its end, with `stdin` as its standard input.
    @discardableResult
    public func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try ProcessRunner.run(easel, arguments, stdin: stdin, environment: environment, currentDirectory: folder.url)
    }

    /// Runs and expects success: throws, with the command and its error output, when it fails.
    /// (A thrown error, not `#expect`: this module is linked into the benchmark too, where
    /// the Testing library is not.)
    @discardableResult
    public func ok(_ arguments: [String]) throws -> ProcessResult {
        let result = try run(arguments)
        guard result.status == 0 else {
            throw TestFailure("easel \(arguments.joined(separator: " ")) -> \(result.status): \(result.stderr)")
        }
        return result
    }

    /// Starts `easel arguments` in the scratch folder and returns at once; its standard
    /// output and error go where given (a `Pipe` or a `FileHandle`), else are discarded.
    public func launch(_ arguments: [String], standardOutput: Any? = nil, standardError: Any? = nil) throws -> Process {
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

    /// Runs `easel arguments` with its standard output and error on a pseudo-terminal, as at
    /// a prompt (`script`, from util-linux); returns its exit status and what the terminal
    /// showed (in `stdout`), or nil where there is no `script`.
    public func onTerminal(_ arguments: [String]) throws -> ProcessResult? {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { return nil }
        let command = ([easel.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try ProcessRunner.run(
            script, ["-qefc", command.joined(separator: " "), "/dev/null"], environment: environment,
            currentDirectory: folder.url)
    }

    /// The bytes of the file `name` in the scratch folder.
    public func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: folder.file(name))) }

    /// The PNG `name` in the scratch folder, decoded.
    public func image(_ name: String) throws -> RasterImage { try PNGDecoder.decode(try bytes(name)) }

    /// Writes a `width`x`height` drawing on `background` holding `graphics`, as `easel new
    /// drawing` and `add` would make it, without starting a process for each.
    @discardableResult
    public func drawing(
        _ name: String, _ width: Double = 20, _ height: Double = 20, background: Color? = .white, graphics: [Graphic] = []
    ) throws -> URL {
        let drawing = Drawing(canvasSize: Size(width: width, height: height), background: background, graphics: graphics)
        return try folder.write(DrawingEncoder.encode(drawing), to: name)
    }

    /// Writes `card` (by default a new blank card).
    @discardableResult
    public func card(_ name: String, _ card: Card = Card()) throws -> URL {
        try folder.write(try CardEncoder.encode(card, file: name), to: name)
    }
}

/// `easel` started in a scratch folder and left running, its standard output and error
/// collected as they come, so a test can wait for a line (and for the end) without holding
/// a thread.
public final class RunningEasel: @unchecked Sendable {
    /// The running process.
    public let process = Process()
    private let lock = NSLock()
    private var collected = (output: Data(), errors: Data())
    private var ended: Date?

    /// Starts `command` (a program and its arguments; by default `easel ARGUMENTS`) in the
    /// scratch folder.
    public init(_ s: EaselScratch, _ arguments: [String], program: [String]? = nil) throws {
        let command = program ?? [s.easel.path]
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + arguments
        process.currentDirectoryURL = s.folder.url
        process.environment = s.environment
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.withLock { collected.output.append(data) }
        }
        errors.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.withLock { collected.errors.append(data) }
        }
        process.terminationHandler = { [self] _ in lock.withLock { ended = Date() } }
        try process.run()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// When the process ended, as its parent heard it (not when a test got round to looking).
    public var endedAt: Date? { lock.withLock { ended } }

    /// Standard output so far.
    public var output: String { lock.withLock { String(decoding: collected.output, as: UTF8.self) } }
    /// Standard error so far.
    public var log: String { lock.withLock { String(decoding: collected.errors, as: UTF8.self) } }

    /// Sends `signal`, and returns when.
    @discardableResult
    public func send(_ signal: Int32) -> Date {
        kill(process.processIdentifier, signal)
        return Date()
    }

    /// Sends `signal` if the process is still running; true when it was.
    @discardableResult
    public func sendIfRunning(_ signal: Int32) -> Bool {
        guard process.isRunning else { return false }
        send(signal)
        return true
    }
}
