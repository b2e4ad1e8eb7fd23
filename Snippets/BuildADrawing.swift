// Build a drawing in code, edit it with undo, and save it.
import EaselDocuments
import EaselGeometry  // product "EaselGeometry": points, sizes, paths, colours
import Foundation

var drawing = Drawing(canvasSize: Size(width: 400, height: 300), background: .white)
var history = History<Drawing>(maxDepth: 100)
let star = Graphic(
    kind: .star(points: 5, innerRadiusRatio: 0.5),
    transform: GraphicTransform(center: Point(x: 200, y: 150), size: Size(width: 120, height: 120)),
    fill: try Color(hex: "#FF595E"))  // a mistyped colour throws; Color(rgb: 0xFF595E) cannot fail
history.perform({ $0.graphics.append(star) }, on: &drawing)
drawing = history.undo(from: drawing)!  // back to the empty canvas
drawing = history.redo(from: drawing)!  // the star again
try DocumentRegistry.standard.save(drawing, to: URL(fileURLWithPath: "art.drawing"))  // atomic
