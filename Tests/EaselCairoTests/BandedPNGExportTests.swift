import Testing
import EaselSupport
@testable import EaselCairo
import EaselTestSupport

/// A banded export's file is the bytes of encoding the whole image, whatever the number of
/// threads drawing and deflating its bands (and so the order they finish in).
@Suite("Banded PNG export")
struct BandedPNGExportTests {
    @Test(arguments: [1, 2, 3])
    func theFileIsTheWholeImagesEncoding(threads: Int) throws {
        let width = 301, height = 5 * FastPNGWriter.bandRows + 17
        let image = try FastPNGWriterTests.image(width: width, height: height, opaque: true, seed: 7)
        let whole = try FastPNGWriter.encode(image, keepAlpha: false, threads: 1)
        let pixels = image.withUnsafePixels { Array($0) }, stride = image.stride
        let file = Locked<[UInt8]>([])
        let outcome = try BandedPNGExport.encode(
            width: width, height: height, keepAlpha: false, checkOpaque: true, threads: threads,
            draw: { band, rows in
                band.withUnsafeMutablePixels { target in
                    for (offset, row) in rows.enumerated() {
                        pixels.withUnsafeBytes { source in
                            target.baseAddress!.advanced(by: offset * band.stride).copyMemory(
                                from: source.baseAddress! + row * stride, byteCount: width * 4)
                        }
                    }
                }
            },
            emit: { bytes in file.withLock { $0 += bytes } })
        #expect(outcome == .encoded)
        #expect(file.withLock { $0 } == whole)
    }
}
