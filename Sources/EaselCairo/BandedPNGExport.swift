import CEaselPNG
import EaselSupport

/// Draws an image band by band and deflates each band as soon as it is drawn, so that the
/// whole image never exists at once: each worker draws a band of `FastPNGWriter.bandRows`
/// rows into a buffer of its own (reused for its next band, so the process touches about
/// two bands of fresh memory instead of the whole image), deflates it while its rows are
/// still in the cache, and the chunks go out in order as `FastPNGWriter.encode` emits them.
///
/// The file's bytes are exactly those of drawing the whole image in the same bands and
/// encoding it with `FastPNGWriter`: the bands are the same rows, and the encoder never reads
/// a row outside a band (a band's first row is filtered against zeros), so no band waits for
/// another.
enum BandedPNGExport {
    /// What `encode` did.
    enum Outcome {
        /// The whole file was emitted.
        case encoded
        /// A band held a pixel that is not opaque under `checkOpaque`: what was
        /// emitted must be thrown away, and the image encoded another way.
        case notOpaque
    }

    /// Draws `width` x `height` pixels band by band (`draw` fills a band's rows, given as an
    /// image whose first row is the band's first row, and the band's rows) and hands the
    /// PNG file's bytes to `emit` in order, RGBA with `keepAlpha`, else RGB. With
    /// `checkOpaque`, each band is checked first: a pixel that is not opaque stops the work
    /// (`.notOpaque`).
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
        let buffers = Locked<[RasterImage]>([])
        let stop = Locked<Stop?>(nil)
        Parallel.forEach(count: ranges.count, workers: threads) { index in
            guard stop.withLock({ $0 == nil }) else { return }
            let range = ranges[index]
            let buffer: RasterImage
            do {
                // A buffer this export used before, or new memory.
                if let reused = buffers.withLock({ $0.popLast() }) {
                    buffer = reused
                } else {
                    buffer = try RasterImage(sharing: PixelBuffer.forOutput(width: width, height: bandRows))
                }
            } catch {
                stop.withLock { $0 = $0 ?? .failed(error) }
                return
            }
            defer { buffers.withLock { $0.append(buffer) } }
            let stride = buffer.stride
            do {
                // A reused buffer still holds its last band; a drawing starts on transparent
                // black, as a new image does.
                buffer.withUnsafeMutablePixels { pixels in
                    _ = pixels.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: range.count * stride)
                }
                let band = try buffer.strip(rows: 0..<range.count)
                try draw(band, range)
                band.withUnsafePixels { _ in }  // flushes the band's drawing into the buffer
            } catch {
                stop.withLock { $0 = $0 ?? .failed(error) }
                return
            }
            let deflated: FastPNGWriter.Band? = buffer.withUnsafePixels { pixels in
                let rows = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if checkOpaque && easel_png_rows_are_opaque(rows, UInt32(width), stride, 0, UInt32(range.count)) == 0 {
                    return nil
                }
                return FastPNGWriter.deflate(
                    rowsAt: rows, count: range.count, width: width, stride: stride, keepAlpha: keepAlpha,
                    last: index == ranges.count - 1)
            }
            guard let deflated else {
                stop.withLock { $0 = $0 ?? .notOpaque }
                return
            }
            output.withLock { $0.finish(deflated, at: index, emit: emit) }
        }
        // After a stop, bands that were never emitted still hold their buffers.
        output.withLock { $0.discardWaiting() }
        // The buffers' megabytes of touched pages are unmapped on another core while this one
        // ends the file and waits for the disk (about 0.4 ms for two 1300-pixel bands).
        var spent = buffers.withLock { buffers in
            defer { buffers = [] }
            return buffers
        }
        if threads > 1 { Parallel.releaseInBackground(all: &spent) }
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
