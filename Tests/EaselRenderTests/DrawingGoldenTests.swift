import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport
import EaselGoldenTesting

/// Drawings on small canvases, compared with Goldens/Drawings.
@Suite("Drawing goldens")
struct DrawingGoldenTests {
    let folder = TemporaryFolder()

    init() throws {
        try folder.write(try TestImages.quadrants(), to: "photo.png")
    }

    func render(_ drawing: Drawing) throws -> RasterImage {
        let url = try folder.write(DrawingEncoder.encode(drawing), to: "d.drawing")
        let rendered = try DocumentRenderer.render(LocatedDocument(drawing, at: url), options: RenderOptions(size: .scale(1)))
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
        return rendered.image
    }

    static func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rotation: Double = 0) -> GraphicTransform {
        GraphicTransform(center: Point(x: x, y: y), size: Size(width: w, height: h), rotationDegrees: rotation)
    }

    static let ink = Color(rgb: 0x1B1B1E)
    static let blue = Color(rgb: 0x457B9D)

    @Test func everyShapeKind() throws {
        var wave = Path()
        wave.move(to: Point(x: 0, y: 1))
        wave.addQuadCurve(to: Point(x: 0.5, y: 0.5), control: Point(x: 0.2, y: 0))
        wave.addCurve(to: Point(x: 1, y: 1), control1: Point(x: 0.7, y: 1), control2: Point(x: 0.9, y: 0))
        wave.closeSubpath()
        let kinds: [GraphicKind] =
            [
                .rectangle, .roundedRectangle(cornerRadius: 12), .ellipse, .polygon(sides: 3), .polygon(sides: 5),
                .star(points: 5, innerRadiusRatio: 0.4), .star(points: 8, innerRadiusRatio: 0.75),
                .line(from: Point(x: 0, y: 1), to: Point(x: 1, y: 0)), .path(wave),
            ]
            + LibraryShape.allCases.filter { $0 != .rectangle && $0 != .roundedRectangle }.map(GraphicKind.libraryShape)
        let drawing = Drawing(
            canvasSize: Size(width: 480, height: 320), background: .white,
            graphics: kinds.enumerated().map { i, kind in
                Graphic(
                    kind: kind, transform: Self.frame(Double(i % 6) * 80 + 40, Double(i / 6) * 100 + 55, 64, 48),
                    fill: Self.blue, stroke: Stroke(color: Self.ink, width: 2))
            })
        assertGolden(try render(drawing), named: "shape-kinds", suite: "Drawings")
    }

    @Test func strokeStyles() throws {
        var graphics: [Graphic] = []
        for (i, cap) in Stroke.Cap.allCases.enumerated() {
            graphics.append(
                Graphic(
                    kind: .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5)),
                    transform: Self.frame(90, Double(i) * 40 + 30, 120, 0),
                    stroke: Stroke(color: Self.ink, width: 14, cap: cap)))
        }
        for (i, join) in Stroke.Join.allCases.enumerated() {
            graphics.append(
                Graphic(
                    kind: .polygon(sides: 3), transform: Self.frame(Double(i) * 80 + 220, 60, 50, 60),
                    stroke: Stroke(color: Self.blue, width: 10, join: join)))
        }
        for (i, dash) in [[12.0, 6], [2, 4], [20, 4, 4, 4]].enumerated() {
            graphics.append(
                Graphic(
                    kind: .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5)),
                    transform: Self.frame(Double(i) * 140 + 90, 170, 120, 0),
                    stroke: Stroke(color: Self.ink, width: 3, dash: dash, cap: i == 1 ? .round : .butt)))
        }
        for (i, width) in [0.5, 1, 4, 9].enumerated() {
            graphics.append(
                Graphic(
                    kind: .ellipse, transform: Self.frame(Double(i) * 100 + 70, 250, 70, 50), fill: Color(rgb: 0xF1FAEE),
                    stroke: Stroke(color: Color(rgb: 0xE63946), width: width)))
        }
        let drawing = Drawing(canvasSize: Size(width: 440, height: 300), background: .white, graphics: graphics)
        assertGolden(try render(drawing), named: "stroke-styles", suite: "Drawings")
    }

    @Test func opacityAppliesToFillAndStrokeTogether() throws {
        let drawing = Drawing(
            canvasSize: Size(width: 300, height: 160), background: .white,
            graphics: [
                Graphic(kind: .rectangle, transform: Self.frame(150, 80, 260, 40), fill: Self.ink),
                Graphic(
                    kind: .ellipse, transform: Self.frame(70, 80, 100, 100), fill: Color(rgb: 0xE63946),
                    stroke: Stroke(color: Self.blue, width: 12), opacity: 0.5),
                Graphic(
                    kind: .ellipse, transform: Self.frame(160, 80, 100, 100), fill: Color(rgb: 0xE63946).withAlpha(0.5),
                    stroke: Stroke(color: Self.blue.withAlpha(0.5), width: 12)),
                Graphic(
                    kind: .star(points: 6, innerRadiusRatio: 0.5), transform: Self.frame(250, 80, 90, 90), fill: Self.blue,
                    opacity: 0.25),
            ])
        assertGolden(try render(drawing), named: "opacity", suite: "Drawings")
    }

    @Test func groupsWithTransformOpacityAndClip() throws {
        let inner = Graphic(
            kind: .group([
                Graphic(kind: .rectangle, transform: Self.frame(20, 20, 40, 40), fill: Color(rgb: 0xE9C46A)),
                Graphic(kind: .ellipse, transform: Self.frame(60, 60, 40, 40), fill: Color(rgb: 0x2A9D8F)),
            ]), transform: Self.frame(100, 100, 80, 80, 30), opacity: 0.8)
        let drawing = Drawing(
            canvasSize: Size(width: 320, height: 220), background: Color(rgb: 0xF1FAEE),
            graphics: [
                Graphic(
                    kind: .group([
                        Graphic(kind: .rectangle, transform: Self.frame(60, 100, 120, 200), fill: Color(rgb: 0xE63946)),
                        Graphic(kind: .rectangle, transform: Self.frame(140, 100, 40, 200), fill: Self.ink),
                        inner,
                    ]), transform: Self.frame(110, 110, 200, 200, -10), opacity: 0.9, clip: .library(.circle)),
                Graphic(kind: .group([inner]), transform: Self.frame(255, 110, 120, 200), clip: .library(.diamond)),
            ])
        assertGolden(try render(drawing), named: "groups", suite: "Drawings")
    }

    @Test func clipShapesLibraryAndCustom() throws {
        var triangle = Path()
        triangle.addPolygon([Point(x: 0.5, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        let drawing = Drawing(
            canvasSize: Size(width: 360, height: 130), background: .white,
            graphics: [
                Graphic(kind: .image(file: "photo.png"), transform: Self.frame(65, 65, 110, 110), clip: .library(.heart)),
                Graphic(kind: .image(file: "photo.png"), transform: Self.frame(180, 65, 110, 110, 20), clip: .library(.cloud)),
                Graphic(
                    kind: .rectangle, transform: Self.frame(295, 65, 100, 100), fill: Self.blue,
                    stroke: Stroke(color: Self.ink, width: 8), clip: .custom(triangle)),
            ])
        assertGolden(try render(drawing), named: "clips", suite: "Drawings")
    }

    @Test func textAlignmentAndImages() throws {
        var graphics: [Graphic] = []
        for (i, alignment) in TextContent.Alignment.allCases.enumerated() {
            let y = Double(i) * 44 + 30
            graphics.append(
                Graphic(
                    kind: .rectangle, transform: Self.frame(160, y, 300, 36),
                    stroke: Stroke(color: Color(rgb: 0xCCCCCC), width: 1)))
            graphics.append(
                Graphic(
                    kind: .text(
                        TextContent(string: "\(alignment) ✓", fontFamily: "DejaVu Sans", fontSize: 22, alignment: alignment)),
                    transform: Self.frame(160, y, 300, 36), fill: Self.ink))
        }
        graphics.append(
            Graphic(
                kind: .text(TextContent(string: "rotated serif", fontFamily: "Times New Roman", fontSize: 26)),
                transform: Self.frame(160, 175, 240, 40, -8), fill: Color(rgb: 0xE63946)))
        graphics.append(Graphic(kind: .image(file: "photo.png"), transform: Self.frame(380, 110, 100, 160)))
        let drawing = Drawing(canvasSize: Size(width: 440, height: 210), background: .white, graphics: graphics)
        assertGolden(try render(drawing), named: "text-and-images", suite: "Drawings")
    }

    @Test func aTransparentCanvasStaysTransparent() throws {
        let drawing = Drawing(
            canvasSize: Size(width: 120, height: 80), background: nil,
            graphics: [
                Graphic(kind: .ellipse, transform: Self.frame(60, 40, 80, 60), fill: Self.blue.withAlpha(0.6))
            ])
        let image = try render(drawing)
        #expect(image.pixel(x: 1, y: 1).a == 0)
        #expect(image.pixel(x: 60, y: 40).a == 153)
        assertGolden(image, named: "transparent", suite: "Drawings")
    }
    /// One line of each script, shaped and ordered: kerning, Arabic joining right to left,
    /// Hebrew with numbers, Thai and Devanagari marks, CJK, colour emoji (a ZWJ family, a
    /// flag), and a mixed left-to-right and right-to-left line.
    static let scriptLines = [
        "AV To WAVE Ta", "مرحبا بالعالم", "שלום עולם 123", "สวัสดีครับ", "नमस्ते दुनिया", "你好世界 こんにちは",
        "👨‍👩‍👧‍👦 🇫🇷 ❤️ 😀", "Hello שלום world",
    ]

    @Test func everyScriptShapedAndOrdered() throws {
        let graphics = Self.scriptLines.enumerated().map { index, line in
            Graphic(
                kind: .text(TextContent(string: line, fontFamily: "Gill Sans", fontSize: 34)),
                transform: Self.frame(300, Double(index) * 56 + 32, 580, 50), fill: Self.ink)
        }
        let drawing = Drawing(canvasSize: Size(width: 600, height: 460), background: .white, graphics: graphics)
        assertGolden(try render(drawing), named: "scripts", suite: "Drawings")
    }
}

extension Color {
    func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

}
