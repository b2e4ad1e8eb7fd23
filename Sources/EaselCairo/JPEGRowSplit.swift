import CEaselJPEG
import EaselSupport

/// A camera JPEG decoded on two cores when one is idle, as a camera PNG is
/// (`PNGDecoder.usesTwoThreads`): a JPEG's data is one stream of variable-length codes
/// (no restart markers in what cameras and encoders write by default), so it cannot be cut
/// where a second decoder could start; but making pixels of the codes (the inverse DCT,
/// upsampling, colour conversion) costs as much again. So one thread decodes the top rows,
/// while another reads past them — decoding their codes only, which is all the rows below
/// depend on (`easel_jpeg_decode_rows`) — and then decodes the bottom rows. The pixels are
/// those of one decoder, byte for byte.
enum JPEGRowSplit {
    /// The first row the bottom thread decodes, for a JPEG with `header` decoded at
    /// `eighths`/8 into `outputHeight` rows; nil to decode on one thread: a file of several
    /// scans (its codes are all read before any row comes out), an image under a camera
    /// photo's pixels, one decoded at an eighth (making pixels then costs next to nothing),
    /// or no idle core.
    static func row(for header: ImageDecoder.Header, eighths: Int, outputHeight: Int) -> Int? {
        let pixels = header.width.multipliedReportingOverflow(by: header.height)
        guard header.workBytes == 0, !pixels.overflow, pixels.partialValue >= PixelBuffer.cameraPhotoPixels,
            (2...8).contains(eighths), outputHeight >= 64, !oneOfSeveral.value, EncoderParallelism.threads() > 1
        else { return nil }
        // Both threads finish together when the top's share k of the rows, made into pixels
        // (time k·T, T the whole decode's), takes as long as the bottom reading past it (k·C,
        // C the codes' share of T) and making the rest (1−k)·T: k = 1 / (2 − C/T). C/T by
        // scale, measured on a 4000x3000 camera-like photo (libjpeg-turbo 2.1, 1/8 taken as
        // the codes alone): 0.89 at 2/8, 0.70 at 3/8, 0.81 at 4/8 (its inverse DCT has SIMD),
        // 0.47 at 5/8, 0.40 at 6/8, 0.25 at 7/8, 0.37 at 8/8.
        let codeShare = [0.89, 0.70, 0.81, 0.47, 0.40, 0.25, 0.37][eighths - 2]
        return Int(Double(outputHeight) / (2 - codeShare))
    }

    /// Whether this thread's decodes are among several going on at once (`decodingOneOfSeveral`).
    private static let oneOfSeveral = ThreadLocal<Bool> { false }

    /// Runs `work` with this thread's JPEG decodes on one thread each: a caller decoding
    /// several photos at once keeps the cores busy already, and a split would only add the
    /// bottom's reading past the top (a third more work, done no sooner).
    static func decodingOneOfSeveral<T>(_ several: Bool, _ work: () throws -> T) rethrows -> T {
        let previous = oneOfSeveral.value
        oneOfSeveral.value = several
        defer { oneOfSeveral.value = previous }
        return try work()
    }

    /// Decodes `bytes` into `pixels` at `eighths`/8, rows from `split` on by another thread;
    /// false when either part did not decode whole (a damaged or cut-short file, a deadline
    /// passed, no thread started): the caller decodes on one thread, which says why and draws
    /// a cut-short file as it always did.
    static func decode(_ bytes: [UInt8], into pixels: PixelBuffer, eighths: Int, splitAt split: Int, deadline: UInt64?)
        -> Bool
    {
        let timeAllowed: UInt64?
        do { timeAllowed = try DecodeDeadline.nanosecondsLeft(before: deadline) } catch { return false }
        let target = UncheckedSendable(pixels.bytes.assumingMemoryBound(to: UInt8.self))
        let stride = pixels.stride
        @Sendable func decodeRows(_ rows: Range<Int>) -> easel_jpeg_status {
            var limits = easel_jpeg_limits()
            limits.max_scans = Int32(ImageDecoder.maxJPEGScans)
            limits.time_allowed_ns = timeAllowed ?? 0
            // A file cut short is decoded again on one thread, which pads it as always: both
            // halves stop where the data ends rather than pad a large image twice over.
            limits.stop_when_cut_short = 1
            return easel_jpeg_decode_rows(
                bytes, bytes.count, target.value, stride, &limits, UInt32(eighths), UInt32(rows.lowerBound),
                UInt32(rows.upperBound), nil, 0)
        }
        let bottom = Locked(EASEL_JPEG_ERROR)
        let height = pixels.height
        guard let thread = StartedThread.start({ bottom.withLock { $0 = decodeRows(split..<height) } }) else { return false }
        let top = decodeRows(0..<split)
        thread.join()
        return top == EASEL_JPEG_OK && bottom.withLock { $0 } == EASEL_JPEG_OK
    }
}
