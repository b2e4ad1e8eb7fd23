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
                fill: Color(rgb: 0xFFD23F), stroke: Stroke(color: .black, width: 2))
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

    @Test func anUnreadableReferenceOrARenderErrorSaysSo() throws {
        let strategy = Snapshotting<Drawing, RasterImage>.easelImage()
        let image = try RasterImage(width: 4, height: 4)
        let unreadable = strategy.diffing.fromData(Data("not a png".utf8))
        let (message, _) = try #require(strategy.diffing.diffV2(unreadable, image))
        #expect(message.hasPrefix("the reference PNG cannot be read"), "\(message)")
        #expect(!message.contains("size"))
        // A drawing with a group that cannot be drawn does not exist; an unrenderable size does.
        let tooLarge = Snapshotting<Drawing, RasterImage>.easelImage(options: RenderOptions(size: .scale(1_000)))
        var rendered: RasterImage?
        tooLarge.snapshot(Self.drawing).run { rendered = $0 }
        let stand = try #require(rendered)
        let (failure, _) = try #require(strategy.diffing.diffV2(image, stand))
        #expect(failure.contains("could not be rendered") && failure.contains("over the limit"), "\(failure)")
    }

    @Test func nothingIsWrittenToTheTemporaryFolderWithoutSnapshotArtifacts() throws {
        let strategy = Snapshotting<Drawing, RasterImage>.easelImage()
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
            $0.hasPrefix("easel-snapshot")
        }
        let a = try RasterImage(width: 8, height: 8), b = try RasterImage(width: 8, height: 8)
        b.withUnsafeMutablePixels { $0.storeBytes(of: UInt32(0xFFFF_0000), as: UInt32.self) }
        let (_, attachments) = try #require(strategy.diffing.diffV2(a, b))
        #expect(attachments.count == 3, "the images travel as attachments")
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
            $0.hasPrefix("easel-snapshot")
        }
        if ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] == nil { #expect(after == before) }
    }

    @Test func anyPNGDataIsComparedByEaselsComparator() throws {
        let strategy = Snapshotting<Data, RasterImage>.easelPNG()
        let image = try RasterImage(width: 6, height: 4)
        let png = Data(try PNGEncoder.encode(image))
        var rendered: RasterImage?
        strategy.snapshot(png).run { rendered = $0 }
        let decoded = try #require(rendered)
        #expect(decoded.width == 6 && decoded.height == 4)
        #expect(strategy.diffing.diffV2(decoded, decoded) == nil)
        var broken: RasterImage?
        strategy.snapshot(Data("GIF89a".utf8)).run { broken = $0 }
        let stand = try #require(broken)
        let (message, _) = try #require(strategy.diffing.diffV2(decoded, stand))
        #expect(message.hasPrefix("the image is not a readable PNG"), "\(message)")
    }
}
