// A card to PNG bytes in memory, as `Data`: for a response body, a cache, an upload.
import EaselDocuments
import EaselRender
import Foundation

let card = try DocumentRegistry.standard.open(URL(fileURLWithPath: "card.rwcard"))
let exported = try DocumentRenderer.export(card, options: RenderOptions(size: .width(800)))  // 800 pixels wide
let png = Data(exported.bytes)  // ExportedFile.bytes is [UInt8]; Data(_:) copies it once
print(png.count, "bytes,", exported.width, "x", exported.height, "pixels;", exported.warnings.count, "warnings")
