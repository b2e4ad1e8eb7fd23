import Testing
import Foundation
import EaselDocuments
import EaselGeometry
import EaselEditing
import EaselBatch
import EaselTestSupport

@Suite("easel edit")
struct InteractiveEditTests {
    func drawing(at url: URL) throws -> Drawing {
        var warnings: [DocumentWarning] = []
        return try Drawing(decoding: Array(Data(contentsOf: url)), file: url.path, warnings: &warnings)
    }

    @Test func pipedCommandsAreAppliedAndSavedOnQuit() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let script = """
            add star --at 100,100 --fill gold
            add ellipse --fill 'rebecca purple'
            add ellipse --fill rebeccapurple
            set 0 --rotation 30
            bogus
            undo
            redo
            info
            export --out d.png --scale 0.5
            quit
            add rect
            """
        let result = try s.run(["edit", "d.drawing"], stdin: script)
        #expect(result.status == 1, "a piped session with failed commands fails: \(result.stderr)")
        #expect(result.stderr.contains("2 commands failed; the others were applied and saved"))
        #expect(
            result.stderr.contains("--fill rebecca purple: expected a colour"), "a bad line is reported and the session goes on")
        #expect(result.stderr.contains("unknown verb \"bogus\""))
        #expect(result.stdout.contains("[1] ellipse"))
        let saved = try drawing(at: s.folder.file("d.drawing"))
        #expect(saved.graphics.count == 2, "the line after quit is not run")
        #expect(saved.graphics[0].transform.rotationDegrees == 30)
        #expect(try s.image("d.png").width == 400)
    }

    /// save-as into another folder copies the images the document uses as it is now, but
    /// never shows another file in an image's place: a file of the same name and other bytes
    /// there is refused before anything is written; an image that cannot be read is named.
    @Test func saveAsCopiesTheImagesAndNeverTakesAnotherFileForOne() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        _ = try s.folder.write(try GoldenCommandTests.image(block: true), to: "photo.png")
        try s.ok(["add", "d.drawing", "image", "photo.png"])
        _ = try s.folder.write("someone else's file", to: "B/photo.png")
        let refused = try s.run(["edit", "d.drawing"], stdin: "save-as B/d.drawing\nquit\n")
        #expect(refused.stderr.contains("exists with other bytes"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("B/d.drawing").path), "nothing written")
        #expect(String(decoding: try s.bytes("B/photo.png"), as: UTF8.self) == "someone else's file")
        // Into a new folder, with an image added in the session: both go with the copy.
        _ = try s.folder.write(try GoldenCommandTests.image(block: false), to: "second.png")
        let copied = try s.run(["edit", "d.drawing"], stdin: "add image second.png\nsave-as C/d.drawing\nquit\n")
        #expect(copied.stdout.contains("saved a copy as C/d.drawing"), "\(copied.stdout)\(copied.stderr)")
        #expect(try s.bytes("C/photo.png") == s.bytes("photo.png") && s.bytes("C/second.png") == s.bytes("second.png"))
        #expect(try drawing(at: s.folder.file("C/d.drawing")).graphics.count == 2)
    }

    /// A session's export takes only its own options: another input, `--out -` (a file
    /// named `-`) and a folder export's options were read and ignored.
    @Test func aSessionsExportRefusesWhatItWouldIgnore() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["new", "drawing", "other.drawing"])
        let result = try s.run(
            ["edit", "d.drawing"],
            stdin:
                "export --out -\nexport other.drawing --out y.png\nexport --out x.png --watch\nexport --out z.png --scale 0.5\nquit\n"
        )
        #expect(result.status == 1 && result.stderr.contains("3 commands failed"), "\(result.stderr)")
        for name in ["-", "y.png", "x.png"] {
            #expect(!FileManager.default.fileExists(atPath: s.folder.file(name).path), "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: s.folder.file("z.png").path), "its own options work")
    }

    @Test func theEndOfInputSaves() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let result = try s.run(["edit", "d.drawing"], stdin: "add heart\n")
        #expect(result.status == 0)
        #expect(try drawing(at: s.folder.file("d.drawing")).graphics.count == 1)
        // The session's edits are undoable afterwards.
        try s.ok(["undo", "d.drawing"])
        #expect(try drawing(at: s.folder.file("d.drawing")).graphics.isEmpty)
    }

    @Test func aCardSavedAsACopyIsAnotherCardWithTheIdOfItsName() throws {
        let s = CLIScratch()
        let original = "1A2B3C4D-0000-4000-8000-000000000001"
        try s.ok(["new", "card", "\(original).rwcard"])
        let copyID = "ABCDEF00-0000-4000-8000-000000000002"
        let script = "save-as \(copyID).rwcard\nsave-as other.rwcard\nquit\n"
        #expect(try s.run(["edit", "\(original).rwcard"], stdin: script).status == 0)
        func id(_ name: String) throws -> String {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: s.folder.file(name))) as? [String: Any]
            return try #require(object?["id"] as? String)
        }
        #expect(try id("\(original).rwcard") == original)
        #expect(try id("\(copyID).rwcard") == copyID, "named as the app names cards: the id is the name's")
        let other = try id("other.rwcard")
        #expect(other != original && other != copyID && UUID(uuidString: other) != nil, "another name: a new id")
    }

    /// What a process writes to a pipe, read as it comes on a thread of its own (so a
    /// chatty process never blocks on a full pipe): how many lines, and the first 4 KiB.
    final class LineCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var lines = 0
        private var start: [UInt8] = []
        let pipe = Pipe()

        init() {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    lock.withLock {
                        lines += data.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                        if start.count < 4096 { start += data.prefix(4096 - start.count) }
                    }
                }
            }
        }

        var count: Int { lock.withLock { lines } }
        var text: String { lock.withLock { String(decoding: start, as: UTF8.self) } }
    }

    /// Starts `easel edit` with an open stdin pipe; returns the process and the pipe.
    func startSession(_ s: CLIScratch, autosave: String, output: Pipe? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = s.easel
        process.arguments = ["edit", "d.drawing", "--autosave", autosave]
        process.currentDirectoryURL = s.folder.url
        process.environment = s.environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, input)
    }

    @Test func anIdleSessionAutosaves() async throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let (process, input) = try startSession(s, autosave: "0.3")
        input.fileHandleForWriting.write(Data("add octagon\n".utf8))
        let saved = try await eventually(within: 10) { try drawing(at: s.folder.file("d.drawing")).graphics.count == 1 }
        #expect(saved, "the edit was saved while the session was still open")
        #expect(process.isRunning)
        process.terminate()
        _ = try await offThread { process.waitUntilExit() }
    }

    /// A new drawing's session, its autosave an hour away, with two edits applied and not
    /// saved yet (each says so as it is; the signal handlers come first), however slowly it started.
    func sessionWithTwoUnsavedEdits(_ s: CLIScratch) async throws -> (Process, Pipe) {
        try s.ok(["new", "drawing", "d.drawing"])
        let output = LineCounter()
        let (process, input) = try startSession(s, autosave: "3600", output: output.pipe)
        input.fileHandleForWriting.write(Data("add diamond\nadd cloud\n".utf8))
        #expect(await eventually(within: 60) { output.count >= 2 }, "\(output.text)")
        return (process, input)
    }

    @Test(arguments: [SIGTERM, SIGINT]) func aSignalSavesAndExits(signalNumber: Int32) async throws {
        let s = CLIScratch()
        let (process, _) = try await sessionWithTwoUnsavedEdits(s)
        #expect(try drawing(at: s.folder.file("d.drawing")).graphics.isEmpty, "not saved yet: the autosave delay is an hour")
        kill(process.processIdentifier, signalNumber)
        _ = try await offThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 128 + signalNumber)
        #expect(try drawing(at: s.folder.file("d.drawing")).graphics.count == 2)
    }

    /// A session that must stop (its input ended, a signal) when its save fails (the file
    /// changed on disk meanwhile) keeps its edits in Easel's state folder and says where,
    /// rather than losing them; the file written by the other program stays as it is.
    @Test(arguments: [0, SIGINT]) func editsThatCannotBeSavedWhenTheSessionStopsAreKept(signalNumber: Int32) async throws {
        let s = CLIScratch()
        let (process, input) = try await sessionWithTwoUnsavedEdits(s)
        // Another program writes the document meanwhile.
        try DocumentRegistry.standard.save(Drawing(canvasSize: Size(width: 10, height: 10)), to: s.folder.file("d.drawing"))
        if signalNumber == 0 { try input.fileHandleForWriting.close() } else { kill(process.processIdentifier, signalNumber) }
        _ = try await offThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 1)
        #expect(try drawing(at: s.folder.file("d.drawing")).canvasSize == Size(width: 10, height: 10), "theirs stays")
        let recovered = s.state.file("easel/recovered")
        let kept = try FileManager.default.contentsOfDirectory(atPath: recovered.path)
        #expect(kept.count == 1 && kept[0].hasSuffix("-d.drawing"), "\(kept)")
        #expect(try drawing(at: recovered.appendingPathComponent(kept[0])).graphics.count == 2, "the session's edits")
    }

    @Test func aPipedSessionWhoseCommandsAllWorkSucceeds() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let result = try s.run(["edit", "d.drawing"], stdin: "add star\nadd heart\nundo\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try drawing(at: s.folder.file("d.drawing")).graphics.count == 1)
    }

    @Test func anEndlessLineStopsTheSessionWithBoundedMemory() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        // /dev/zero: one line that never ends. The session reads at most 64 KiB of it.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "exec \"$0\" edit d.drawing < /dev/zero", s.easel.path],
            environment: s.environment, currentDirectory: s.folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("an input line is longer than 65536 bytes"), "\(result.stderr)")
    }

    @Test func aSignalIsHonouredBetweenQueuedCommands() async throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["add", "d.drawing", "star", "--at", "10,10"])
        // Moves, not adds: the document stays one star however far the session got before
        // the signal, so the save the signal asks for costs the same on any host. (With adds,
        // a session slowed by the suite's other tests had thousands of stars by then, and its
        // save, which writes the last 50 versions' history, outlasted the wait.)
        let script = s.folder.file("many.txt")
        try String(repeating: "move 0 --by 1,0\n", count: 200_000).write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "exec \"$0\" edit d.drawing < many.txt", s.easel.path]
        process.currentDirectoryURL = s.folder.url
        process.environment = s.environment
        let output = LineCounter()
        process.standardOutput = output.pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Under way (commands applied, each saying so), however slowly it started.
        #expect(await eventually(within: 60) { output.count >= 100 }, "\(output.text)")
        process.terminate()  // SIGTERM
        let stillRunning = await !eventually(within: 30) { !process.isRunning }
        if stillRunning { kill(process.processIdentifier, SIGKILL) }
        _ = try await offThread { process.waitUntilExit() }
        #expect(!stillRunning, "SIGTERM ends the session while commands are still queued")
        #expect(process.terminationStatus == 128 + SIGTERM)
        let star = try drawing(at: s.folder.file("d.drawing")).graphics
        let moved = star.count == 1 ? star[0].transform.center.x - 10 : -1
        #expect(moved > 0 && moved < 200_000, "what was applied before the signal is saved: moved by \(moved)")
    }
}
