import ArgumentParser
import EaselSupport
import FoundationEssentials
import EaselDocuments
import EaselEditing
import EaselBatch

/// A command that reports failures as one line on stderr (`easel: error: FILE: problem`)
/// and exits 1; usage errors stay ArgumentParser's (exit 64, in the same style).
protocol EaselCommand: ParsableCommand {
    func execute() throws
}

extension EaselCommand {
    func run() throws {
        do {
            try execute()
        } catch let exit as ExitCode {
            throw exit
        } catch let error as ValidationError {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.documentFailure
        }
    }
}

/// An editing verb: usable as `easel VERB PATH ...` (open, apply, save) and inside
/// `easel edit PATH` (applied to the open session).
protocol EditVerb: EaselCommand {
    /// The document the verb edits.
    var path: String { get }
    /// Applies the verb to an open document; returns what to tell the user.
    func apply(to editor: inout DocumentEditor) throws -> String
}

extension EditVerb {
    func execute() throws {
        var editor = try DocumentEditor.openExisting(path)
        if let note = editor.historyNote { Terminal.note(note) }
        // A photo the edit imported is taken away again when the edit or its save fails:
        // a refused edit changes nothing in the folder.
        let message = try CreatedFiles.removingOnFailure { () throws -> String in
            let message: String
            do {
                message = try apply(to: &editor)
            } catch let error as EditError where error.isInvalidRequest {
                throw ValidationError(error.message)
            } catch let error as EditError {
                throw EditError("\(path): \(error.message)")
            }
            if editor.hasUnsavedChanges { try editor.save() }
            return message
        }
        if let upgrade = editor.formatUpgrade { Terminal.note(upgrade) }
        Terminal.printLine(message)
    }
}

extension DocumentEditor {
    /// Opens `path` with the CLI's checks: a missing path or a folder that is not a
    /// document is reported plainly.
    static func openExisting(_ path: String, forEditing: Bool = true) throws -> DocumentEditor {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DocumentError(file: path, kind: .io("no such file"))
        }
        // How long to wait for another easel editing the same document (seconds).
        let timeout = ProcessInfo.processInfo.environment["EASEL_LOCK_TIMEOUT"].flatMap(Double.init) ?? 5
        return try DocumentEditor(opening: URL(fileURLWithPath: path), locking: forEditing, lockTimeout: timeout)
    }
}
