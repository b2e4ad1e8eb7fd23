import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// A line's arrowheads and a path's outline are properties of the table: set like every
/// other, refused where they do not apply, and kept in the drawing format (arrowheads only
/// when there are some, so a file without arrows is written as it always was).
@Suite("Arrowheads and outlines through the property table")
struct ArrowheadAndOutlineTests {
    let folder = TemporaryFolder()

    @Test func arrowheadsAreKeptInTheFormatOnlyWhenThereAreSome() throws {
        var drawing = Drawing()
        _ = try drawing.add(
            ElementRequest(kind: "line", style: try Self.changes(["arrowheads": "both"]), documentName: "d"),
            resourceFolder: folder.url)
        let bytes = DrawingEncoder.encode(drawing)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"arrowheads\" : \"both\""))
        var warnings: [DocumentWarning] = []
        #expect(try Drawing(decoding: bytes, file: "d", warnings: &warnings) == drawing)
        let plain = String(
            decoding: DrawingEncoder.encode(
                Drawing(graphics: [
                    Graphic(
                        kind: .line(from: .zero, to: Point(x: 1, y: 1)),
                        transform: GraphicTransform(center: .zero, size: Size(width: 1, height: 1)), stroke: Stroke())
                ])),
            as: UTF8.self)
        #expect(!plain.contains("arrowheads"), "a file without arrows is written as it always was")
    }

    @Test func aPathsOutlineIsSetThroughTheTable() throws {
        var drawing = Drawing()
        let added = try drawing.add(
            ElementRequest(kind: "path", value: "M 0 0 L 1 0 L 1 1 Z", documentName: "d"), resourceFolder: folder.url)
        try drawing.apply(try Self.changes(["path": "M 0 1 L 0.5 0 L 1 1 Z"]), at: added.index)
        #expect(ElementProperty.outline.value(of: drawing.graphics[0]) == .text("M 0 1 L 0.5 0 L 1 1 Z"))
        #expect(throws: EditError.self) { try drawing.apply(try Self.changes(["path": "Q nonsense"]), at: added.index) }
        #expect(throws: EditError.self) { try drawing.apply(try Self.changes(["arrowheads": "both"]), at: added.index) }
    }

    static func changes(_ values: KeyValuePairs<String, String>) throws -> ElementChanges {
        var changes = ElementChanges()
        for (key, text) in values {
            let property = try #require(ElementProperty.named(key))
            changes[property] = try property.value(fromText: text)
        }
        return changes
    }
}
