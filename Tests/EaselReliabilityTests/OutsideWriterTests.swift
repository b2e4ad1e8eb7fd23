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
}
