import Testing
import Foundation
@testable import EaselDocuments
import EaselTestSupport

/// A library user's own document type: plain text notes.
struct Note: FileDocument, Hashable {
    static let noteType = ContentType(
        identifier: "com.example.note", preferredFilenameExtension: "note", conformsTo: ["public.plain-text"])
    static var readableContentTypes: [ContentType] { [noteType] }
    var text: String

    init(text: String) { self.text = text }

    init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        text = String(decoding: try configuration.regularFileBytes(), as: UTF8.self)
    }

    func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        .regularFile(Array(text.utf8))
    }
}

@Suite("Registry and history")
struct RegistryAndHistoryTests {
    @Test func documentsOpenByExtension() {
        let registry = DocumentRegistry.standard
        #expect(registry.entry(for: URL(fileURLWithPath: "/a/B.rwcard"))?.contentType == .card)
        #expect(registry.entry(for: URL(fileURLWithPath: "/a/B.RWCARD"))?.contentType == .card)
        #expect(registry.entry(for: URL(fileURLWithPath: "/a/pic.drawing"))?.contentType == .drawing)
        #expect(registry.entry(for: URL(fileURLWithPath: "/a/old.rwcard.bak")) == nil)
        #expect(registry.entry(for: URL(fileURLWithPath: "/a/8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11")) == nil)
        #expect(ContentType.drawing.conforms(to: "public.json"))
    }

    /// `isDocument(path:)` (a path's name, no URL made) agrees with `isDocument(_:)`.
    @Test func aPathIsADocumentExactlyWhenItsURLIs() {
        let registry = DocumentRegistry.standard
        let paths = [
            "a.rwcard", "dir/b.drawing", "C.DRAWING", "d.rwcard/", "in/e.drawing//", "f.rwcard.bak", "noext", ".rwcard",
            "dir/.drawing", "x.png", "dir.drawing/sub.png", "g.", "/", "", "h..drawing", "/abs/path/i.Rwcard",
            "carte-été.rwcard", "été/j.drawing", "k.dr\u{212A}awing", "l.rwcar\u{0301}d", "m.RWCARD/", "n.drawin",
            "o.drawingg", "文档.drawing", "p.rwcärd",
        ]
        for path in paths {
            #expect(
                registry.isDocument(path: path) == registry.isDocument(URL(fileURLWithPath: path)), "\(path)")
        }
    }

    @Test func libraryUsersRegisterTheirOwnTypes() throws {
        var registry = DocumentRegistry.standard
        registry.register(Note.self)
        #expect(registry.supportedExtensions == ["rwcard", "drawing", "note"])
        let folder = TemporaryFolder()
        try registry.save(Note(text: "hello"), to: folder.file("a.note"))
        #expect(try registry.open(folder.file("a.note")).document as? Note == Note(text: "hello"))
    }

    @Test func openingGivesTheContentBytesItDecoded() throws {
        let folder = TemporaryFolder()
        let drawing = Drawing(canvasSize: Size(width: 40, height: 30), background: .white, graphics: [])
        // A drawing as one file, and as a package folder whose content is drawing.json.
        let file = folder.file("plain.drawing"), package = folder.file("package.drawing")
        try DocumentRegistry.standard.save(drawing, to: file)
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: package.appendingPathComponent(Drawing.packageDocumentName))
        try Data("not a document".utf8).write(to: package.appendingPathComponent("photo.png"))
        let onDisk = try [UInt8](Data(contentsOf: file))
        for url in [file, package] {
            let (located, content) = try DocumentRegistry.standard.openReadingContent(url)
            #expect(located.document as? Drawing == drawing)
            #expect(content == onDisk, "\(url.lastPathComponent): the bytes of its content file")
        }
    }

    @Test func undoRedoAndANewEditDropsTheRedoBranch() {
        var history = History<Drawing>(maxDepth: 10)
        var drawing = Drawing()
        let original = drawing
        history.perform({ $0.background = .black }, on: &drawing)
        history.perform({ $0.canvasSize = Size(width: 10, height: 10) }, on: &drawing)
        let edited = drawing
        #expect(!history.perform({ $0.canvasSize = Size(width: 10, height: 10) }, on: &drawing), "no change records nothing")
        drawing = history.undo(from: drawing)!
        #expect(drawing.background == .black && drawing.canvasSize == original.canvasSize)
        drawing = history.undo(from: drawing)!
        #expect(drawing == original)
        #expect(history.undo(from: drawing) == nil)
        drawing = history.redo(from: drawing)!
        drawing = history.redo(from: drawing)!
        #expect(drawing == edited)
        drawing = history.undo(from: drawing)!
        history.perform({ $0.background = nil }, on: &drawing)
        #expect(!history.canRedo, "a new edit after an undo drops the redo branch")
    }

    @Test func theHistoryIsBounded() {
        var history = History<Int>(maxDepth: 3)
        var value = 0
        for _ in 0..<10 { history.perform({ $0 += 1 }, on: &value) }
        #expect(history.undoStack == [7, 8, 9], "the values before the last three edits")
        var steps = 0
        while let previous = history.undo(from: value) {
            value = previous
            steps += 1
        }
        #expect(steps == 3 && value == 7)
    }
}

import EaselGeometry
