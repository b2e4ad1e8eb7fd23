import CardStudio
import EaselSnapshotTesting  // assertSnapshot and Easel's image strategies
import XCTest

/// swift-snapshot-testing with Easel's strategies: references in `__Snapshots__` beside this
/// file (excluded from the target in Package.swift). `.easel` never records when CI is set.
final class SnapshotAdapterTests: XCTestCase {
    func testBadgeDrawing() {
        withSnapshotTesting(record: .easel) {
            assertSnapshot(of: CardStudio.badge(for: "Linus", color: Color(rgb: 0xFF595E)), as: .easelImage())
        }
    }

    func testCardValue() throws {
        let card = try XCTUnwrap(try DocumentRegistry.standard.open(Fixtures.card).document as? Card)
        withSnapshotTesting(record: .easel) {
            assertSnapshot(of: card, as: .easelImage(folder: Fixtures.documents, tolerance: .perceptual))
        }
    }

    func testPNGBytes() throws {
        let (png, _) = try CardStudio.thumbnail(of: Fixtures.card)
        withSnapshotTesting(record: .easel) {
            assertSnapshot(of: Data(png), as: .easelPNG())
        }
    }
}
