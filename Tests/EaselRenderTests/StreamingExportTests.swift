import Foundation
import Testing
import EaselGeometry
import EaselDocuments
import EaselCairo
@testable import EaselRender
import EaselTestSupport

/// A file export writes each band's PNG chunk as it is deflated: the file on disk must be
/// the very bytes `export` returns, an ordinary PNG (several IDAT chunks), and a failure
/// must leave nothing behind.
@Suite("Exports written as they are encoded")
struct StreamingExportTests {
    /// A drawing of `width` x `height` with shapes across it and a photo-like image.
    static func drawing(width: Double, height: Double, in folder: TemporaryFolder) throws -> LocatedDocument {
        _ = try folder.write(TestImages.quadrants(), to: "photo.png")
        var graphics: [Graphic] = [
            Graphic(
                kind: .image(file: "photo.png"),
                transform: GraphicTransform(
                    center: Point(x: width / 2, y: height / 3), size: Size(width: width / 2, height: height / 4),
                    rotationDegrees: 12))
        ]
        for i in 0..<40 {
            graphics.append(
                Graphic(
                    kind: i % 2 == 0 ? .ellipse : .star(points: 5, innerRadiusRatio: 0.5),
                    transform: GraphicTransform(
                        center: Point(x: Double(i * 37 % 100) / 100 * width, y: Double(i * 61 % 100) / 100 * height),
                        size: Size(width: 90, height: 70)),
                    fill: Color(red: Double(i % 5) / 5, green: 0.4, blue: 0.7), stroke: Stroke(color: .black, width: 3)))
        }
        let drawing = Drawing(
            canvasSize: Size(width: width, height: height), background: Color(red: 0.95, green: 0.9, blue: 0.8),
            graphics: graphics)
        return try DocumentRegistry.standard.open(try folder.write(DrawingEncoder.encode(drawing), to: "art.drawing"))
    }

    /// The types of the chunks of a PNG file, in order.
    static func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    @Test(arguments: [(600.0, 400.0, 1.0), (1300.0, 2000.0, 1.0), (1300.0, 2000.0, 1.5)])
    func theFileIsTheBytesExportReturns(size: (Double, Double, Double)) throws {
        let folder = TemporaryFolder()
        let located = try Self.drawing(width: size.0, height: size.1, in: folder)
        let options = RenderOptions(size: .scale(size.2))
        let expected = try DocumentRenderer.export(located, options: options).bytes
        let path = folder.url.appendingPathComponent("out.png").path
        let written = try DocumentRenderer.export(located, options: options, writingTo: path)
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(onDisk == expected)
        #expect(written.byteCount == expected.count)
        #expect(written.width == Int(size.0 * size.2) && written.height == Int(size.1 * size.2))
        // One IDAT chunk per band (`PNGEncoder.bandRows` rows), between the header chunks and IEND.
        let bands = (written.height + PNGEncoder.bandRows - 1) / PNGEncoder.bandRows
        #expect(Self.chunkTypes(onDisk) == ["IHDR", "sRGB"] + Array(repeating: "IDAT", count: bands) + ["IEND"])
        // libpng and cairo both read it, to the same pixels.
        let decoded = try PNGDecoder.decode(onDisk)
        let viaCairo = try RasterImage.readPNGWithCairo(at: path)
        for (x, y) in [(0, 0), (written.width / 2, written.height / 3), (written.width - 1, written.height - 1)] {
            #expect(decoded.premultipliedPixel(x: x, y: y) == viaCairo.premultipliedPixel(x: x, y: y))
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["art.drawing", "out.png", "photo.png"])
    }

    @Test func foldersAreMadeOnlyOnceTheRenderingSucceeded() throws {
        let folder = TemporaryFolder()
        let located = try Self.drawing(width: 300, height: 200, in: folder)
        let nested = folder.url.appendingPathComponent("a/b/out.png").path
        var options = RenderOptions()
        options.area = RenderOptions.Area(Rect(x: 0, y: 0, width: 0, height: 10))  // no area: the render fails
        #expect(throws: RenderError.self) {
            try DocumentRenderer.export(located, options: options, writingTo: nested, creatingFolders: true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("a").path))
        // Without creatingFolders a missing folder is an error, and nothing is made.
        #expect(throws: RenderError.self) { try DocumentRenderer.export(located, writingTo: nested) }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("a").path))
        let written = try DocumentRenderer.export(located, writingTo: nested, creatingFolders: true)
        #expect(written.format == .png && FileManager.default.fileExists(atPath: nested))
    }

    @Test func aReplacedOutputStaysWholeUntilTheNewOneIsComplete() throws {
        let folder = TemporaryFolder()
        let located = try Self.drawing(width: 1300, height: 2000, in: folder)
        let target = try folder.write("an earlier output", to: "out.png")
        let written = try DocumentRenderer.export(located, writingTo: target.path)
        #expect(try Data(contentsOf: target).count == written.byteCount)
        // Nothing but the documents and the output: no temporary file is left.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["art.drawing", "out.png", "photo.png"])
    }
}
