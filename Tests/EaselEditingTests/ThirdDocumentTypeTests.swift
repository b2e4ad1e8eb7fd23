import EaselBatch
import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// A document type Easel has never heard of, defined here the way a library user would:
/// a 100x100 badge with a background colour, an optional photo on its right half, and black
/// dots. Registering it must be all it takes for every path — open, render, batch export
/// with its up-to-date rule, edit with undo — to handle it like a card or a drawing.
struct Badge: RenderableDocument, EditableDocument {
    static let contentType = ContentType(identifier: "org.example.badge", preferredFilenameExtension: "badge")
    static var readableContentTypes: [ContentType] { [contentType] }
    static var kindName: String { "badge" }
    static let dotSize = 10.0

    var color: Color
    var photo: String?
    var dots: [Point]

    init(color: Color, photo: String? = nil, dots: [Point] = []) {
        self.color = color
        self.photo = photo
        self.dots = dots
    }

    // MARK: FileDocument

    private struct Stored: Codable {
        var color: String
        var photo: String?
        var dots: [[Double]]
    }

    init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        let bytes = try configuration.regularFileBytes()
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(bytes)), let color = try? Color(hex: stored.color)
        else {
            throw DocumentError(file: configuration.displayName, kind: .invalidValue("not a badge"))
        }
        self.init(color: color, photo: stored.photo, dots: stored.dots.map { Point(x: $0[0], y: $0[1]) })
    }

    func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        let stored = Stored(color: color.hex, photo: photo, dots: dots.map { [$0.x, $0.y] })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .regularFile(Array((try? encoder.encode(stored)) ?? Data()))
    }

    var referencedFileNames: [String] { photo.map { [$0] } ?? [] }

    // MARK: RenderableDocument

    func scene(in context: LoweringContext) -> Scene {
        var scene = Scene(canvasSize: canvas)
        var background = Path()
        background.addRect(Rect(origin: .zero, size: canvas))
        scene.operations.append(.fill(background, context.background ?? color))
        if let photo {
            switch context.images.image(named: photo, inFolder: context.resourceFolder) {
            case .loaded(let pixels, let source):
                // The photo stretched over the right half.
                let transform = Transform2D.scale(x: 50 / Double(pixels.width), y: 100 / Double(pixels.height))
                    .concatenating(.translation(x: 50, y: 0))
                scene.operations.append(
                    .image(SceneImage(name: photo, pixels: pixels, source: source), transform: transform, clip: nil))
            case .failed(let reason):
                scene.warnings.append(DocumentWarning(file: context.file, keyPath: "photo", message: reason))
            }
        }
        for dot in dots {
            var path = Path()
            path.addEllipse(in: Rect(center: dot, size: Size(width: Self.dotSize, height: Self.dotSize)))
            scene.operations.append(.fill(path, .black))
        }
        return scene
    }

    // MARK: EditableDocument

    var canvas: Size { Size(width: 100, height: 100) }
    var background: Color? { color }
    var elementCount: Int { dots.count }

    func historyBytes(file: String) throws(DocumentError) -> [UInt8] {
        try fileWrapper(configuration: WriteConfiguration(contentType: Self.contentType, fileURL: URL(fileURLWithPath: file)))
            .regularFileContents ?? []
    }

    static func fromHistoryBytes(_ bytes: [UInt8], file: String) throws(DocumentError) -> Badge {
        var warnings: [DocumentWarning] = []
        return try Badge(
            configuration: ReadConfiguration(
                contentType: contentType, file: .regularFile(bytes), fileURL: URL(fileURLWithPath: file)),
            warnings: &warnings)
    }

    mutating func add(_ request: ElementRequest, resourceFolder: URL) throws -> AddedElement {
        guard request.kind == "dot" else { throw EditError("a badge holds only dots", isInvalidRequest: true) }
        dots.append(request.style.center ?? Point(x: 50, y: 50))
        return AddedElement(index: dots.count - 1, kind: "dot")
    }

    private func check(_ index: Int) throws(EditError) {
        guard dots.indices.contains(index) else { throw .indexOutOfRange(index, count: dots.count, kind: "badge") }
    }

    mutating func apply(_ changes: ElementChanges, at index: Int) throws(EditError) {
        try check(index)
        if let center = changes.center { dots[index] = center }
    }

    func center(of index: Int) throws(EditError) -> Point {
        try check(index)
        return dots[index]
    }

    mutating func remove(_ index: Int) throws(EditError) {
        try check(index)
        dots.remove(at: index)
    }

    mutating func reorder(_ index: Int, _ direction: OrderDirection) throws(EditError) -> Int {
        try check(index)
        return direction.move(&dots, from: index)
    }

    mutating func setBackground(_ color: Color?) throws(EditError) {
        guard let color else { throw EditError("a badge always has a colour") }
        self.color = color
    }

    func elementDescriptions(resourceFolder: URL) -> [ElementDescription] {
        dots.enumerated().map { index, dot in
            ElementDescription(index: index, kind: "dot", center: dot, size: Size(width: Self.dotSize, height: Self.dotSize))
        }
    }
}

/// A type that only reads and writes: registered, but neither renderable nor editable.
struct Memo: FileDocument, Equatable {
    static var readableContentTypes: [ContentType] {
        [ContentType(identifier: "org.example.memo", preferredFilenameExtension: "memo")]
    }
    var text: String

    init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        text = String(decoding: try configuration.regularFileBytes(), as: UTF8.self)
    }

    func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper { .regularFile(Array(text.utf8)) }
}

@Suite("A third document type")
struct ThirdDocumentTypeTests {
    let folder = TemporaryFolder()
    let state = TemporaryFolder("easel-state")
    let registry: DocumentRegistry = {
        var registry = DocumentRegistry.standard
        registry.register(Badge.self)
        registry.register(Memo.self)
        return registry
    }()
    static let teal = Color(rgb: 0x008080)

    /// A solid PNG of `color`.
    static func solidPNG(_ color: Color, width: Int = 20, height: Int = 40) throws -> [UInt8] {
        let image = try RasterImage(width: width, height: height)
        let context = try CairoContext(image: image)
        try context.setSource(color)
        try context.paint()
        return try PNGEncoder.encode(image)
    }

    func writeBadge(_ badge: Badge, named name: String = "a.badge") throws -> URL {
        let located = try registry.locate(badge, at: folder.file(name))
        try registry.save(located)
        return located.url
    }

    @Test func itOpensWithItsLocation() throws {
        let url = try writeBadge(Badge(color: Self.teal, photo: "photo.png", dots: [Point(x: 20, y: 20)]))
        let located = try registry.open(url)
        #expect(located.document is Badge)
        #expect(located.contentType == Badge.contentType)
        #expect(located.resourceFolder == folder.url)
        #expect(located.referencedFiles == [ReferencedFile(name: "photo.png", path: folder.file("photo.png").path)])
    }

    @Test func itRendersThroughTheSameRenderer() throws {
        try folder.write(try Self.solidPNG(.white), to: "photo.png")
        let url = try writeBadge(Badge(color: Self.teal, photo: "photo.png", dots: [Point(x: 20, y: 20)]))
        let rendered = try DocumentRenderer.render(try registry.open(url), options: RenderOptions(size: .scale(1)))
        #expect(rendered.image.width == 100 && rendered.image.height == 100)
        #expect(rendered.image.pixel(x: 40, y: 80) == RGBA8(r: 0, g: 128, b: 128, a: 255), "the badge's colour on the left")
        #expect(rendered.image.pixel(x: 80, y: 80) == RGBA8(r: 255, g: 255, b: 255, a: 255), "the photo on the right")
        #expect(rendered.image.pixel(x: 20, y: 20) == RGBA8(r: 0, g: 0, b: 0, a: 255), "a dot")
        #expect(rendered.warnings.isEmpty)
        let svg = try DocumentRenderer.export(try registry.open(url), options: RenderOptions(format: .svg))
        #expect(String(decoding: svg.bytes, as: UTF8.self).contains("<svg"))
    }

    @Test func aMissingPhotoIsAWarningNamingTheFile() throws {
        let url = try writeBadge(Badge(color: Self.teal, photo: "gone.png"))
        let rendered = try DocumentRenderer.render(try registry.open(url))
        #expect(
            rendered.warnings.map(\.description) == [
                "\(url.path): photo: the image file \"gone.png\" is missing from \(folder.path)"
            ])
    }

    @Test func itBatchExportsAndIsRedoneWhenItsPhotoChanges() throws {
        try folder.write(try Self.solidPNG(.white), to: "docs/photo.png")
        let url = folder.file("docs/a.badge")
        try registry.save(try registry.locate(Badge(color: Self.teal, photo: "photo.png"), at: url))
        let out = folder.file("out")
        let exporter = try BatchExporter(
            inputs: [folder.file("docs")], outputFolder: out,
            options: BatchExportOptions(render: RenderOptions(size: .scale(1)), jobs: 1), registry: registry)
        let items = exporter.plan()
        #expect(items.map(\.output) == ["a.png"])

        let first = exporter.run(items)
        #expect(first.entries.map(\.status) == [.rendered], "\(first.entries.map { $0.error ?? "" })")
        let png = try PNGDecoder.decode(Array(try Data(contentsOf: out.appendingPathComponent("a.png"))))
        #expect(png.pixel(x: 80, y: 50) == RGBA8(r: 255, g: 255, b: 255, a: 255))

        #expect(exporter.run(exporter.plan()).entries.map(\.status) == [.skipped], "nothing changed")

        // The referenced file changes (size and modification time): the output is redone.
        try folder.write(try Self.solidPNG(Color(red: 1, green: 0, blue: 0), width: 30), to: "docs/photo.png")
        #expect(exporter.run(exporter.plan()).entries.map(\.status) == [.rendered], "the photo changed")
        let redone = try PNGDecoder.decode(Array(try Data(contentsOf: out.appendingPathComponent("a.png"))))
        #expect(redone.pixel(x: 80, y: 50) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(exporter.run(exporter.plan()).entries.map(\.status) == [.skipped])
    }

    @Test func itIsEditedWithUndoThroughTheSameEditor() throws {
        let url = try writeBadge(Badge(color: Self.teal, dots: [Point(x: 20, y: 20)]))
        do {  // an editor holds the document's lock until it is released
            var editor = try DocumentEditor(opening: url, registry: registry, stateFolder: state.url)
            var request = ElementRequest(kind: "dot", documentName: "a.badge")
            request.style.center = Point(x: 70, y: 30)
            #expect(try editor.add(request) == AddedElement(index: 1, kind: "dot"))
            try editor.perform { try $0.move(0, by: Point(x: 5, y: 5)) }
            try editor.save()
            #expect(
                try registry.open(url).document as? Badge
                    == Badge(color: Self.teal, dots: [Point(x: 25, y: 25), Point(x: 70, y: 30)]))
            #expect(editor.description.type == "badge")
            #expect(editor.description.elements.map(\.center) == [Point(x: 25, y: 25), Point(x: 70, y: 30)])
        }

        // Undo works across invocations: a new editor reads the history beside the file.
        var again = try DocumentEditor(opening: url, registry: registry, stateFolder: state.url)
        #expect(try again.undo())
        try again.save()
        #expect(
            try registry.open(url).document as? Badge
                == Badge(color: Self.teal, dots: [Point(x: 20, y: 20), Point(x: 70, y: 30)]))

        #expect { _ = try again.add(ElementRequest(kind: "star", documentName: "a.badge")) } throws: { error in
            (error as? EditError)?.isInvalidRequest == true
        }
    }

    @Test func aTypeThatCannotRenderOrEditSaysSoAndNamesTheFile() throws {
        let url = try folder.write("hello", to: "note.memo")
        let located = try registry.open(url)
        #expect((located.document as? Memo)?.text == "hello")
        #expect { try DocumentRenderer.render(located) } throws: { error in
            guard case RenderError.unsupportedDocument(let file, let type) = error else { return false }
            return file == url.path && type == "Memo" && "\(error)".hasPrefix(url.path)
        }
        #expect { try DocumentEditor(opening: url, registry: registry, stateFolder: state.url) } throws: { error in
            "\(error)" == "\(url.path): easel cannot edit a Memo document"
        }
    }
}
