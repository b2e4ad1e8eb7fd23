import EaselDocuments
import EaselEditing
import EaselTestSupport
import Foundation
import Testing

/// Nothing lost to a writer that does not take the lock (another program, a sync tool):
/// the editor compares the file with what it opened before it saves, and keeps theirs.
/// (It belongs with EaselEditingTests once the editing rewrite has landed.)
@Suite("A writer outside Easel is noticed before saving")
struct OutsideWriterTests {
    @Test func theOtherWritersVersionIsKept() throws {
        let folder = TemporaryFolder()
        let state = TemporaryFolder("easel-state")
        let url = try folder.write(DrawingEncoder.encode(Drawing()), to: "d.drawing")
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        _ = try editor.add(ElementRequest(kind: "ellipse", documentName: "d.drawing"))
        try folder.write(DrawingEncoder.encode(Drawing(background: .black)), to: "d.drawing")
        #expect { try editor.save() } throws: { error in "\(error)".contains("the file changed on disk since easel opened it") }
        var warnings: [DocumentWarning] = []
        let kept = try Drawing(decoding: Array(Data(contentsOf: url)), file: "d.drawing", warnings: &warnings)
        #expect(kept.background == .black, "the other writer's version is kept")
    }

    /// A writer that writes just after easel's save renamed the file into place: easel read
    /// the file back and took their version for the one it saved, so its next save
    /// overwrote it. (The writer waits for the rename with inotify and writes at once, while
    /// easel is still committing the history; saved one after another, it landed before
    /// easel's old read back in four or five saves of five.)
    @Test(.serialized, arguments: 0..<5) func aWriteJustAfterASaveIsKeptToo(round: Int) throws {
        let folder = TemporaryFolder()
        let state = TemporaryFolder("easel-state")
        let name = "d\(round).drawing"
        let url = try folder.write(DrawingEncoder.encode(Drawing()), to: name)
        let theirs = DrawingEncoder.encode(Drawing(background: .black))
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        let writer = try OutsideWriter(writing: theirs, toFileNamed: name, in: folder.url, at: .afterRename)
        _ = try editor.add(ElementRequest(kind: "ellipse", documentName: name))
        try editor.save()
        try #require(writer.wroteInTime())
        _ = try editor.add(ElementRequest(kind: "star", documentName: name))
        #expect { try editor.save() } throws: { error in "\(error)".contains("the file changed on disk since easel opened it") }
        #expect(try Array(Data(contentsOf: url)) == theirs, "the other writer's version is kept")
    }

    /// A writer that writes between easel's reading the document and its reading the bytes
    /// a save compares with: read twice, the editor held the version before theirs with
    /// their bytes as its base, and its save overwrote their write. (The writer writes after
    /// the second read, the one under the lock. Easel used to read a third time, and then
    /// met their file half written: this check failed there.)
    @Test func aWriteWhileTheEditorOpensTheDocumentIsKept() throws {
        let folder = TemporaryFolder()
        let state = TemporaryFolder("easel-state")
        let url = try folder.write(DrawingEncoder.encode(Drawing()), to: "e.drawing")
        let theirs = DrawingEncoder.encode(Drawing(background: .black))
        let writer = try OutsideWriter(writing: theirs, toFileNamed: "e.drawing", in: folder.url, at: .afterReads(2))
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        try #require(writer.wroteInTime())
        _ = try editor.add(ElementRequest(kind: "ellipse", documentName: "e.drawing"))
        #expect { try editor.save() } throws: { error in "\(error)".contains("the file changed on disk since easel opened it") }
        #expect(try Array(Data(contentsOf: url)) == theirs, "the other writer's version is kept")
    }

    /// A writer that writes just after easel's save renamed the file into place, when the
    /// save then fails (its undo history cannot be committed) and puts the document back:
    /// easel put its old version back without looking, over theirs. (The writer lands while
    /// the old version is flushed to disk, before its rename.)
    @Test func aWriteJustBeforeAFailedSaveIsPutBackIsKept() throws {
        let folder = TemporaryFolder()
        let state = TemporaryFolder("easel-state")
        let url = folder.url.appendingPathComponent("f.drawing")
        _ = try DocumentEditor.create(Drawing(), at: url, stateFolder: state.url)
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        try blockHistoryIndex(inStateFolder: state.url)  // the index's rename fails after the document's
        let theirs = DrawingEncoder.encode(Drawing(background: .black))
        let writer = try OutsideWriter(writing: theirs, toFileNamed: "f.drawing", in: folder.url, at: .afterRename)
        _ = try editor.add(ElementRequest(kind: "star", documentName: "f.drawing"))
        #expect { try editor.save() } throws: { error in "\(error)".contains("nothing was saved") }
        try #require(writer.wroteInTime())
        #expect(try Array(Data(contentsOf: url)) == theirs, "the other writer's version is kept")
    }
}
