import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// How the parent starts the watch: SIGINT and SIGTERM at their defaults, ignored (SIG_IGN
/// survives exec: `nohup`, `trap "" INT TERM`, a script's background job), or blocked (the
/// mask survives exec too). A small Python program sets that up and execs `easel`.
private func startedBy(_ parent: String, _ easel: URL) -> [String] {
    let script = """
        import os, signal, sys
        how, program = sys.argv[1], sys.argv[2]
        both = {signal.SIGINT, signal.SIGTERM}
        for number in both:
            signal.signal(number, signal.SIG_IGN if how == "ignored" else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_BLOCK if how == "blocked" else signal.SIG_UNBLOCK, both)
        os.execv(program, sys.argv[2:])
        """
    return ["/usr/bin/python3", "-c", script, parent, easel.path]
}

/// `easel export --watch` as a terminal runs it: it says it is watching, stops on SIGINT and
/// SIGTERM however it was started, says so and exits 0. (What it watches and exports again
/// is tested in process, in EaselBatchTests.)
@Suite("easel export --watch stops on SIGINT and SIGTERM, however it was started")
struct ExportWatchCommandTests {
    @Test(arguments: ["default", "ignored", "blocked"], [SIGINT, SIGTERM])
    func stopsPromptlyAndSaysSo(parent: String, signal: Int32) async throws {
        let s = CLIScratch()
        try s.drawing("in/a.drawing")
        let watch = try RunningEasel(s, ["export", "in", "--out", "out", "--watch"], program: startedBy(parent, s.easel))
        #expect(await eventually { watch.log.contains("Ctrl-C stops") }, "\(watch.log)")
        let sent = watch.send(signal)
        let stopped = await watch.process.exited(within: 5)
        let seconds = (watch.endedAt ?? Date()).timeIntervalSince(sent)
        #expect(stopped, "the watch stopped on the signal (\(parent)): \(watch.log)")
        #expect(seconds < 2, "promptly: \(seconds) s")
        // As documented: `easel: stopped watching`, exit 0; not killed by the signal.
        #expect(watch.process.terminationReason == .exit && watch.process.terminationStatus == 0)
        #expect(await eventually(within: 2) { watch.log.contains("easel: stopped watching") }, "\(watch.log)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.folder.file("out").path)
            .filter { $0.hasSuffix(".tmp") || $0.hasPrefix(".easel-write-check") }
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
    }

    /// The first export of a watch takes what was opened (and lowered) while the arguments
    /// were parsed; later ones open anew. A first export that used only the document (another
    /// background) or failed on it (an invalid document) must not leave the next one waiting
    /// for an opening that never comes.
    @Test(arguments: [["--background", "blue"], []])
    func laterExportsOpenTheDocumentAnew(extra: [String]) async throws {
        let s = CLIScratch()
        let valid = try s.drawing("d.drawing", 40, 20)
        let validBytes = try Data(contentsOf: valid)
        if extra.isEmpty { try s.folder.write("{ not json", to: "d.drawing") }
        let watch = try RunningEasel(s, ["export", "d.drawing", "--out", "d.png", "--watch"] + extra)
        #expect(await eventually { watch.log.contains("Ctrl-C stops") }, "\(watch.log)")
        if extra.isEmpty {
            try validBytes.write(to: valid)
        } else {
            #expect(await eventually { (try? s.image("d.png"))?.pixel(x: 0, y: 0).b == 255 })
        }
        let red = Graphic(
            kind: .rectangle, transform: GraphicTransform(center: Point(x: 20, y: 10), size: Size(width: 40, height: 20)),
            fill: Color(red: 1, green: 0, blue: 0))
        try s.drawing("d.drawing", 40, 20, graphics: [red])
        #expect(await eventually { (try? s.image("d.png"))?.pixel(x: 20, y: 10).r == 255 }, "exported again: \(watch.log)")
        watch.send(SIGINT)
        // A watch stuck waiting never honours the signal: killed, and a failure, not a hang.
        #expect(await watch.process.exited(within: 10), "the watch stopped on SIGINT")
        #expect(await eventually(within: 2) { watch.log.contains("stopped watching") }, "\(watch.log)")
    }
}

/// A single export stopped by a signal leaves the folder as it found it: no temporary file,
/// the earlier output unchanged, the signal's exit status.
@Suite("An interrupted export")
struct InterruptedExportTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func leavesNoTemporaryFileAndTheOutputAsItWas(signal: Int32) async throws {
        let s = CLIScratch()
        // Thousands of stroked shapes at a large scale: seconds of drawing, band by band,
        // into a temporary file beside the output.
        var graphics: [Graphic] = []
        for i in 0..<3000 {
            graphics.append(
                Graphic(
                    kind: i % 2 == 0 ? .ellipse : .star(points: 5, innerRadiusRatio: 0.5),
                    transform: GraphicTransform(
                        center: Point(x: Double(i * 37 % 600), y: Double(i * 61 % 400)), size: Size(width: 90, height: 70)),
                    fill: Color(red: Double(i % 5) / 5, green: 0.4, blue: 0.7), stroke: Stroke(color: .black, width: 3)))
        }
        try s.drawing("d.drawing", 600, 400, graphics: graphics)
        // An earlier output of Easel's, which the export may replace.
        try s.ok(["export", "d.drawing", "--out", "d.png", "--scale", "0.1"])
        let earlier = try s.bytes("d.png")
        @Sendable func temporaryFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: s.folder.path).filter { $0.hasPrefix(".easel-") }
        }
        // Large enough to take seconds: drawn band by band into a temporary file.
        let export = try RunningEasel(s, ["export", "d.drawing", "--out", "d.png", "--scale", "12"])
        let signalled = Locked(false)
        // The signal goes the moment the temporary file is there, while the export still draws into it.
        let started = await whenTrue({ (try? temporaryFiles().isEmpty == false) == true || !export.process.isRunning }) {
            signalled.withLock { $0 = export.sendIfRunning(signal) }
        }
        #expect(started && signalled.withLock { $0 }, "the export was still drawing into its temporary file")
        let status = await export.process.exited()
        #expect(status == 128 + signal, "\(status) \(export.log)")
        let said = signal == SIGINT ? "easel: interrupted; nothing was written" : "easel: terminated; nothing was written"
        #expect(await eventually(within: 2) { export.log.contains(said) }, "\(export.log)")
        #expect(try temporaryFiles().isEmpty, "no temporary file left")
        #expect(try s.bytes("d.png") == earlier, "the earlier output as it was")
    }
}
