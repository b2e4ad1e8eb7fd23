// Golden-image tests with Swift Testing and XCTest: one line each.
import EaselGoldenTesting  // product "EaselGoldenTesting": documents, rendering and tolerances come with it
import Foundation
import Testing
import XCTest

// The package's Documents folder, beside Goldens/ and outside the test target's folder, so
// the target holds no file SwiftPM cannot build (see `exclude:` in the manifest).
let documents = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Documents")

@Test func postcard() {
    // Opens the file (any registered type), renders it at the thumbnail size, and compares it
    // with Goldens/Cards/postcard.png in the package that holds this test file.
    assertGolden(file: documents.appendingPathComponent("postcard.rwcard"), suite: "Cards")
}

@Test func postcardAsPNGData() throws {
    // PNG bytes as your own code makes them (a service's response body, say): decoded, then
    // compared as pixels with the same golden.
    let located = try DocumentRegistry.standard.open(documents.appendingPathComponent("postcard.rwcard"))
    let png = Data(try DocumentRenderer.export(located, options: RenderOptions(size: .thumbnail)).bytes)
    assertGolden(try PNGDecoder.decode([UInt8](png)), named: "postcard", suite: "Cards")
}

final class LogoTests: XCTestCase {
    func testLogo() throws {
        var logo = Drawing(canvasSize: Size(width: 200, height: 200))
        logo.graphics.append(
            Graphic(
                kind: .ellipse, transform: GraphicTransform(center: Point(x: 100, y: 100), size: Size(width: 160, height: 160)),
                fill: Color(rgb: 0x2A9D8F)))
        assertGolden(
            drawing: logo, imageFolder: documents, named: "logo", suite: "Drawings", tolerance: .fuzzy(maxDelta: 8, maxPixels: 20)
        )
        let rendered = try DocumentRenderer.render(
            LocatedDocument(logo, at: documents.appendingPathComponent("logo.drawing")), options: RenderOptions(size: .scale(0.5))
        )
        assertGolden(rendered, named: "logo-small", suite: "Drawings", tolerance: .exact)  // a RenderedImage
    }
}

@Test func everyDocument() {
    // A folder against a folder of goldens, as `easel golden verify` does; each failing
    // document is a failure of its own, and the report is written to look at.
    assertGoldenFolder("Documents", goldens: "Goldens/Documents", report: ".build/golden-report")
}
