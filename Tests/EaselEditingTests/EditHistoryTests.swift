import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// The editor's history: kept in Easel's state folder, as patches sized by the change, for
/// documents of any size Easel opens; saves that could not be opened again are refused.
@Suite("Edit history")
struct EditHistoryTests {
    let folder = TemporaryFolder()
    let state = TemporaryFolder("easel-state")

    func bigDrawing(shapes: Int) -> Drawing {
        var graphics: [Graphic] = []
        for i in 0..<shapes {
            let center = Point(x: Double(i % 2000), y: Double(i / 2000))
            let transform = GraphicTransform(center: center, size: Size(width: 8, height: 8))
            let fill = Color(red: Double(i % 7) / 7, green: 0.5, blue: 0.25)
            graphics.append(Graphic(kind: .ellipse, transform: transform, fill: fill))
        }
        return Drawing(canvasSize: Size(width: 2000, height: 2000), graphics: graphics)
    }

    func stepFiles() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: state.url, includingPropertiesForKeys: [.fileSizeKey])!
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "patch" }
    }

    @Test func undoWorksOnADocumentOverOneMebibyteAndCostsWhatChanged() throws {
        let url = folder.file("big.drawing")
        try DocumentRegistry.standard.save(bigDrawing(shapes: 6000), to: url)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        #expect(size > 1 << 20, "the document is over 1 MiB: \(size) bytes")
        do {
            var editor = try DocumentEditor(opening: url, stateFolder: state.url)
            try editor.perform { try $0.setBackground(.black) }
            try editor.perform { try $0.move(3000, by: Point(x: 10, y: 0)) }
            try editor.save()
        }
        let steps = try stepFiles()
        #expect(steps.count == 2)
        let stored = try steps.map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as! Int }.reduce(0, +)
        #expect(stored < 2_000, "two small edits of a \(size)-byte document keep \(stored) bytes")

        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        #expect(editor.canUndo)
        #expect(try editor.undo())
        #expect(try editor.undo())
        #expect(try !editor.undo())
        try editor.save()
        #expect(try DocumentRegistry.standard.open(url).document as? Drawing == bigDrawing(shapes: 6000))
        #expect(try editor.redo())
        try editor.save()
        #expect((try DocumentRegistry.standard.open(url).document as? Drawing)?.background == .black)
    }

    /// A small drawing `name`, its background set once and saved: its history holds one step.
    func drawingEditedOnce(_ name: String) throws -> URL {
        let url = folder.file(name)
        try DocumentRegistry.standard.save(Drawing(canvasSize: Size(width: 10, height: 10)), to: url)
        do {
            var editor = try DocumentEditor(opening: url, stateFolder: state.url)
            try editor.perform { try $0.setBackground(.black) }
            try editor.save()
        }
        return url
    }

    /// A state folder that is not this user's alone (made first by someone else in a shared
    /// `/state`, or one others may write in) is never used: an editor refuses it, saying what
    /// to do, and a read-only look ignores the history in it (which could otherwise put their
    /// content in the document through undo).
    @Test func aStateFolderThatIsNotTheUsersAloneIsNotUsed() throws {
        let url = try drawingEditedOnce("a.drawing")
        #expect(try DocumentEditor(opening: url, locking: false, stateFolder: state.url).canUndo)
        for (mode, owner) in [(0o777, geteuid()), (0o700, geteuid() &+ 1234)] as [(mode_t, uid_t)] {
            #expect(chmod(state.url.path, mode) == 0 && chown(state.url.path, owner, getegid()) == 0)
            #expect {
                _ = try DocumentEditor(opening: url, stateFolder: state.url)
            } throws: { error in
                "\(error)".contains("belongs to another user or others may write in it") && "\(error)".contains("XDG_STATE_HOME")
            }
            #expect(try !DocumentEditor(opening: url, locking: false, stateFolder: state.url).canUndo, "its history is not read")
        }
        #expect(chmod(state.url.path, 0o700) == 0 && chown(state.url.path, geteuid(), getegid()) == 0)
        #expect(try DocumentEditor(opening: url, stateFolder: state.url).canUndo, "the user's own again")
    }

    /// A history naming more bytes than a history may hold (a step named again and again) is
    /// reset, not read into memory.
    @Test func aHistoryHoldingMoreThanAHistoryMayIsResetUnread() throws {
        let url = try drawingEditedOnce("h.drawing")
        let index = try #require(
            FileManager.default.enumerator(at: state.url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                .first { $0.lastPathComponent == "index.json" })
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: Any])
        let step = try #require((root["undo"] as? [String])?.first)
        root["undo"] = [step, step]
        try JSONSerialization.data(withJSONObject: root).write(to: index)
        let editor = try DocumentEditor(opening: url, locking: false, stateFolder: state.url)
        #expect(!editor.canUndo)
        #expect(editor.historyNote?.contains("named twice") == true, "\(editor.historyNote ?? "")")
    }

    /// A card as the app writes one (compact, its own key order, a long double, "none" for
    /// no image, the edition-1 `frame`): not the bytes Easel's encoder would make.
    static let appCard = Array(
        #"{"textElements":[],"id":"1A2B3C4D-0000-4000-8000-0000000000AA","imageElements":[{"imageFilename":"none","transform":{"rotation":{"degrees":-6.0000000000000009},"offset":[10,20],"size":[300,200]},"frame":6}],"backgroundColor":[0.5,0.25,1,1]}"#
            .utf8)

    /// The app's card written to the scratch folder, its element moved once and saved, as a
    /// command does (the history then holds one step).
    func appCardMovedOnce() throws -> (card: URL, editor: DocumentEditor) {
        let card = folder.file("app.rwcard")
        try Data(Self.appCard).write(to: card)
        var editor = try DocumentEditor(opening: card, stateFolder: state.url)
        try editor.perform { try $0.move(0, by: Point(x: 10, y: -5)) }
        try editor.save()
        return (card, editor)
    }

    @Test func aDamagedStepIsBlamedOnTheHistoryAndChangesNothing() throws {
        let card: URL
        do {  // the editor (and its lock) goes at the end of the scope, as a command's does
            let opened = try appCardMovedOnce()
            var moved = opened.editor
            #expect(try moved.undo())
            try moved.save()
            card = opened.card
        }
        // The redo step still applies, but what it makes is no JSON: its new bytes all "{".
        for step in try stepFiles() {
            var bytes = try [UInt8](Data(contentsOf: step))
            // The stored form: "EASELPATCH1\n", the offset and the count removed (8 bytes
            // each), then the replacement.
            let replacement = "EASELPATCH1\n".utf8.count + 16
            #expect(bytes.count > replacement)
            for index in replacement..<bytes.count { bytes[index] = UInt8(ascii: "{") }
            try Data(bytes).write(to: step)
        }
        let before = try [UInt8](Data(contentsOf: card))
        do {
            var editor = try DocumentEditor(opening: card, stateFolder: state.url)
            #expect {
                _ = try editor.redo()
            } throws: { error in
                "\(error)".contains("the undo history is damaged: the step to redo does not make a valid document")
                    && "\(error)".contains("the redo steps from there on (1) were dropped from the history")
            }
            #expect(try [UInt8](Data(contentsOf: card)) == before, "the document is unchanged")
            // The damaged step is dropped, and that is kept: redo does not fail on it again,
            // in this editor or the next, and new edits go on with their history.
            #expect(try editor.redo() == false)
        }
        var next = try DocumentEditor(opening: card, stateFolder: state.url)
        #expect(try next.redo() == false, "nothing left to redo")
        try next.perform { try $0.move(0, by: Point(x: 1, y: 1)) }
        try next.save()
        #expect(try next.undo())
        try next.save()
        #expect(try [UInt8](Data(contentsOf: card)) == before, "undo works again after the damaged step")
    }

    @Test func undoingToTheFileAsOpenedWritesItsBytesBack() throws {
        // Across processes: each command opens, edits or undoes, and saves.
        let card = try appCardMovedOnce().card
        #expect(try [UInt8](Data(contentsOf: card)) != Self.appCard, "the edit was saved")
        do {
            var editor = try DocumentEditor(opening: card, stateFolder: state.url)
            #expect(try editor.undo())
            try editor.save()
        }
        #expect(try [UInt8](Data(contentsOf: card)) == Self.appCard, "undo gives the app's file back, byte for byte")
        // Redo and undo again, and within one session: the same bytes every time.
        var editor = try DocumentEditor(opening: card, stateFolder: state.url)
        #expect(try editor.redo())
        try editor.save()
        #expect(try editor.undo())
        try editor.perform { try $0.move(0, by: Point(x: 1, y: 1)) }
        #expect(try editor.undo())
        try editor.save()
        #expect(try [UInt8](Data(contentsOf: card)) == Self.appCard)
        // The same for a drawing package's JSON, beside its other files.
        let package = folder.file("p.drawing")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        let json = Array(#"{"version":1,"graphics":[],  "canvas":{"size":[40,30],"background":[1,1,1,1]}}"#.utf8)
        try Data(json).write(to: package.appendingPathComponent(Drawing.packageDocumentName))
        var drawing = try DocumentEditor(opening: package, stateFolder: state.url)
        try drawing.perform { try $0.setBackground(.black) }
        try drawing.save()
        #expect(try drawing.undo())
        try drawing.save()
        #expect(try [UInt8](Data(contentsOf: package.appendingPathComponent(Drawing.packageDocumentName))) == json)
    }

    @Test func anImageThatIsThereButDoesNotDrawIsNotOK() throws {
        let image = try RasterImage(width: 4, height: 4)
        try folder.write(try PNGEncoder.encode(image), to: "0B5E1D2C-0000-4000-8000-0000000000D1")
        var broken = try PNGEncoder.encode(image)
        broken.replaceSubrange((broken.count - 20)..<(broken.count - 12), with: [UInt8](repeating: 0xAB, count: 8))
        try folder.write(broken, to: "0B5E1D2C-0000-4000-8000-0000000000D2")
        let card = Card(
            backgroundColor: .white,
            imageElements: ["0B5E1D2C-0000-4000-8000-0000000000D1", "0B5E1D2C-0000-4000-8000-0000000000D2"].map {
                ImageElement(transform: ElementTransform(size: Size(width: 100, height: 100)), imageFilename: $0)
            })
        let url = folder.file("c.rwcard")
        try DocumentRegistry.standard.save(card, to: url)
        let description = try DocumentEditor(opening: url, locking: false, stateFolder: state.url).description
        #expect(description.elements.map { $0.imageStatus?.prefix(8) } == ["ok", "warning:"], "\(description.elements)")
        #expect(description.elements[1].imageStatus?.contains("0B5E1D2C-0000-4000-8000-0000000000D2") == true)
    }

    @Test func nothingIsWrittenBesideTheDocument() throws {
        let url = folder.file("d.drawing")
        var editor = try DocumentEditor.create(Drawing(), at: url, stateFolder: state.url)
        _ = try editor.add(ElementRequest(kind: "star", documentName: "d.drawing"))
        try editor.save()
        // The folder's lock file (empty, hidden, no ".rwcard" in its name) and nothing else.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".easel.lock", "d.drawing"])
        #expect(try Data(contentsOf: folder.file(".easel.lock")).isEmpty)
    }

    @Test func aSaveEaselCouldNotOpenAgainIsRefusedAndNothingChanges() throws {
        // A type whose files Easel opens up to 300 bytes: an edit that would save more is
        // refused before anything is written, as a card growing past 16 MiB would be.
        var registry = DocumentRegistry.standard
        registry.register(Tally.self)
        let url = folder.file("t.tally")
        try registry.save(Tally(marks: 150), to: url)
        let before = try Data(contentsOf: url)
        var editor = try DocumentEditor(opening: url, registry: registry, stateFolder: state.url)
        try editor.perform { try $0.setBackground(nil) }  // 300 marks: just within the limit
        try editor.save()
        #expect(try Data(contentsOf: url).count == 300)
        try editor.perform { _ = try $0.add(ElementRequest(kind: "mark", documentName: "t.tally"), resourceFolder: folder.url) }
        #expect { try editor.save() } throws: { error in
            "\(error)"
                == "\(url.path): saving would write a file of 301 bytes, over the 300 bytes Easel opens; nothing was saved (remove elements or shorten texts to make it smaller)"
        }
        #expect(try Data(contentsOf: url).count == 300, "a refused save writes nothing")
        #expect(try editor.undo())
        try editor.save()
        #expect(try Data(contentsOf: url).count == 300)
        #expect(throws: DocumentError.self) { try registry.save(Tally(marks: 301), to: url) }
        #expect(try Data(contentsOf: url).count == 300)
        _ = before
    }

    @Test func aHistoryThatCannotBeCommittedPutsTheDocumentBack() throws {
        let url = folder.file("d.drawing")
        _ = try DocumentEditor.create(Drawing(), at: url, stateFolder: state.url)
        let before = try Data(contentsOf: url)
        // The document is renamed into place first, then the index rename fails, and the
        // document must be put back.
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        try blockHistoryIndex(inStateFolder: state.url)
        _ = try editor.add(ElementRequest(kind: "star", documentName: "d.drawing"))
        #expect { try editor.save() } throws: { error in
            "\(error)".contains("nothing was saved: the document and its undo history are as they were")
        }
        #expect(try Data(contentsOf: url) == before, "the document is as it was")
        #expect(try stepFiles().isEmpty, "no step of the failed save is left")
    }
}

/// A document of `marks` dashes, opened up to 300 bytes: the smallest type with a file limit.
struct Tally: EditableDocument {
    static var readableContentTypes: [ContentType] {
        [ContentType(identifier: "org.example.tally", preferredFilenameExtension: "tally")]
    }
    static var maxFileBytes: Int { 300 }
    static var kindName: String { "tally" }
    var marks: Int

    init(marks: Int) { self.marks = marks }

    init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        marks = try configuration.regularFileBytes().count
    }

    func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        .regularFile(Array(repeating: UInt8(ascii: "-"), count: marks))
    }

    var canvas: Size { Size(width: Double(max(1, marks)), height: 1) }
    var background: Color? { nil }
    var elementCount: Int { marks }
    func historyBytes(file: String) throws(DocumentError) -> [UInt8] { Array(repeating: UInt8(ascii: "-"), count: marks) }
    static func fromHistoryBytes(_ bytes: [UInt8], file: String) throws(DocumentError) -> Tally { Tally(marks: bytes.count) }

    mutating func add(_ request: ElementRequest, resourceFolder: URL) throws -> AddedElement {
        marks += 1
        return AddedElement(index: marks - 1, kind: "mark")
    }

    mutating func apply(_ changes: ElementChanges, at index: Int) throws(EditError) {}
    func center(of index: Int) throws(EditError) -> Point { Point(x: Double(index), y: 0) }
    mutating func remove(_ index: Int) throws(EditError) { marks -= 1 }
    mutating func reorder(_ index: Int, _ direction: OrderDirection) throws(EditError) -> Int { index }
    /// Clearing the background doubles the marks (an edit that grows the file).
    mutating func setBackground(_ color: Color?) throws(EditError) { marks *= 2 }
    func elementDescriptions(resourceFolder: URL) -> [ElementDescription] { [] }
}
