import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselTestSupport

@Suite("Resources")
struct ResourceTests {
    /// Resident memory of this process, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// 1000 render+encode+decode cycles of a card with an image must not grow memory: every
    /// cairo surface, context and libpng buffer is released. (A resource check, not a timing one.)
    @Test func renderAndEncodeCyclesDoNotLeak() throws {
        let folder = TemporaryFolder()
        try folder.write(try Fixtures.solidPNG(width: 300, height: 200, color: .black), to: "IMG")
        let card = Card(imageElements: [
            ImageElement(transform: ElementTransform(size: Size(width: 800, height: 600), rotationDegrees: 10), imageFilename: "IMG",
                         clip: .library(.cloud)),
        ])
        let url = try Fixtures.write(card, in: folder)
        let document = try DocumentRegistry.standard.open(url, warnings: &Array<DocumentWarning>.ignored)
        func cycle() throws {
            let png = try DocumentRenderer.renderPNG(document, at: url, options: RenderOptions(size: .thumbnail)).png
            _ = try PNGDecoder.decode(png)
        }
        for _ in 0..<100 { try cycle() } // warm-up: allocator pools, font caches
        let before = Self.residentBytes()
        for _ in 0..<1000 { try cycle() }
        let growth = Self.residentBytes() - before
        print("RSS growth over 1000 render+encode cycles: \(growth / 1024) KiB")
        #expect(growth < 8 << 20, "resident memory grew by \(growth / 1024) KiB over 1000 cycles")
    }
}
