import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// A document opened read-only (`easel serve`'s description of it, `easel info`) while an
/// editor saves it: an editor renames the saved document into place, then its history, so
/// a read between the two would take the history for one made for another version and
/// offer nothing to undo (the editor's Undo button stayed off after a change made in the
/// CLI). The reader reads again once the save is over, and never keeps an editor waiting.
@Suite("A document read while an editor saves it is read as one version")
struct ReadingWhileSavingTests {
    let folder = TemporaryFolder()
    let state = TemporaryFolder("easel-state")

    /// A small drawing, its background set once and saved: its history holds one step.
    func drawingEditedOnce() throws -> URL {
        let url = folder.file("a.drawing")
        try DocumentRegistry.standard.save(Drawing(canvasSize: Size(width: 10, height: 10)), to: url)
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        try editor.perform { try $0.setBackground(.black) }
        try editor.save()
        return url
    }

    /// The bytes of another version of the drawing (a red background, saved elsewhere).
    func anotherVersion() throws -> [UInt8] {
        let other = folder.file("other.drawing")
        try DocumentRegistry.standard.save(
            Drawing(canvasSize: Size(width: 10, height: 10), background: Color(red: 1, green: 0, blue: 0)), to: other)
        return try FileIO.readBytes(at: other.path, maxBytes: 1 << 20)
    }

    @Test func aReadBetweenAnEditorsTwoRenamesWaitsForTheSaveAndSeesTheHistory() throws {
        let url = try drawingEditedOnce()
        let saved = try FileIO.readBytes(at: url.path, maxBytes: 1 << 20)
        let read = Locked<Result<DocumentEditor, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        do {
            // An editor part way through its save: it holds the lock, and the document on
            // disk is not the version its history was written for...
            let editor = try DocumentLock(beside: url)
            try AtomicFile.write(try anotherVersion(), to: url.path)
            DispatchQueue.global().async {
                read.withLock { $0 = Result { try DocumentEditor(opening: url, locking: false, stateFolder: state.url) } }
                done.signal()
            }
            // ...and finishes it a moment later.
            usleep(300_000)
            try AtomicFile.write(saved, to: url.path)
            withExtendedLifetime(editor) {}
        }
        done.wait()
        let reader = try #require(try read.withLock { $0 }?.get())
        #expect(reader.canUndo, "the history of the version saved: \(reader.historyNote ?? "no note")")
        #expect(reader.savedContentBytes == saved)
        #expect((reader.document as? Drawing)?.background == .black)
    }

    /// A document's first save makes its history: a read after the document's rename and
    /// before the history's finds none at all, which is also what a document never edited has.
    @Test func aReadDuringADocumentsFirstSaveWaitsForItsHistory() throws {
        let url = folder.file("b.drawing")
        try DocumentRegistry.standard.save(Drawing(canvasSize: Size(width: 10, height: 10)), to: url)
        let unedited = try FileIO.readBytes(at: url.path, maxBytes: 1 << 20)
        // The first save, made for real, then taken apart: its history's index kept aside,
        // the document as it was before.
        do {
            var editor = try DocumentEditor(opening: url, stateFolder: state.url)
            try editor.perform { try $0.setBackground(.black) }
            try editor.save()
        }
        let saved = try FileIO.readBytes(at: url.path, maxBytes: 1 << 20)
        let index = try #require(
            FileManager.default.enumerator(at: state.url, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "index.json" })
        let aside = folder.file("index.json.aside")
        try FileManager.default.moveItem(at: index, to: aside)
        try AtomicFile.write(unedited, to: url.path)
        #expect(try !DocumentEditor(opening: url, locking: false, stateFolder: state.url).canUndo)

        let read = Locked<Result<DocumentEditor, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        do {
            // The save again, stopped between its renames: the document in place, its
            // history not yet.
            let editor = try DocumentLock(beside: url)
            try AtomicFile.write(saved, to: url.path)
            DispatchQueue.global().async {
                read.withLock { $0 = Result { try DocumentEditor(opening: url, locking: false, stateFolder: state.url) } }
                done.signal()
            }
            usleep(300_000)
            try FileManager.default.moveItem(at: aside, to: index)
            withExtendedLifetime(editor) {}
        }
        done.wait()
        let reader = try #require(try read.withLock { $0 }?.get())
        #expect(reader.canUndo, "the history the first save made: \(reader.historyNote ?? "no note")")
        #expect(reader.savedContentBytes == saved)
    }

    @Test func aDocumentChangedOutsideEaselIsStillReadWhileAnEditorHoldsItsLock() throws {
        let url = try drawingEditedOnce()
        // Changed outside easel: its history is for another version, whoever holds the lock
        // (an interactive `easel edit` holds it for its whole session).
        let changed = try anotherVersion()
        try AtomicFile.write(changed, to: url.path)
        let session = try DocumentLock(beside: url)
        let read = try withExtendedLifetime(session) {
            try DocumentEditor(opening: url, locking: false, stateFolder: state.url)
        }
        #expect(!read.canUndo)
        #expect(read.historyNote?.contains("changed outside easel") == true, "\(read.historyNote ?? "no note")")
        #expect(read.savedContentBytes == changed)
    }

    @Test func aReaderWaitsForAnEditorWithoutLockingOrMakingAnything() throws {
        let url = try folder.write("{}", to: "d.drawing")
        // No lock file: nothing is being saved, and none is made.
        DocumentLock.waitWhileHeld(beside: url, timeout: 5)
        #expect(!FileIO.entryExists(atPath: folder.file(DocumentLock.fileName).path))
        let done = DispatchSemaphore(value: 0)
        do {
            let editor = try DocumentLock(beside: url)
            // An editor holding it longer than the reader waits: the reader goes on.
            DocumentLock.waitWhileHeld(beside: url, timeout: 0.05)
            DispatchQueue.global().async {
                DocumentLock.waitWhileHeld(beside: url, timeout: 30)
                done.signal()
            }
            usleep(50_000)
            withExtendedLifetime(editor) {}
        }
        // While a reader waits, another editor gets in as soon as the first has finished:
        // a reader holds no lock.
        _ = try DocumentLock(beside: url, timeout: 0)
        done.wait()
    }
}
