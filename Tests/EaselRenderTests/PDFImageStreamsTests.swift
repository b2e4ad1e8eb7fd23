@testable import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

@testable import EaselRender

@Suite("A PDF holds its photos as rows Easel deflated")
struct PDFImageStreamsTests {
    /// Whether each object the PDF's cross-reference table lists starts where the table
    /// says, and `startxref` points at the table.
    static func objectsAreWhereTheTableSays(_ pdf: [UInt8]) -> Bool {
        let text = String(decoding: pdf, as: UTF8.self)
        guard let startxref = text.range(of: "\nstartxref\n", options: .backwards),
            let offset = Int(text[startxref.upperBound...].prefix { $0.isNumber }), offset < pdf.count,
            pdf[offset...].starts(with: "xref\n0 ".utf8)
        else { return false }
        let lines = String(decoding: pdf[offset...], as: UTF8.self).split(separator: "\n")
        guard lines.count > 2, let count = Int(lines[1].split(separator: " ")[1]) else { return false }
        for number in 0..<count {
            let entry = lines[2 + number].split(separator: " ")
            guard entry.count == 3, let at = Int(entry[0]) else { return false }
            if entry[2] == "n", !(at < pdf.count && pdf[at...].starts(with: "\(number) 0 obj".utf8)) { return false }
        }
        return true
    }

    /// The data of the first image stream whose dictionary has `/Predictor 15`.
    static func predictorStream(in pdf: [UInt8]) -> [UInt8]? {
        let marker = Array("/Predictor 15".utf8), opening = Array(">>\nstream\n".utf8)
        guard let at = OutputBytes.find(marker, in: pdf, from: 0), let open = OutputBytes.find(opening, in: pdf, from: at),
            let lengthAt = OutputBytes.findLast(Array("/Length ".utf8), in: pdf, before: at)
        else { return nil }
        let digits = pdf[(lengthAt + 8)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard let count = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
        let start = open + opening.count
        return Array(pdf[start..<start + count])
    }

    /// A PNG of `width` x `height` 8-bit RGB whose IDAT is `data`.
    static func png(width: Int, height: Int, idat data: [UInt8]) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + ReferencePNGWriter.chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
            + ReferencePNGWriter.chunk("IDAT", data) + ReferencePNGWriter.chunk("IEND", [])
    }

    /// A card of `photos` (name and bytes), each drawn turned in a frame of its own.
    static func card(_ photos: [(String, [UInt8])], drawing names: [String], in folder: TemporaryFolder) throws
        -> LocatedDocument
    {
        for (name, bytes) in photos { _ = try folder.write(bytes, to: name) }
        let card = Card(
            id: UUID(), backgroundColor: .white,
            imageElements: names.enumerated().map { index, name in
                ImageElement(
                    transform: ElementTransform(
                        size: Size(width: 500, height: 340), rotationDegrees: Double(index * 5 - 3),
                        offset: Point(x: Double(index) * 60 - 100, y: Double(index) * 420 - 400)),
                    imageFilename: name, clip: index == 1 ? .library(.heart) : nil)
            },
            textElements: [TextElement(transform: ElementTransform(size: Size(width: 900, height: 120)), text: "Hello")])
        return try DocumentRegistry.standard.open(try Fixtures.write(card, in: folder))
    }

    @Test func anOpaquePhotoIsItsRowsWithPNGPredictorsAndEveryObjectStaysWhereTheTableSays() throws {
        let folder = TemporaryFolder()
        let photo = try TestImages.quadrants(width: 300, height: 200)
        let located = try Self.card([("PHOTO", photo)], drawing: ["PHOTO"], in: folder)
        let pdf = try DocumentRenderer.export(located, options: RenderOptions(format: .pdf)).bytes
        let text = String(decoding: pdf, as: UTF8.self)
        let parameters = "/DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns 300 >>"
        #expect(text.contains("/Filter /FlateDecode\n   " + parameters))
        #expect(!text.contains("/DCTDecode") && !text.contains("EASEL"), "no stand-in is left")
        #expect(Self.objectsAreWhereTheTableSays(pdf))
        // The stream is the photo's pixels as Easel's encoder deflates them.
        let pixels = try PNGDecoder.decodePixels(photo)
        let rows = try #require(try PDFImageStreams.FlateImage(opaque: pixels))
        #expect(Self.predictorStream(in: pdf) == rows.data)
    }

    @Test func theRowsAreThePixels() throws {
        let pixels = try PNGDecoder.decodePixels(try TestImages.quadrants(width: 124, height: 78))
        let rows = try #require(try PDFImageStreams.FlateImage(opaque: pixels))
        #expect((rows.columns, rows.rows) == (124, 78))
        // PDF's PNG predictors are PNG's own filters: the rows in a PNG of their own decode to
        // the very pixels.
        let again = try PNGDecoder.decodePixels(Self.png(width: 124, height: 78, idat: rows.data))
        let same = pixels.withUnsafeBytes { a in again.withUnsafeBytes { b in a.elementsEqual(b) } }
        #expect(same)
    }

    @Test func aPhotoWithTransparencyIsLeftToCairosMask() throws {
        let image = try RasterImage(width: 40, height: 30)
        let context = try CairoContext(image: image)
        var half = Path()
        half.addRect(Rect(x: 0, y: 0, width: 20, height: 30))
        try context.setSource(Color(rgb: 0x2A9D8F))
        try context.fill(half)
        let photo = try PNGEncoder.encode(image)
        #expect(try PDFImageStreams.FlateImage(opaque: try PNGDecoder.decodePixels(photo)) == nil)
        let folder = TemporaryFolder()
        let pdf = try DocumentRenderer.export(
            try Self.card([("PHOTO", photo)], drawing: ["PHOTO"], in: folder), options: RenderOptions(format: .pdf)
        ).bytes
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.contains("/SMask") && !text.contains("/Predictor 15"))
        #expect(Self.objectsAreWhereTheTableSays(pdf))
    }

    @Test func twoPhotosAndOneDrawnTwiceMakeTwoStreams() throws {
        let folder = TemporaryFolder()
        let one = try TestImages.quadrants(width: 200, height: 150), other = try TestImages.quadrants(width: 90, height: 60)
        let located = try Self.card([("ONE", one), ("OTHER", other)], drawing: ["ONE", "OTHER", "ONE"], in: folder)
        let pdf = try DocumentRenderer.export(located, options: RenderOptions(format: .pdf)).bytes
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.components(separatedBy: "/Predictor 15").count - 1 == 2)
        #expect(Self.objectsAreWhereTheTableSays(pdf))
    }

    @Test func aFileNotAsCairoWritesItIsLeftAlone() throws {
        // Cairo's own PDF with a stand-in for the image, before it is replaced.
        let pixels = try PNGDecoder.decodePixels(try TestImages.quadrants(width: 64, height: 48))
        let rows = try #require(try PDFImageStreams.FlateImage(opaque: pixels))
        let standIn = PDFImageStreams.standIn(width: 64, height: 48, token: PDFImageStreams.newToken())
        let raster = try RasterImage(sharing: pixels)
        try raster.attachEncodedFile(standIn, mimeType: "image/jpeg")
        let surface = try VectorSurface(format: .pdf, width: 200, height: 200)
        try surface.context().drawImage(raster, filter: .good)
        let pdf = try surface.finish()
        #expect(PDFImageStreams.rewrite(pdf, replacing: [(standIn, rows)]) != nil)
        // The table pointing one byte off: nothing is rewritten.
        var shifted = pdf
        let table = try #require(OutputBytes.find(Array("\nxref\n0 ".utf8), in: pdf, from: 0))
        let firstUsed = table + "\nxref\n0 ".utf8.count + 2 + 20 + 9
        shifted[firstUsed] = shifted[firstUsed] == UInt8(ascii: "9") ? UInt8(ascii: "8") : shifted[firstUsed] + 1
        #expect(PDFImageStreams.rewrite(shifted, replacing: [(standIn, rows)]) == nil)
        // The stand-in once more outside any stream (in a comment after the end): nothing is
        // rewritten.
        let commented = pdf + Array("% ".utf8) + standIn + [0x0A]
        #expect(PDFImageStreams.rewrite(commented, replacing: [(standIn, rows)]) == nil)
    }
}
