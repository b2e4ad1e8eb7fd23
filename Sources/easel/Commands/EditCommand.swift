import ArgumentParser
import Foundation
import Dispatch
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo

struct EditCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit one document interactively, with the editing verbs typed at a prompt.",
        discussion: """
            Verbs: add, set, move, remove, order, background, undo, redo, info, export, save, help, quit \
            (each as its easel command, without the document path). The document is saved after \
            --autosave seconds without input once something changed, and always on quit, at the end \
            of input, and on SIGINT or SIGTERM. Commands can be piped in:

              printf 'add star --fill gold\\nundo\\nquit\\n' | easel edit art.drawing
            """
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String

    @Option(help: "Seconds of idle time before unsaved changes are saved.")
    var autosave: Double = 2

    func validate() throws {
        guard autosave.isFinite, autosave >= 0 else { throw ValidationError("--autosave must be zero or more seconds.") }
    }

    func execute() throws {
        let session = EditSession(editor: try DocumentEditor.openExisting(path), path: path, autosaveDelay: autosave)
        try session.run()
    }
}

/// The interactive loop: lines come from a reader thread; the main thread applies them,
/// autosaves when idle, and saves on quit, end of input and termination signals.
final class EditSession {
    private var editor: DocumentEditor
    private let path: String
    private let autosaveDelay: Double
    private let interactive = isatty(STDIN_FILENO) != 0
    private var upgradeNoted = false

    private let input = InputQueue()
    /// Commands that failed (usage errors and refused edits).
    private var failures = 0
    private var signalSources: [DispatchSourceSignal] = []

    init(editor: DocumentEditor, path: String, autosaveDelay: Double) {
        self.editor = editor
        self.path = path
        self.autosaveDelay = autosaveDelay
    }

    func run() throws {
        if let note = editor.historyNote { Terminal.printError("easel: note: \(note)") }
        installSignalHandlers()
        startReader()
        if interactive {
            Terminal.printLine("editing \(path) — type help for the verbs, quit to leave")
            prompt()
        }
        var lastInput = Date()
        while true {
            // One line at a time, so a signal is honoured between any two commands however
            // many are queued.
            let (next, ended, signal) = input.takeOne()
            if let signal {
                try saveIfNeeded()
                Terminal.printError("easel: \(signal == SIGINT ? "interrupted" : "terminated"); \(path) saved")
                throw ExitCode(128 + signal)
            }
            switch next {
            case .line(let line):
                lastInput = Date()
                if try !handle(line) { return try finish() }
                if interactive { prompt() }
                continue
            case .tooLong:
                Terminal.printError(
                    "easel: an input line is longer than \(InputQueue.maxLineBytes) bytes; that is not a command, so the session stops"
                )
                failures += 1
                return try finish()
            case nil:
                break
            }
            if ended { return try finish() }
            let woke = input.wait(seconds: 0.1)
            if !woke, editor.hasUnsavedChanges, Date().timeIntervalSince(lastInput) >= autosaveDelay {
                try saveIfNeeded()
            }
        }
    }

    /// Saves, and fails the session (exit 1) when any piped command failed, so a script
    /// learns that not everything it asked for was done.
    private func finish() throws {
        try saveIfNeeded()
        if failures > 0 && !interactive {
            Terminal.printError("easel: \(failures) command\(failures == 1 ? "" : "s") failed; the others were applied and saved")
            throw ExitCode.documentFailure
        }
    }

    /// Runs one line; returns false to end the session.
    private func handle(_ line: String) throws -> Bool {
        let words: [String]
        do { words = try ShellWords.split(line) } catch {
            Terminal.printError("easel: \(error)")
            failures += 1
            return true
        }
        guard let verb = words.first?.lowercased() else { return true }
        let arguments = Array(words.dropFirst())
        do {
            switch verb {
            case "quit", "exit", "q": return false
            case "help", "?": Terminal.write(Self.help)
            case "save":
                try editor.save()
                noteUpgrade()
                Terminal.printLine("saved \(path)")
            case "info":
                let json = arguments.contains("--json")
                Terminal.write(InfoCommand.render(editor.description, json: json))
            case "export":
                let command = try ExportCommand.parse([path] + arguments)
                let options = command.render.renderOptions(outputPath: command.out)
                try OutputProtection.checkSingleExport(
                    of: editor.located, to: URL(fileURLWithPath: command.out), format: options.format)
                let file = try DocumentRenderer.export(editor.located, options: options)
                try file.write(to: command.out)
                Terminal.printLine("wrote \(command.out) (\(file.width)x\(file.height))")
            default:
                guard let type = Self.verbs[verb] else {
                    Terminal.printError("easel: unknown verb \"\(verb)\"; type help for the list")
                    failures += 1
                    return true
                }
                let command = try type.parse([path] + arguments)
                guard let edit = command as? any EditVerb else { return true }
                Terminal.printLine(try edit.apply(to: &editor))
            }
        } catch {
            // Usage errors and failed edits are reported; the session goes on.
            let message = (error as? ValidationError).map(\.message) ?? Self.describeParseError(error)
            Terminal.printError("easel: \(message)")
            failures += 1
        }
        return true
    }

    private static func describeParseError(_ error: Error) -> String {
        if error is DocumentError || error is EditError || error is RenderError { return "\(error)" }
        return EaselRoot.message(for: error)
    }

    private func saveIfNeeded() throws {
        guard editor.hasUnsavedChanges else { return }
        try editor.save()
        noteUpgrade()
        if interactive { Terminal.printError("easel: saved \(path)") }
    }

    /// Says once that a legacy document was saved in the current format.
    private func noteUpgrade() {
        guard !upgradeNoted, let upgrade = editor.formatUpgrade else { return }
        upgradeNoted = true
        Terminal.printError("easel: note: \(upgrade)")
    }

    private func prompt() {
        FileHandle.standardOutput.write(Data("easel> ".utf8))
    }

    /// Reads standard input in chunks and hands complete lines to the loop: a line is at
    /// most `InputQueue.maxLineBytes` long, and the reader waits while the loop has
    /// `InputQueue.capacity` lines to do, so no input makes memory grow without bound.
    private func startReader() {
        let input = self.input
        Thread {
            var line: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            reading: while true {
                let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for byte in chunk[0..<count] {
                    if byte == UInt8(ascii: "\n") {
                        input.append(.line(String(decoding: line, as: UTF8.self)))
                        line.removeAll(keepingCapacity: true)
                    } else if line.count == InputQueue.maxLineBytes {
                        input.append(.tooLong)
                        break reading
                    } else {
                        line.append(byte)
                    }
                }
            }
            if !line.isEmpty { input.append(.line(String(decoding: line, as: UTF8.self))) }
            input.end()
        }.start()
    }

    private func installSignalHandlers() {
        let input = self.input
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { input.caught(signalNumber) }
            source.resume()
            signalSources.append(source)
        }
    }

    static let verbs: [String: ParsableCommand.Type] = [
        "add": AddCommand.self, "set": SetCommand.self, "move": MoveCommand.self, "remove": RemoveCommand.self,
        "order": OrderCommand.self, "background": BackgroundCommand.self, "undo": UndoCommand.self, "redo": RedoCommand.self,
    ]

    static let help = """
        add KIND [VALUE] [options]   add a graphic (drawing) or an image/text (card)
        set INDEX [options]          change an element
        move INDEX --by DX,DY        move an element
        remove INDEX                 remove an element
        order INDEX front|back|forward|backward
        background COLOR             set the background
        undo, redo                   step through the history
        info [--json]                show the document
        export --out FILE [options]  render the document as it is now
        save                         save now
        quit                         save and leave
        Options are those of the easel commands of the same names (easel help add).
        """
}

/// What the reader thread and the signal handlers hand to the session's loop: at most
/// `capacity` lines at a time (the reader waits for room), each at most `maxLineBytes`.
final class InputQueue: @unchecked Sendable {
    /// One item of input.
    enum Item {
        case line(String)
        /// A line longer than `maxLineBytes`: the reader stopped there.
        case tooLong
    }

    /// The longest command line read, in bytes.
    static let maxLineBytes = 1 << 20
    /// How many lines wait at most.
    static let capacity = 256

    /// Guards the fields below; the reader waits on it while the queue is full. (Not a
    /// counting semaphore for the room: libdispatch traps when one is released below its
    /// starting count, as it would be with lines left after `quit`.)
    private let condition = NSCondition()
    private let wakeUp = DispatchSemaphore(value: 0)
    private var items: [Item] = []
    private var ended = false
    private var signal: Int32?

    /// Adds an item, waiting while the queue is full.
    func append(_ item: Item) {
        condition.lock()
        while items.count >= Self.capacity { condition.wait() }
        items.append(item)
        condition.unlock()
        wakeUp.signal()
    }
    func end() {
        condition.withLock { ended = true }
        wakeUp.signal()
    }
    func caught(_ number: Int32) {
        condition.withLock { signal = number }
        wakeUp.signal()
    }

    /// Waits up to `seconds` for something to happen; true when something did.
    func wait(seconds: Double) -> Bool { wakeUp.wait(timeout: .now() + seconds) == .success }

    /// The next item if any, whether input has ended (and every item was taken), and a
    /// caught signal.
    func takeOne() -> (item: Item?, ended: Bool, signal: Int32?) {
        condition.lock()
        defer { condition.unlock() }
        let item = items.isEmpty ? nil : items.removeFirst()
        if item != nil { condition.signal() }
        return (item, ended && items.isEmpty && item == nil, signal)
    }
}

/// Splits a command line into words, honouring single and double quotes and backslashes.
enum ShellWords {
    struct UnclosedQuote: Error, CustomStringConvertible {
        var description: String { "a quote is never closed" }
    }

    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                inWord = true
                continue
            }
            if character == "\\" && quote != "'" {
                escaped = true
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                inWord = true
                continue
            }
            if character == " " || character == "\t" {
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
                continue
            }
            current.append(character)
            inWord = true
        }
        if quote != nil { throw UnclosedQuote() }
        if inWord { words.append(current) }
        return words
    }
}
