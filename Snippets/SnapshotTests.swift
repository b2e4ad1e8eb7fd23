// swift-snapshot-testing's assertSnapshot with Easel's image strategies (Linux has none of its own).
import EaselSnapshotTesting  // product "EaselSnapshotTesting"; assertSnapshot comes with it
import Foundation
import XCTest

final class BadgeSnapshotTests: XCTestCase {
    func testBadge() {
        var badge = Drawing(canvasSize: Size(width: 120, height: 80), background: Color(rgb: 0xF1FAEE))
        badge.graphics.append(
            Graphic(
                kind: .roundedRectangle(cornerRadius: 12),
                transform: GraphicTransform(center: Point(x: 60, y: 40), size: Size(width: 100, height: 60)),
                fill: Color(rgb: 0xE63946)))
        // `.easel`: never record when CI is set (swift-snapshot-testing's own default records
        // missing references everywhere).
        withSnapshotTesting(record: .easel) {
            assertSnapshot(of: badge, as: .easelImage())
            assertSnapshot(of: badge, as: .easelImage(tolerance: .perceptual), named: "perceptual")
        }
    }
}
