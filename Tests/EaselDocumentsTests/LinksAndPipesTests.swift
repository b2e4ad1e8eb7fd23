import EaselDocuments
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// Opening a document reads only the document: a pipe named like one is refused, not waited
/// on, and a package's content linked from outside is not read.
@Suite("Opening a document never waits on a pipe or reads through a link")
struct LinksAndPipesTests {
    let folder = TemporaryFolder()

    @Test(arguments: ["x.rwcard", "x.drawing"])
    func aPipeNamedLikeADocumentIsRefusedNotWaitedOn(name: String) async throws {
        #expect(mkfifo(folder.file(name).path, 0o644) == 0)
        // On a thread of its own: were it to block on the pipe, the test fails instead of hanging.
        let outcome = Locked<String?>(nil)
        let url = folder.file(name)
        Thread {
            let said: String
            do {
                _ = try DocumentRegistry.standard.open(url)
                said = "opened"
            } catch {
                said = "\(error)"
            }
            outcome.withLock { $0 = said }
        }.start()
        #expect(await eventually { outcome.withLock { $0 } != nil }, "refused at once, not waited on")
        let said = outcome.withLock { $0 } ?? ""
        #expect(said.contains(url.path) && said.contains("not a regular file"), "\(said)")
    }

    /// A package is opened for its drawing.json alone: other files in it (a file over the
    /// size limit, a pipe, a package inside it) were all read, recursively, into memory, and
    /// one of them could keep the drawing from opening.
    @Test func aPackageIsOpenedForItsContentAlone() throws {
        try folder.write(DrawingEncoder.encode(Drawing(background: .black)), to: "art.drawing/drawing.json")
        let big = folder.file("art.drawing/huge.bin").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 80 << 20) == 0)
        #expect(mkfifo(folder.file("art.drawing/notes.fifo").path, 0o600) == 0)
        try folder.write(Array(repeating: 0, count: 16), to: "art.drawing/inner.drawing/drawing.json")
        let opened = try DocumentRegistry.standard.open(folder.file("art.drawing"))
        #expect((opened.document as? Drawing)?.background == .black)
    }

    @Test func aPackagesContentLinkedOutsideIsNotRead() throws {
        try folder.write(DrawingEncoder.encode(Drawing(background: .black)), to: "outside.json")
        try FileManager.default.createDirectory(at: folder.file("art.drawing"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.file("art.drawing/\(Drawing.packageDocumentName)"), withDestinationURL: folder.file("outside.json"))
        #expect {
            _ = try DocumentRegistry.standard.open(folder.file("art.drawing"))
        } throws: { error in
            "\(error)".contains("must contain drawing.json as a file of its own (not a symbolic link)")
        }
    }
}
