import ArgumentParser
import FoundationEssentials
import Glibc
import Dispatch
import EaselDocuments
import EaselGeometry
import EaselSupport
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

    @Option(parsing: .unconditional, help: "Seconds of idle time before unsaved changes are saved.")
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

    init(editor: DocumentEditor, path: String, autosaveDelay: Double) {
        self.editor = editor
        self.path = path
        self.autosaveDelay = autosaveDelay
    }

    func run() throws {
        if let note = editor.historyNote { Terminal.note(note) }
        // SIGINT and SIGTERM go to the session's loop, which saves and stops between commands.
        // SignalWatcher, the handler `export --watch` uses, says why not a Dispatch source.
        let input = self.input
        let signals = SignalWatcher { input.caught($0) }
        defer { signals.stop() }
        startReader()
        if interactive {
            Terminal.printLine("editing \(path) — type help for the verbs (Tab completes), quit to leave")
        }
        var lastInput = Date()
        while true {
            // One line at a time, so a signal is honoured between any two commands however
            // many are queued.
            let (next, ended, signal) = input.takeOne()
            if let signal {
                try saveOrKeepEdits()
                Terminal.printError("easel: \(signal == SIGINT ? "interrupted" : "terminated"); \(path) saved")
                throw ExitCode(128 + signal)
            }
            switch next {
            case .line(let line):
                lastInput = Date()
                let goOn = try handle(line)
                if !goOn, try finish() { return }
                input.handled()  // the prompt comes back only now, after this line's output
                continue
            case .tooLong:
                Terminal.error(
                    "an input line is longer than \(InputQueue.maxLineBytes) bytes; that is not a command, so the session stops"
                )
                failures += 1
                _ = try finish(endOfInput: true)
                return
            case nil:
                break
            }
            if ended {
                _ = try finish(endOfInput: true)
                return
            }
            let woke = input.wait(seconds: 0.1)
            if !woke, editor.hasUnsavedChanges, Date().timeIntervalSince(lastInput) >= autosaveDelay {
                // Quietly at a prompt: a notice would break the line being typed.
                do { try saveIfNeeded(announcing: !interactive) } catch {
                    if !interactive { throw error }
                    // Reported when the user saves or quits; the edits are kept meanwhile.
                    lastInput = Date()
                }
            }
        }
    }

    /// Saves and ends, failing the session (exit 1) when any piped command failed, so a
    /// script learns that not everything it asked for was done. Returns false, keeping the
    /// session, when the save fails at a prompt: the edits are kept for `save-as PATH`
    /// (or `quit!` to leave them).
    private func finish(endOfInput: Bool = false) throws -> Bool {
        do {
            try saveIfNeeded()
        } catch  where interactive && !endOfInput {
            Terminal.error(
                "\(error); your edits are kept: save-as PATH writes them to another file, quit! leaves without them")
            return false
        } catch {
            // The session cannot go on (its input ended): the edits are not lost with it.
            try keepEdits(failedSave: error)
        }
        if failures > 0 && !interactive {
            Terminal.error("\(failures) command\(failures == 1 ? "" : "s") failed; the others were applied and saved")
            throw ExitCode.documentFailure
        }
        return true
    }

    /// Runs one line; returns false to end the session.
    private func handle(_ line: String) throws -> Bool {
        // A line at a prompt is read whole by the line editor: refused here, before any
        // work, as the piped reader refuses one as it reads.
        guard line.utf8.count <= InputQueue.maxLineBytes else {
            Terminal.error(
                "this line is \(line.utf8.count) bytes, longer than \(InputQueue.maxLineBytes); that is not a command, so it was not run"
            )
            failures += 1
            return true
        }
        let words: [String]
        do { words = try ShellWords.split(line) } catch {
            Terminal.error("\(error)")
            failures += 1
            return true
        }
        guard let verb = words.first?.lowercased() else { return true }
        // Repeated options merged (the last counts), so that parsing stays linear.
        let arguments = Self.optionsOfVerbs[verb]?.merging(Array(words.dropFirst())) ?? Array(words.dropFirst())
        guard arguments.count <= RepeatedOptions.maxWords else {
            Terminal.error(
                "this \(verb) command has \(arguments.count) words; a command takes at most \(RepeatedOptions.maxWords)")
            failures += 1
            return true
        }
        do {
            switch verb {
            case "quit", "exit", "q": return false
            case "quit!":
                Terminal.printError("easel: left without saving")
                throw ExitCode(editor.hasUnsavedChanges ? 1 : 0)
            case "help", "?":
                if let name = arguments.first, let type = Self.verbs[name.lowercased()] {
                    Terminal.write(Self.sessionHelp(type, verb: name.lowercased()))
                } else {
                    Terminal.write(Self.help)
                }
            case "save-as":
                guard arguments.count == 1 else { throw ValidationError("save-as takes one path: save-as PATH") }
                try saveAs(arguments[0])
            case "save":
                try editor.save()
                noteUpgrade()
                Terminal.printLine("saved \(path)")
            case "info":
                let json = arguments.contains("--json")
                Terminal.write(InfoCommand.render(editor.description, json: json))
            case "export":
                // The session's output is its own: the image goes to a file, named before the
                // command is read (which would otherwise speak of redirecting its output).
                let namesOut = arguments.contains { $0 == "-o" || $0 == "--out" || $0.hasPrefix("--out=") }
                guard namesOut else { throw ValidationError("export in a session needs --out FILE (or -o)") }
                // Only what a session's export takes: another input, a folder's options or
                // --watch would be read and ignored, and `-` is a file here, not the output.
                let command = try SessionExportArguments.parse(arguments)
                guard command.out != "-" else {
                    throw ValidationError("export in a session writes a file: give --out FILE, not -")
                }
                let options = command.render.renderOptions(outputPath: command.out)
                try OutputProtection.checkSingleExport(
                    of: editor.located, to: URL(fileURLWithPath: command.out), format: options.format)
                let file = try DocumentRenderer.export(editor.located, options: options)
                try file.write(to: command.out)
                Terminal.printLine("wrote \(command.out) (\(file.width)x\(file.height))")
            default:
                guard let type = Self.verbs[verb] else {
                    Terminal.error("unknown verb \"\(verb)\"; type help for the list")
                    failures += 1
                    return true
                }
                if arguments.contains("--help") || arguments.contains("-h") {
                    Terminal.write(Self.sessionHelp(type, verb: verb))
                    return true
                }
                let command = try type.parse([path] + arguments)
                guard let edit = command as? any EditVerb else { return true }
                // A photo a refused edit imported is taken away again.
                Terminal.printLine(try CreatedFiles.removingOnFailure { try edit.apply(to: &editor) })
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            // Usage errors and failed edits are reported; the session goes on.
            let message = (error as? ValidationError).map(\.message) ?? Self.describeParseError(error)
            Terminal.error(message)
            failures += 1
        }
        return true
    }

    private static func describeParseError(_ error: Error) -> String {
        if error is DocumentError || error is EditError || error is RenderError { return "\(error)" }
        return UsageErrors.readable(EaselRoot.message(for: error))
    }

    /// Saves before the session stops on a signal; when that fails, keeps the edits as
    /// `keepEdits` does.
    private func saveOrKeepEdits() throws {
        do { try saveIfNeeded() } catch { try keepEdits(failedSave: error) }
    }

    /// After a save that failed when the session cannot go on (its input ended, a signal),
    /// writes the document as edited to Easel's state folder (`recovered/`, never beside the
    /// documents, where the Cards app would load a copy of a card), says where, and fails
    /// the session; rethrows the save's error when even that cannot be written.
    private func keepEdits(failedSave saveError: Error) throws -> Never {
        let folder = StateFolder.fromEnvironment.url.appendingPathComponent("recovered")
        let stamp = "\(Int(Date().timeIntervalSince1970))-\(getpid())"
        let copy = folder.appendingPathComponent("\(stamp)-\(URL(fileURLWithPath: path).lastPathComponent)")
        do {
            try FileIO.createFolders(at: folder.path, permissions: 0o700)
            try DocumentRegistry.standard.save(editor.document, to: copy)
        } catch {
            throw saveError
        }
        Terminal.error("\(saveError); your edits are kept in \(copy.path) (its images are those beside \(path))")
        throw ExitCode.documentFailure
    }

    private func saveIfNeeded(announcing: Bool = true) throws {
        guard editor.hasUnsavedChanges else { return }
        try editor.save()
        noteUpgrade()
        if interactive && announcing { Terminal.printError("easel: saved \(path)") }
    }

    /// Writes the document as it is now to `target` (with the images it uses, when that is
    /// another folder), leaving the original and its history as they are.
    private func saveAs(_ target: String) throws {
        let url = URL(fileURLWithPath: target)
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw ValidationError("\(target) exists; save-as writes a new file only")
        }
        // The document as edited, with the images it uses now (one added in the session too).
        let located = try DocumentRegistry.standard.locate(editor.document, at: editor.located.url)
        let copy = try DocumentRegistry.standard.locate(located.document, at: url)
        if copy.resourceFolder.standardizedFileURL.path != located.resourceFolder.standardizedFileURL.path {
            // Every image looked at before anything is written: a file of the same name and
            // other bytes in the new folder would be shown in the image's place, so it is
            // refused; an image that cannot be read is named and left out, as it is missing
            // beside the original too.
            var images: [(bytes: [UInt8], target: String)] = []
            for file in located.referencedFiles {
                guard let source = file.path else { continue }
                let target = copy.resourceFolder.appendingPathComponent(file.name).path
                guard let bytes = try? FileIO.readBytes(at: source, maxBytes: RenderLimits.maxImageFileBytes) else {
                    Terminal.warning("\(source) cannot be read, so the copy names it without it beside it")
                    continue
                }
                if FileIO.entryExists(atPath: target) {
                    guard (try? FileIO.readBytes(at: target, maxBytes: RenderLimits.maxImageFileBytes)) == bytes else {
                        throw ValidationError(
                            "\(target) exists with other bytes, and the copy would show it in place of \(file.name); nothing was written — save it in another folder"
                        )
                    }
                    continue
                }
                images.append((bytes, target))
            }
            try FileIO.createFolders(at: copy.resourceFolder.path)
            for image in images { try AtomicFile.write(image.bytes, to: image.target) }
        } else {
            try FileIO.createFolders(at: copy.resourceFolder.path)
        }
        try DocumentRegistry.standard.save(editor.document.copy(savedAt: url), to: url)
        Terminal.printLine("saved a copy as \(target)")
    }

    /// A verb's help as the session takes it (no document path).
    static func sessionHelp(_ type: ParsableCommand.Type, verb: String) -> String {
        type.helpMessage(columns: 100).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingWhitespace.hasPrefix("<path>") }
            .joined(separator: "\n")
            .replacing("\(verb) <path>", with: verb)
            .replacing("\(verb) [<options>] <path>", with: "\(verb) [<options>]")
    }

    /// Says once that a legacy document was saved in the current format.
    private func noteUpgrade() {
        guard !upgradeNoted, let upgrade = editor.formatUpgrade else { return }
        upgradeNoted = true
        Terminal.note(upgrade)
    }

    /// Reads standard input in chunks and hands complete lines to the loop: a line is at
    /// most `InputQueue.maxLineBytes` long, and the reader waits while the loop has
    /// `InputQueue.capacity` lines to do, so no input makes memory grow without bound.
    private func startReader() {
        let input = self.input
        if interactive {
            setUpCompletion()
            StartedThread.start {
                // One prompt at a time: the next appears once the loop has handled the line.
                while let line = LineEditor.readLine(prompt: "easel> ") {
                    input.append(.line(line))
                    input.waitUntilHandled()
                }
                input.end()
            }?.detach()
            return
        }
        StartedThread.start {
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
        }?.detach()
    }

    /// Tab completes verbs, element indices, order directions, colour names and options.
    private func setUpCompletion() {
        LineEditor.setUp()
        let count = { [unowned self] in self.editor.document.elementCount }
        LineEditor.completer = { words, _ in
            guard let verb = words.first?.lowercased() else {
                return (Self.verbs.keys + ["help", "info", "export", "save", "save-as", "quit", "quit!"]).sorted()
            }
            let previous = words.last ?? ""
            if ["add", "set"].contains(verb), ElementProperty.forFlag(previous) != nil {
                return ElementOptions.completions(after: previous)
            }
            if previous == "--background" || (verb == "background" && words.count == 1) {
                return (Array(Color.cardsPalette.keys) + Array(Color.cssNames.keys) + ["none"]).sorted()
            }
            if ["set", "move", "remove", "order"].contains(verb) && words.count == 1 { return (0..<count()).map(String.init) }
            if verb == "order" && words.count == 2 { return ["front", "back", "forward", "backward"] }
            if verb == "help" && words.count == 1 { return Self.verbs.keys.sorted() }
            return Self.options[verb] ?? []
        }
    }

    /// The options each verb takes, for completion: `add` and `set` take every property.
    static let options: [String: [String]] = [
        "add": ElementOptions.completions(after: nil), "set": ElementOptions.completions(after: nil), "move": ["--by"],
        "export": ["--out", "--format", "--scale", "--width", "--height", "--fit", "--background"], "info": ["--json"],
    ]

    /// The options of every verb that reads options, to merge their repeats.
    static let optionsOfVerbs: [String: RepeatedOptions] = verbs.mapValues { RepeatedOptions($0) }.merging(
        [
            "export": RepeatedOptions(SessionExportArguments.self),
            "add": RepeatedOptions(AddCommand.self).adding(unconditional: ElementOptions.completions(after: nil)),
            "set": RepeatedOptions(SetCommand.self).adding(unconditional: ElementOptions.completions(after: nil)),
        ]) { $1 }

    static let verbs: [String: ParsableCommand.Type] = [
        "add": AddCommand.self, "set": SetCommand.self, "move": MoveCommand.self, "remove": RemoveCommand.self,
        "order": OrderCommand.self, "align": AlignCommand.self, "distribute": DistributeCommand.self,
        "background": BackgroundCommand.self, "undo": UndoCommand.self, "redo": RedoCommand.self,
    ]

    static let help = """
        add KIND [VALUE] [options]   add a graphic (drawing) or an image/text (card)
        set INDEX [options]          change an element
        move INDEX --by DX,DY        move an element
        remove INDEX                 remove an element
        order INDEX front|back|forward|backward
        align EDGE INDEX...          line elements up: left, center, right, top, middle, bottom
        distribute AXIS INDEX...     space three or more evenly: horizontal or vertical
        background COLOR             set the background
        undo, redo                   step through the history
        info [--json]                show the document
        export --out FILE [options]  render the document as it is now
        save                         save now
        save-as PATH                 write the document as it is now to a new file
        quit                         save and leave (quit! leaves without saving)
        help VERB, VERB --help       a verb's options; Tab completes verbs, indices, colours
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

    /// The longest command line read, in bytes: far more than any command needs, and
    /// little enough that a line is refused before any time goes into it.
    static let maxLineBytes = 64 << 10
    /// How many lines wait at most.
    static let capacity = 256

    /// Guards the fields below; the reader waits on it while the queue is full. (Not a
    /// counting semaphore for the room: libdispatch traps when one is released below its
    /// starting count, as it would be with lines left after `quit`.)
    private let condition = Condition()
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
    /// The reader (at a prompt) waits here until the loop has handled its last line.
    private let handledLine = DispatchSemaphore(value: 0)
    func handled() { handledLine.signal() }
    func waitUntilHandled() { handledLine.wait() }

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

/// What `export` takes in an `easel edit` session: the file the image goes to and how it is
/// rendered. The document is the session's; the export command's inputs, folder options and
/// `--watch` are not the session's to take.
struct SessionExportArguments: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("out")], help: "The file the image goes to.")
    var out: String

    @OptionGroup var render: RenderOptionGroup
}
