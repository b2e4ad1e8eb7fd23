// A document type of your own: read and write it (FileDocument), say how it draws
// (RenderableDocument), register it, and every path renders it: open, export, batch export,
// golden suites.
import EaselDocuments
import EaselGeometry
import EaselRender
import Foundation

/// A `.tally` file: `{"marks": 3, "color": "#E63946"}` draws three dots in a row.
struct Tally: RenderableDocument {
    static let contentType = ContentType(identifier: "org.example.tally", preferredFilenameExtension: "tally")
    static var readableContentTypes: [ContentType] { [contentType] }

    var marks: Int
    var color: Color

    private struct Stored: Codable {
        var marks: Int
        var color: String
    }

    init(marks: Int, color: Color) {
        (self.marks, self.color) = (marks, color)
    }

    init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        let bytes = try configuration.regularFileBytes()
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(bytes)), (0...100).contains(stored.marks) else {
            throw DocumentError(file: configuration.displayName, kind: .invalidValue("not a tally"))
        }
        do { color = try Color(hex: stored.color) } catch {
            throw DocumentError(file: configuration.displayName, keyPath: "color", kind: .invalidValue(error.description))
        }
        marks = stored.marks
    }

    func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        .regularFile(Array((try? JSONEncoder().encode(Stored(marks: marks, color: color.hex))) ?? Data()))
    }

    func scene(in context: LoweringContext) -> Scene {
        var scene = Scene(canvasSize: Size(width: Double(max(marks, 1)) * 40, height: 40))
        for mark in 0..<marks {
            var dot = Path()
            dot.addEllipse(in: Rect(center: Point(x: Double(mark) * 40 + 20, y: 20), size: Size(width: 30, height: 30)))
            scene.operations.append(.fill(dot, color))
        }
        return scene
    }
}

var registry = DocumentRegistry.standard  // cards and drawings
registry.register(Tally.self)  // and now tallies
let url = URL(fileURLWithPath: "three.tally")
try registry.save(Tally(marks: 3, color: Color(rgb: 0xE63946)), to: url)
let rendered = try DocumentRenderer.render(try registry.open(url), options: RenderOptions())
try rendered.image.writePNG(to: "three.png")  // 120x40
