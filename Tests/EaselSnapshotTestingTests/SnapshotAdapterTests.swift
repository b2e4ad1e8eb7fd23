import Testing
import Foundation
import SnapshotTesting
import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo
import EaselGolden
import EaselSnapshotTesting

@Suite("swift-snapshot-testing adapter")
struct SnapshotAdapterTests {
    static let drawing = Drawing(
        canvasSize: Size(width: 120, height: 80), background: .white,
        graphics: [
            Graphic(
                kind: .star(points: 5, innerRadiusRatio: 0.45),
                transform: GraphicTransform(center: Point(x: 60, y: 40), size: Size(width: 70, height: 70)),
                fill: Color(hex: "#FFD23F"), stroke: Stroke(color: .black, width: 2))
        ])

    @Test func aDrawingMatchesItsReference() {
        // The reference is committed in __Snapshots__; in CI (record mode never) it must exist.
        assertSnapshot(
            of: Self.drawing, as: .easelImage(), record: ProcessInfo.processInfo.environment["CI"] == nil ? .missing : .never)
    }

    @Test func aDifferenceIsReportedWithStatisticsAndAttachments() throws {
        let strategy = Snapshotting<Drawing, RasterImage>.easelImage()
        var moved = Self.drawing
        moved.graphics[0].transform.center.x += 10
        let render = { (drawing: Drawing) in
            try DocumentRenderer.render(LocatedDocument(drawing, at: URL(fileURLWithPath: "/tmp/x.drawing"))).image
        }
        let (message, attachments) = try #require(strategy.diffing.diffV2(try render(Self.drawing), try render(moved)))
        #expect(message.contains("pixels differ") && message.contains("would pass with .fuzzy"))
        #expect(attachments.count == 3)
        #expect(strategy.diffing.diffV2(try render(Self.drawing), try render(Self.drawing)) == nil)
        // Round trip through the reference format.
        let data = strategy.diffing.toData(try render(Self.drawing))
        #expect(strategy.diffing.diffV2(strategy.diffing.fromData(data), try render(Self.drawing)) == nil)
    }
}
