import EaselBatch
import EaselTestSupport
import Foundation
import Testing

/// What the command line adds to a sharded export, as a scheduler runs it: the shard from
/// the scheduler's variables, reports named by shard in a folder made for them, the status
/// that tells "some documents failed" from "could not start", and the merged report.
@Suite("easel export across machines, and easel report merge")
struct ShardedExportCommandTests {
    func scratch() throws -> CLIScratch {
        let s = CLIScratch()
        for name in ["a", "b", "c", "d", "e"] { try s.drawing("in/\(name).drawing") }
        try s.folder.write("{ not json", to: "in/broken.drawing")
        return s
    }

    func run(_ s: CLIScratch, _ arguments: [String], environment extra: [String: String]) throws -> ProcessResult {
        var environment = s.environment
        for key in ShardEnvironment.sources + ["SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MAX"] {
            environment[key] = nil
        }
        environment.merge(extra) { $1 }
        return try ProcessRunner.run(s.easel, arguments, environment: environment, currentDirectory: s.folder.url)
    }

    @Test func aSlurmArrayExportsItsShardsReportsThemAndTheyMerge() throws {
        let s = try scratch()
        var statuses: [Int32] = []
        for task in 0..<3 {
            let result = try run(
                s, ["export", "in", "--out", "out/", "--shard", "auto", "--report", "reports/"],
                environment: [
                    "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2",
                    "SLURM_ARRAY_TASK_COUNT": "3",
                ])
            statuses.append(result.status)
            #expect(
                FileManager.default.fileExists(atPath: s.folder.file("reports/report-\(task + 1)-of-3.json").path),
                "\(result.stderr)")
        }
        // The broken document is in one shard: that task finished with a failure (1), the others 0.
        #expect(statuses.sorted() == [0, 0, 1], "\(statuses)")
        let merged = try s.run([
            "report", "merge", "reports/report-1-of-3.json", "reports/report-2-of-3.json", "reports/report-3-of-3.json",
            "-o", "report.json", "--html", "report.html",
        ])
        #expect(merged.status == 1 && merged.stderr.contains("broken.drawing"), "a failed document: \(merged.stderr)")
        let report = try JSONDecoder().decode(BatchReport.self, from: Data(s.bytes("report.json")))
        #expect(report.totals.documents == 6 && report.totals.rendered == 5 && report.totals.failed == 1)
        #expect(String(decoding: try s.bytes("report.html"), as: UTF8.self).contains("broken.drawing"))
        let partial = try s.run(["report", "merge", "reports/report-1-of-3.json", "reports/report-3-of-3.json"])
        #expect(partial.status == 1 && partial.stderr.contains("shard 2/3 is missing"), "\(partial.stderr)")
        // Run again as one process: nothing is rendered twice.
        let again = try s.run(["export", "in", "--out", "out/", "--json"])
        #expect(again.stderr.contains("rendered 0,") && again.status == 1, "\(again.stderr)")
    }

    @Test func anIndexedJobNeedsItsCountAndAmbiguityIsAUsageError() throws {
        let s = try scratch()
        let counted = try run(
            s, ["export", "in", "--out", "out/", "--shard", "auto", "--report", "reports/"],
            environment: ["JOB_COMPLETION_INDEX": "1", "EASEL_SHARD_COUNT": "2"])
        #expect(
            [0, 1].contains(counted.status)
                && FileManager.default.fileExists(atPath: s.folder.file("reports/report-2-of-2.json").path), "\(counted.stderr)")
        let uncounted = try run(
            s, ["export", "in", "--out", "out/", "--shard", "auto"], environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(uncounted.status == 64 && uncounted.stderr.contains("EASEL_SHARD_COUNT"), "\(uncounted.stderr)")
        let both = try run(
            s, ["export", "in", "--out", "out/", "--shard", "auto"],
            environment: ["JOB_COMPLETION_INDEX": "1", "EASEL_SHARD": "1/2"])
        #expect(both.status == 64 && both.stderr.contains("ambiguous"), "\(both.stderr)")
    }

    /// A worker that started `easel export` and was killed (a Dask or Slurm task, SIGKILL)
    /// must not leave it rendering: the export sees its parent gone and stops as on SIGTERM.
    @Test func anExportEndsWhenItsParentIsKilled() throws {
        let s = try scratch()
        let pidFile = s.folder.file("easel.pid").path
        // The parent: a shell that starts a watching export (which would run forever) and waits.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" export in --out out/ --watch & echo $! > \"$1\"; wait", s.easel.path, pidFile]
        shell.environment = s.environment
        shell.currentDirectoryURL = s.folder.url
        try shell.run()
        #expect(eventually(seconds: 20) { FileManager.default.fileExists(atPath: s.folder.file("out/a.png").path) })
        let child = pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
        #expect(Self.isRunning(child), "the export watches until stopped")
        kill(shell.processIdentifier, SIGKILL)
        // (Not `waitUntilExit()`: Foundation's exit monitor is inherited by the export, so it
        // would wait for the export too.)
        #expect(eventually(seconds: 10) { !Self.isRunning(shell.processIdentifier) }, "the parent was killed")
        #expect(eventually(seconds: 10) { !Self.isRunning(child) }, "the export ended with its parent")
        if Self.isRunning(child) { kill(child, SIGKILL) }
    }

    /// Whether `pid` is a live process (not gone, not a zombie no one has reaped yet).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    func eventually(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test func aSecondRunOfAShardCouldNotStartAndSaysWhoHoldsIt() throws {
        let s = try scratch()
        try FileManager.default.createDirectory(at: s.folder.file("out"), withIntermediateDirectories: true)
        let exporter = try BatchExporter(
            inputs: [s.folder.file("in")], outputFolder: s.folder.file("out"),
            options: BatchExportOptions(shard: Shard(index: 1, count: 2)))
        let lease = try exporter.takeLease()
        let refused = try s.run(["export", "in", "--out", "out/", "--shard", "1/2"])
        #expect(refused.status == 2 && refused.stderr.contains("being exported by another run"), "\(refused.stderr)")
        #expect(refused.stderr.contains("pid \(getpid())"))
        withExtendedLifetime(lease) {}
    }
}
