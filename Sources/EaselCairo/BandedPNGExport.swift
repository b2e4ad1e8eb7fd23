import CEaselPNG
import Dispatch
import EaselSupport

/// Draws an image band by band and deflates each band as soon as it is drawn, so that the
/// whole image never exists at once: each worker draws a band of `FastPNGWriter.bandRows`
/// rows into a buffer of its own (reused for its next band, so the process touches about
/// two bands of fresh memory instead of the whole image), deflates it while its rows are
/// still in the cache, and the chunks go out in order as `FastPNGWriter.encode` emits them.
///
/// The file's bytes are exactly those of drawing the whole image in the same bands and
/// encoding it with `FastPNGWriter`: the bands are the same rows, and the UP filter of a
/// band's first row takes the row above from the band before it (a copy handed over once
/// that band is drawn), never from a second drawing of that row.
enum BandedPNGExport {
    /// What `encode` did.
    enum Outcome {
        /// The whole file was emitted.
        case encoded
        /// A band held a pixel that is not opaque while `opaque` was promised: what was
        /// emitted must be thrown away, and the image encoded another way.
        case notOpaque
    }

    /// Draws `width` x `height` pixels band by band (`draw` fills a band's rows, given as an
    /// image whose first row is the band's first row, and the band's rows) and hands the
    /// PNG file's bytes to `emit` in order. With `opaque`, the file is RGB and each band is
    /// checked: the first pixel that is not opaque stops the work (`.notOpaque`).
    static func encode(
        width: Int, height: Int, keepAlpha: Bool, checkOpaque: Bool, bandRows: Int = FastPNGWriter.bandRows,
        threads: Int? = nil, draw: @escaping @Sendable (RasterImage, Range<Int>) throws -> Void,
        emit: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws -> Outcome {
        precondition(width > 0 && height > 0 && bandRows > 0, "an image and its bands need rows and columns")
        let ranges = stride(from: 0, to: height, by: bandRows).map { $0..<min(height, $0 + bandRows) }
        let threads = max(1, min(threads ?? EncoderParallelism.threads(), ranges.count))
        FastPNGWriter.emitHeader(width: width, height: height, keepAlpha: keepAlpha, emit: emit)

        let output = Locked(FastPNGWriter.BandOutput(count: ranges.count))
        let rowsAbove = RowHandOff(count: ranges.count)
        let buffers = Locked<[RasterImage]>([])
        let stop = Locked<Stop?>(nil)
        Parallel.forEach(count: ranges.count, workers: threads) { index in
            let range = ranges[index]
            // Every band hands its last row on, whatever happens to it, so that the band
            // after it never waits forever.
            var lastRow: [UInt8]? = nil
            defer { rowsAbove.publish(lastRow, for: index) }
            guard stop.withLock({ $0 == nil }) else { return }
            let buffer: RasterImage
            do {
                // Row 0 holds the row above the band; rows 1... the band.
                buffer = try buffers.withLock { $0.popLast() } ?? RasterImage(width: width, height: bandRows + 1)
            } catch {
                stop.withLock { $0 = $0 ?? .failed(error) }
                return
            }
            defer { buffers.withLock { $0.append(buffer) } }
            let stride = buffer.stride
            do {
                buffer.withUnsafeMutablePixels { pixels in
                    // A reused buffer still holds the last band's pixels; a drawing starts
                    // on transparent black, as a new image does.
                    (pixels.baseAddress! + stride).initializeMemory(as: UInt8.self, repeating: 0, count: range.count * stride)
                }
                let band = try buffer.strip(rows: 1..<(1 + range.count))
                try draw(band, range)
                band.withUnsafePixels { _ in }  // flushes the band's drawing into the buffer
            } catch {
                stop.withLock { $0 = $0 ?? .failed(error) }
                return
            }
            let opaque = buffer.withUnsafePixels { pixels in
                !checkOpaque
                    || easel_png_rows_are_opaque(
                        pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width), stride, 1,
                        UInt32(1 + range.count)) != 0
            }
            guard opaque else {
                stop.withLock { $0 = $0 ?? .notOpaque }
                return
            }
            lastRow = buffer.withUnsafePixels { pixels in
                Array(UnsafeRawBufferPointer(rebasing: pixels[(range.count * stride)..<(range.count * stride + width * 4)]))
            }
            // The row above, exactly as the band before drew it (nil: that band stopped).
            if index > 0 {
                guard let above = rowsAbove.wait(for: index - 1) else { return }
                buffer.withUnsafeMutablePixels { pixels in
                    above.withUnsafeBytes { pixels.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                }
            }
            guard stop.withLock({ $0 == nil }) else { return }
            var deflated = FastPNGWriter.Band()
            var chunk = easel_png_buffer()
            var length = 0
            let status = buffer.withUnsafePixels { pixels in
                // The first band has no row above it: its rows start at the buffer's row 1.
                let base = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return easel_png_encode_band(
                    index == 0 ? base + stride : base, UInt32(width), stride, index == 0 ? 0 : 1,
                    UInt32(index == 0 ? range.count : 1 + range.count), keepAlpha ? 1 : 0, FastPNGWriter.deflateLevel,
                    index == ranges.count - 1 ? 1 : 0, &chunk, &deflated.adler, &length)
            }
            deflated.length = length
            if status == EASEL_PNG_OK {
                deflated.deflated = chunk
            } else {
                easel_png_buffer_free(&chunk)
                deflated.failure = FastPNGWriter.bandFailure(status)
            }
            output.withLock { $0.finish(deflated, at: index, emit: emit) }
        }
        // After a stop, bands that were never emitted still hold their buffers.
        output.withLock { $0.discardWaiting() }
        switch stop.withLock({ $0 }) {
        case .failed(let error): throw error
        case .notOpaque: return .notOpaque
        case nil: break
        }
        if let failure = output.withLock({ $0.failure }) { throw failure }
        FastPNGWriter.emitTrailer(emit: emit)
        return .encoded
    }

    /// Why the bands stopped early.
    private enum Stop {
        case failed(any Error)
        case notOpaque
    }
}

/// Each band's last row, handed to the band below it (which waits for it). A band that
/// stopped hands on nil.
private final class RowHandOff: @unchecked Sendable {
    private let rows: Locked<[[UInt8]?]>
    private let ready: [DispatchSemaphore]

    init(count: Int) {
        rows = Locked(Array(repeating: nil, count: count))
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    /// Called once per band.
    func publish(_ row: [UInt8]?, for index: Int) {
        rows.withLock { $0[index] = row }
        ready[index].signal()
    }

    /// Called once, by the band after `index`: bands are handed out in order, so band
    /// `index` is already being worked on and publishes without waiting for anything.
    func wait(for index: Int) -> [UInt8]? {
        ready[index].wait()
        return rows.withLock { $0[index] }
    }
}
