import EaselCairo
import EaselEditing
import EaselTestSupport
import Foundation
import Testing

/// A photo brought into a card is stored as the app stores it: a PNG file of its own, kept
/// byte for byte when it needs no shrinking, unless the file is far larger than its pixels.
@Suite("A photo brought into a card")
struct CardPhotoImportTests {
    @Test func aSmallPNGIsKeptAsItIsUnlessItIsPaddedFarPastItsPixels() throws {
        let folder = TemporaryFolder()
        let png = ReferencePNGWriter.encode(width: 40, height: 30, colorType: .rgb, bitDepth: 8) { x, y in [x * 6, y * 8, 100] }
        let kept = try ImageImport.intoCardFolder(bytes: png, from: "photo.png", folder: folder.url)
        #expect(try [UInt8](Data(contentsOf: folder.file(kept.name))) == png)
        // The same pixels with 4 MiB of a chunk no reader shows: stored as its pixels, small.
        let end = png.count - 12  // IEND, the last 12 bytes
        let padded = Array(png[..<end]) + ReferencePNGWriter.chunk("zzZz", [UInt8](repeating: 0, count: 4 << 20)) + png[end...]
        let encoded = try ImageImport.intoCardFolder(bytes: padded, from: "padded.png", folder: folder.url)
        let stored = try [UInt8](Data(contentsOf: folder.file(encoded.name)))
        #expect(stored.count < 64 << 10, "\(stored.count) bytes")
        #expect(encoded.pixelSize == kept.pixelSize && encoded.name != kept.name)
        let pixels = { (bytes: [UInt8]) in try PNGDecoder.decode(bytes).withUnsafePixels { Array($0) } }
        #expect(try pixels(stored) == pixels(png), "the same pixels")
    }
}
