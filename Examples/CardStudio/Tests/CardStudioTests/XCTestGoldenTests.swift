import CardStudio
import EaselGoldenTesting
import XCTest

/// The same assertions from XCTest.
final class XCTestGoldenTests: XCTestCase {
    func testDrawingFileAtItsOwnSize() {
        assertGolden(file: Fixtures.drawing, named: "showcase", suite: "Drawings", options: RenderOptions(size: .scale(0.5)))
    }

    func testRenderedImageWithTolerance() throws {
        let located = LocatedDocument(
            CardStudio.badge(for: "Grace", color: Color(rgb: 0x8AC926)),
            at: Fixtures.documents.appendingPathComponent("badge.drawing"))
        let rendered = try DocumentRenderer.render(located, options: RenderOptions(size: .scale(1)))
        assertGolden(rendered, named: "badge-grace", suite: "Drawings", tolerance: .fuzzy(maxDelta: 8, maxPixels: 20))
    }
}
