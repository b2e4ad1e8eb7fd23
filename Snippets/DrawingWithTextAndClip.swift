// A drawing built in code, with a text and a clip shape, rendered to PNG bytes.
import EaselDocuments
import EaselGeometry  // Size, Point, Color
import EaselRender
import Foundation

var poster = Drawing(canvasSize: Size(width: 600, height: 400), background: Color(rgb: 0xFFF8E7))
poster.graphics.append(
    Graphic(
        kind: .rectangle, transform: GraphicTransform(center: Point(x: 300, y: 170), size: Size(width: 240, height: 220)),
        fill: Color(rgb: 0xE63946), clip: .library(.heart)))  // the rectangle cut to a heart
poster.graphics.append(
    Graphic(
        kind: .text(TextContent(string: "Hello, Easel", fontFamily: "Gill Sans", fontSize: 44)),
        transform: GraphicTransform(center: Point(x: 300, y: 345), size: Size(width: 520, height: 60)), fill: .black))
// A document made in memory is placed at a URL: its images, if any, resolve beside it.
let located = LocatedDocument(poster, at: URL(fileURLWithPath: "poster.drawing"))
let posterPNG = Data(try DocumentRenderer.export(located).bytes)
