// Draw with cairo through its owning Swift wrappers, and encode a PNG.
import EaselCairo
import EaselGeometry

let image = try RasterImage(width: 200, height: 100)
let context = try CairoContext(image: image)
try context.setSource(Color(red: 1, green: 0.35, blue: 0.37))
var ellipse = Path()
ellipse.addEllipse(in: Rect(x: 10, y: 10, width: 180, height: 80))
try context.fill(ellipse)
let png: [UInt8] = try PNGEncoder.encode(image)
