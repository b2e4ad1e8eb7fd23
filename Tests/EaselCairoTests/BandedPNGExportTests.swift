import Testing
import EaselSupport
@testable import EaselCairo
import EaselTestSupport

/// A banded export takes its bands in an order that keeps the bands drawn at the same time
/// apart, and its file is still the bytes of encoding the whole image, whatever the order
/// and the number of threads.
@Suite("Banded PNG export")
struct BandedPNGExportTests {
    @Test(arguments: [1, 2, 3, 4, 5, 8, 9, 16])
    func everyBandIsTakenOnce(count: Int) {
        for workers in 1...4 {
            #expect(BandedPNGExport.drawingOrder(count: count, workers: workers).sorted() == Array(0..<count))
        }
    }

    /// Two workers take the bands one after the other: each pair taken in turn is drawn at
    /// about the same time, and must not share an edge (a text line across it).
    @Test(arguments: [5, 8, 9, 16])
    func twoWorkersNeverTakeNeighbouringBandsInTurn(count: Int) {
        let order = BandedPNGExport.drawingOrder(count: count, workers: 2)
        for (first, next) in zip(order, order.dropFirst()) {
            #expect(abs(first - next) > 1, "\(order)")
        }
    }

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
