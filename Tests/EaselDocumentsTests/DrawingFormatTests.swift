import Testing
import Foundation
import EaselGeometry
@testable import EaselDocuments
import EaselTestSupport

@Suite("Drawing format")
struct DrawingFormatTests {
    static func frame(_ x: Double, _ y: Double, _ w: Double = 100, _ h: Double = 80, rotation: Double = 0) -> GraphicTransform {
        GraphicTransform(center: Point(x: x, y: y), size: Size(width: w, height: h), rotationDegrees: rotation)
    }

    /// One graphic of every kind, with every style property used somewhere.
    static var everyKind: [Graphic] {
        var wave = Path()
        wave.move(to: Point(x: 0, y: 0.5))
        wave.addQuadCurve(to: Point(x: 0.5, y: 0.5), control: Point(x: 0.25, y: 0))
        wave.addCurve(to: Point(x: 1, y: 0.5), control1: Point(x: 0.6, y: 1), control2: Point(x: 0.9, y: 1))
        wave.addLine(to: Point(x: 1, y: 1))
        wave.closeSubpath()
        var clip = Path()
        clip.addPolygon([Point(x: 0.5, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        let kinds: [GraphicKind] =
            [
                .rectangle, .roundedRectangle(cornerRadius: 12.5), .ellipse, .polygon(sides: 7),
                .star(points: 5, innerRadiusRatio: 0.38),
                .line(from: Point(x: 0, y: 0), to: Point(x: 1, y: 1)), .path(wave),
                .text(TextContent(string: "Héllo, 世界 ✓", fontFamily: "Liberation Serif", fontSize: 36, alignment: .right)),
                .image(file: "photo.png"),
            ] + LibraryShape.allCases.map(GraphicKind.shape)
        var graphics = kinds.enumerated().map { index, kind in
            Graphic(
                kind: kind, transform: frame(Double(index) * 10, 20, rotation: Double(index) * 7.5),
                fill: index % 3 == 0 ? nil : Color(red: 0.1, green: 0.2, blue: Double(index) / 20, alpha: 0.9),
                stroke: index % 2 == 0 ? Stroke(color: .black, width: 2.5, dash: [6, 3], cap: .round, join: .bevel) : nil,
                opacity: index % 4 == 0 ? 0.5 : 1,
                clip: index == 3 ? .library(.heart) : (index == 5 ? .custom(clip) : nil),
                name: index == 0 ? "first" : nil)
        }
        graphics.append(
            Graphic(
                kind: .group([
                    Graphic(kind: .ellipse, transform: frame(10, 10), fill: .black),
                    Graphic(
                        kind: .group([Graphic(kind: .rectangle, transform: frame(5, 5, 10, 10), fill: .white)]),
                        transform: frame(50, 40)),
                ]), transform: frame(400, 300, 200, 150, rotation: -30), opacity: 0.75, clip: .library(.circle)))
        return graphics
    }

    @Test func everyGraphicKindRoundTrips() throws {
        let drawing = Drawing(
            canvasSize: Size(width: 640, height: 480), background: Color(red: 1, green: 0.5, blue: 0, alpha: 1),
            graphics: Self.everyKind)
        let bytes = DrawingEncoder.encode(drawing)
        var warnings: [DocumentWarning] = []
        let decoded = try Drawing(decoding: bytes, file: "d.drawing", warnings: &warnings)
        #expect(decoded == drawing)
        #expect(warnings.isEmpty)
        #expect(DrawingEncoder.encode(decoded) == bytes)
        let transparent = Drawing(canvasSize: Size(width: 10, height: 10), background: nil, graphics: [])
        #expect(try Drawing(decoding: DrawingEncoder.encode(transparent), file: "t", warnings: &warnings) == transparent)
    }

    @Test func libraryShapeKindsAreCanonical() throws {
        #expect(GraphicKind.shape(.rectangle) == .rectangle)
        #expect(GraphicKind.shape(.roundedRectangle) == .roundedRectangle(cornerRadius: 25))
        #expect(GraphicKind.shape(.cloud) == .libraryShape(.cloud))
        let drawing = Drawing(graphics: [Graphic(kind: .libraryShape(.roundedRectangle), transform: Self.frame(1, 1))])
        var warnings: [DocumentWarning] = []
        let decoded = try Drawing(decoding: DrawingEncoder.encode(drawing), file: "d", warnings: &warnings)
        #expect(decoded.graphics[0].kind == .roundedRectangle(cornerRadius: 25))
    }

    @Test func hexColoursAndDefaultsAreAccepted() throws {
        var warnings: [DocumentWarning] = []
        let drawing = try Drawing(
            decoding:
                Array(
                    """
                    {"version": 1, "canvas": {"size": [100, 100], "background": "#FF8000"},
                     "graphics": [{"kind": "star", "points": 6, "transform": {"center": [50, 50], "size": [80, 80]},
                                   "fill": "#00000080", "stroke": {"color": [0, 0, 1]}}]}
                    """.utf8), file: "d.drawing", warnings: &warnings)
        #expect(drawing.background == Color(red: 1, green: 128.0 / 255, blue: 0, alpha: 1))
        let star = drawing.graphics[0]
        #expect(star.kind == .star(points: 6, innerRadiusRatio: 0.5))
        #expect(star.fill == Color(red: 0, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(star.stroke == Stroke(color: Color(red: 0, green: 0, blue: 1), width: 1))
        #expect(star.transform.rotationDegrees == 0 && star.opacity == 1)
    }

    func drawingError(_ graphics: String, version: String = "1") -> String {
        var warnings: [DocumentWarning] = []
        do {
            _ = try Drawing(
                decoding:
                    Array(#"{"version": \#(version), "canvas": {"size": [100, 100]}, "graphics": \#(graphics)}"#.utf8),
                file: "d.drawing", warnings: &warnings)
            return "no error"
        } catch { return error.description }
    }

    let t = #""transform": {"center": [0, 0], "size": [10, 10]}"#

    @Test func errorsNameTheKeyPath() {
        #expect(
            drawingError(#"[{"kind": "blob", \#(t)}]"#).hasPrefix(
                "d.drawing: graphics[0].kind: unknown graphic kind \"blob\"; expected one of rectangle, roundedRectangle, ellipse"
            ))
        #expect(
            drawingError(##"[{"kind": "group", \##(t), "children": [{"kind": "rectangle", \##(t), "fill": "#12345"}]}]"##)
                == "d.drawing: graphics[0].children[0].fill: expected a colour as \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a], found the string \"#12345\""
        )
        #expect(
            drawingError(#"[{"kind": "polygon", "sides": 2, \#(t)}]"#)
                == "d.drawing: graphics[0].sides: a polygon's sides must be from 3 to 1000, found 2")
        #expect(
            drawingError(#"[{"kind": "rectangle", "transform": {"center": [0, 0], "size": [-1, 10]}}]"#)
                == "d.drawing: graphics[0].transform.size: a size cannot be negative, found -1x10")
        #expect(
            drawingError(#"[{"kind": "rectangle", \#(t), "opacity": 2}]"#)
                == "d.drawing: graphics[0].opacity: the opacity must be between 0 and 1, found 2")
        #expect(
            drawingError(#"[{"kind": "rectangle", \#(t), "stroke": {"cap": "pointy"}}]"#)
                == "d.drawing: graphics[0].stroke.cap: \"pointy\" is not a line cap; expected one of butt, round, square")
        #expect(
            drawingError(#"[{"kind": "path", \#(t), "elements": [["line", 0, 0]]}]"#)
                == "d.drawing: graphics[0].elements: a path must start with a \"move\" element")
        #expect(
            drawingError(#"[{"kind": "path", \#(t), "elements": [["move", 0]]}]"#)
                == "d.drawing: graphics[0].elements[0]: expected [\"move\", number, number], found an array of 2 items")
        #expect(drawingError(#"[{"kind": "rectangle", \#(t), "clip": "triangle"}]"#).contains("unknown clip shape \"triangle\""))
    }

    @Test func versionsNewerThanThisEaselAreRefused() {
        #expect(
            drawingError("[]", version: "2")
                == "d.drawing: version: the drawing was written by a newer Easel (format version 2); this Easel reads versions up to 1"
        )
        #expect(drawingError("[]", version: "0") == "d.drawing: version: version 0 does not exist; drawings start at version 1")
        var warnings: [DocumentWarning] = []
        #expect(throws: DocumentError(file: "d", kind: .missingKey("version"))) {
            try Drawing(
                decoding:
                    Array(#"{"canvas": {"size": [1, 1]}, "graphics": []}"#.utf8), file: "d", warnings: &warnings)
        }
    }

    @Test func groupNestingAndGraphicCountAreLimited() {
        var nested = #"{"kind": "rectangle", \#(t)}"#
        for _ in 0...DrawingLimits.maxGroupDepth { nested = #"{"kind": "group", \#(t), "children": [\#(nested)]}"# }
        #expect(drawingError("[\(nested)]").contains("groups nested deeper than 16 levels"))
    }

    @Test func aPackageFolderDrawingKeepsItsImagesWhenSaved() throws {
        let folder = TemporaryFolder()
        let package = folder.file("art.drawing")
        let drawing = Drawing(graphics: [Graphic(kind: .image(file: "photo.png"), transform: Self.frame(50, 50))])
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try folder.write(DrawingEncoder.encode(drawing), to: "art.drawing/drawing.json")
        try folder.write("png bytes", to: "art.drawing/photo.png")
        let located = try DocumentRegistry.standard.open(package)
        var opened = located.document as! Drawing
        #expect(opened == drawing)
        #expect(located.resourceFolder == package, "a package's images resolve inside it")
        #expect(located.contentFile == package.appendingPathComponent("drawing.json"))
        opened.background = .black
        try DocumentRegistry.standard.save(opened, to: package)
        #expect(try DocumentRegistry.standard.open(package).document as? Drawing == opened)
        #expect(try String(contentsOf: package.appendingPathComponent("photo.png"), encoding: .utf8) == "png bytes")
    }
}

@Suite("Drawing format documentation")
struct DrawingDocumentationTests {
    /// The full example in docs/drawing-format.md must be a valid drawing with one graphic
    /// of every documented kind, so the documentation cannot drift from the code.
    @Test func theDocumentedExampleDecodes() throws {
        let doc = try String(
            contentsOf: ProcessRunner.packageRoot.appendingPathComponent("docs/drawing-format.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```json\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        var warnings: [DocumentWarning] = []
        let drawing = try Drawing(
            decoding:
                Array(doc[start.upperBound..<end.lowerBound].utf8), file: "example", warnings: &warnings)
        let kinds = Set(drawing.graphics.map(\.kind.name))
        #expect(
            kinds.isSuperset(of: [
                "rectangle", "ellipse", "roundedRectangle", "polygon", "star", "line", "path", "text", "image", "cloud", "group",
            ]))
        #expect(drawing.graphics.contains { if case .custom = $0.clip { true } else { false } })
    }
}
