import Testing
import Foundation
import EaselTestSupport

/// A running `easel export --watch` with its standard error collected as it comes, so a
/// test can wait for a line.
private final class RunningWatch: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var collected = Data()

    /// Starts `command` (a program and its arguments) in the scratch folder.
    init(_ s: CLIScratch, _ command: [String]) throws {
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = s.folder.url
        process.environment = s.environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        errors.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.withLock { collected.append(data) }
        }
        try process.run()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    var log: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Waits up to `seconds` for `condition`; true when it held.
    static func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }
}

/// How the parent starts the watch: SIGINT and SIGTERM at their defaults, ignored (SIG_IGN
/// survives exec: `nohup`, `trap "" INT TERM`, a script's background job), or blocked (the
/// mask survives exec too). A small Python program sets that up and execs `easel`.
private func startedBy(_ parent: String, _ easel: URL, _ arguments: [String]) -> [String] {
    let script = """
        import os, signal, sys
        how, program = sys.argv[1], sys.argv[2]
        both = {signal.SIGINT, signal.SIGTERM}
        for number in both:
            signal.signal(number, signal.SIG_IGN if how == "ignored" else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_BLOCK if how == "blocked" else signal.SIG_UNBLOCK, both)
        os.execv(program, sys.argv[2:])
        """
    return ["/usr/bin/python3", "-c", script, parent, easel.path] + arguments
}

@Suite("easel export --watch stops on SIGINT and SIGTERM, however it was started")
struct ExportWatchSignalTests {
    @Test(arguments: ["default", "ignored", "blocked"], [SIGINT, SIGTERM])
    func stopsPromptlyAndSaysSo(parent: String, signal: Int32) throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        let watch = try RunningWatch(s, startedBy(parent, s.easel, ["export", "in", "--out", "out", "--watch"]))
        #expect(RunningWatch.eventually { watch.log.contains("Ctrl-C stops") }, "\(watch.log)")
        let sent = Date()
        kill(watch.process.processIdentifier, signal)
        let stopped = RunningWatch.eventually(within: 5) { !watch.process.isRunning }
        let seconds = Date().timeIntervalSince(sent)
        if !stopped { kill(watch.process.processIdentifier, SIGKILL) }
        watch.process.waitUntilExit()
        #expect(stopped, "the watch stopped on the signal (\(parent)): \(watch.log)")
        #expect(seconds < 2, "promptly: \(seconds) s")
        // As documented: `easel: stopped watching`, exit 0; not killed by the signal.
        #expect(watch.process.terminationReason == .exit && watch.process.terminationStatus == 0)
        #expect(RunningWatch.eventually(within: 2) { watch.log.contains("easel: stopped watching") }, "\(watch.log)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.folder.file("out").path)
            .filter { $0.hasSuffix(".tmp") || $0.hasPrefix(".easel-write-check") }
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
    }
}

@Suite("easel export --watch follows a replaced folder")
struct ExportWatchReplacedFolderTests {
    /// A sync tool replaces the watched folder: removed, then a new one moved into its
    /// place. What the new folder holds is exported, and a document saved there later too.
    @Test func documentsInTheNewFolderAreExported() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        let watch = try RunningWatch(s, [s.easel.path, "export", "in", "--out", "out", "--watch"])
        #expect(RunningWatch.eventually { watch.log.contains("Ctrl-C stops") }, "\(watch.log)")
        try FileManager.default.removeItem(at: s.folder.file("in"))
        try FileManager.default.createDirectory(at: s.folder.file("staging"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "staging/b.drawing", "--size", "20x20"])
        try FileManager.default.moveItem(at: s.folder.file("staging"), to: s.folder.file("in"))
        func exported(_ name: String) -> Bool { FileManager.default.fileExists(atPath: s.folder.file("out/\(name)").path) }
        #expect(RunningWatch.eventually { exported("b.png") }, "what the new folder held: \(watch.log)")
        try s.ok(["new", "drawing", "in/c.drawing", "--size", "20x20"])
        #expect(RunningWatch.eventually { exported("c.png") }, "a document saved there later: \(watch.log)")
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(RunningWatch.eventually { !watch.process.isRunning })
        watch.process.waitUntilExit()
        #expect(watch.process.terminationStatus == 0, "\(watch.log)")
    }
}
