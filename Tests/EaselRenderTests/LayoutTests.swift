import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport

/// Layout rules checked on the scene, without rasterising.
@Suite("Layout")
struct LayoutTests {
    @Test func cardTextStartsAt200UnitsAndOnlyShrinks() throws {
        let face = try FontLibrary.shared.face(for: FontMap.defaultSans)
        let short = TextLine.layout("Hi", primary: face, fallbacks: [])
        #expect(TextPlacement.cardFontSize(for: short, frame: Size(width: 5000, height: 5000)) == 200, "never grown")
        let long = TextLine.layout(String(repeating: "wide ", count: 40), primary: face, fallbacks: [])
        let size = TextPlacement.cardFontSize(for: long, frame: Size(width: 800, height: 200))
        #expect(abs(long.width * size - 800) < 1e-6, "shrunk until the width fits exactly")
        let tall = TextPlacement.cardFontSize(for: short, frame: Size(width: 5000, height: 50))
        #expect(abs(short.height * tall - 50) < 1e-6, "or the height")
        let tiny = TextPlacement.cardFontSize(for: long, frame: Size(width: 1, height: 1))
        #expect(tiny == 2, "not below 1 % of 200")
    }

    @Test func fallbackFontsCoverWhatThePrimaryLacks() throws {
        let primary = try FontLibrary.shared.face(named: "Gill Sans").face
        let line = TextLine.layout("Ab 日本 ★", primary: primary, fallbacks: FontLibrary.shared.fallbackFaces)
        #expect(
            line.runs.map(\.font.fileName) == [
                "OpenSans-Regular.ttf", "wqy-microhei.ttc", "OpenSans-Regular.ttf", "DejaVuSans.ttf",
            ])
        #expect(line.runs.allSatisfy { $0.glyphs.allSatisfy { $0.index != 0 } }, "no missing-glyph boxes")
    }

    @Test func theCardSceneDumpIsStable() throws {
        let folder = TemporaryFolder()
        try folder.write(try TestImages.quadrants(), to: "IMG")
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(
                        size: Size(width: 400, height: 400), rotationDegrees: 90, offset: Point(x: 10, y: -20)),
                    imageFilename: "IMG", clip: .library(.diamond))
            ],
            textElements: [
                TextElement(
                    transform: ElementTransform(size: Size(width: 600, height: 100)), text: "Hello", textFont: "Gill Sans")
            ])
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        let scene = try DocumentRenderer.scene(for: LocatedDocument(card, at: url))
        let lines = scene.description.split(separator: "\n").map(String.init)
        #expect(lines[0] == "scene 1300x2000")
        #expect(lines[1] == "fill #FFFFFF M 0 0 L 1300 0 L 1300 2000 L 0 2000 Z")
        // 300x200 fitted into 400x400 -> 400x266.67 at y 66.67; a quarter turn about (660, 980).
        #expect(
            lines[2]
                == "image IMG 300x200 [0 1.3333 -1.3333 0 793.3333 780] clip M 793.3333 980 L 660 1180 L 526.6667 980 L 660 780 Z"
        )
        #expect(lines[3].hasPrefix("text \"Hello\" OpenSans-Regular.ttf size "))
    }

    @Test func groupsAndOpacityBecomeSceneGroups() throws {
        let drawing = Drawing(
            canvasSize: Size(width: 100, height: 100), background: nil,
            graphics: [
                Graphic(
                    kind: .group([
                        Graphic(
                            kind: .rectangle,
                            transform: GraphicTransform(center: Point(x: 5, y: 5), size: Size(width: 10, height: 10)),
                            fill: .black)
                    ]),
                    transform: GraphicTransform(center: Point(x: 50, y: 50), size: Size(width: 20, height: 20)), opacity: 0.5,
                    clip: .library(.rectangle)),
                Graphic(
                    kind: .ellipse, transform: GraphicTransform(center: Point(x: 10, y: 10), size: Size(width: 4, height: 4)),
                    opacity: 0),
            ])
        let scene = DrawingLowering.scene(
            for: drawing, imageFolder: URL(fileURLWithPath: "/tmp"), images: ImageLoader(), file: "d")
        #expect(
            scene.description == """
                scene 100x100
                group opacity 0.5 clip M 40 40 L 60 40 L 60 60 L 40 60 Z
                  fill #000000 M 40 40 L 50 40 L 50 50 L 40 50 Z
                end group
                """, "an invisible graphic draws nothing")
    }

    @Test func polygonsAndStarsStartStraightUp() throws {
        let rect = Rect(x: 0, y: 0, width: 100, height: 100)
        let hexagon = try #require(DrawingLowering.shapePath(.polygon(sides: 6), in: rect))
        #expect(hexagon.elements.first == .move(to: Point(x: 50, y: 0)))
        let star = try #require(DrawingLowering.shapePath(.star(points: 4, innerRadiusRatio: 0.5), in: rect))
        let points = star.elements.compactMap(\.points.last)
        #expect(points.count == 8)
        #expect(abs(points[2].x - 100) < 1e-9 && abs(points[2].y - 50) < 1e-9, "the second outer point is at 3 o'clock")
        #expect(abs(points[1].x - (50 + 25 * cos(Double.pi / 4))) < 1e-9, "inner points at half the radius")
    }
}
