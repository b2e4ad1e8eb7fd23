// Open a card from the Cards app (or any registered document type) and render it to PNG and SVG.
import EaselDocuments  // product "EaselDocuments": documents and the registry
import EaselRender  // product "EaselRender": rendering and export
import Foundation

let located = try DocumentRegistry.standard.open(URL(fileURLWithPath: "Card.rwcard"))  // by extension
print(located.resourceFolder, located.warnings)  // where its images resolve; what was odd
let rendered = try DocumentRenderer.render(located, options: RenderOptions(size: .thumbnail))
try rendered.image.writePNG(to: "thumb.png")  // atomic: temporary file, then rename
let svg = try DocumentRenderer.export(located, options: RenderOptions(format: .svg))  // or .pdf
print(svg.bytes.count, "bytes of SVG")
