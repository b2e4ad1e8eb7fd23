import CEaselPNG
import Dispatch
import EaselSupport
import FoundationEssentials
import Glibc

/// Easel's own PNG writer for the default settings (UP filter, fast deflate): signature,
/// IHDR, sRGB, the scanlines deflated by ISA-L in row bands, one IDAT chunk per band, IEND,
/// each chunk with its CRC. The rows are cut in bands of 256, deflated on as many cores as
/// are idle (`EncoderParallelism`), each a raw deflate stream (its first byte in a stored
/// block, the rest deflated with that byte as ISA-L's dictionary; see easel_png.c for why)
/// ending in a full flush; their
/// IDAT chunks together hold one zlib stream (the header in the first, the Adler-32 of the
/// whole at the end of the last, joined from the bands' own as parallel gzip tools do): an
/// ordinary PNG, with the same bytes whatever the number of cores. Chunks go out in order
/// as soon as their band and every band before it are done, so a file export writes while
/// later bands are still deflating.
/// libpng stays the decoder and the reference the tests compare against.
enum FastPNGWriter {
    /// ISA-L's level 1: measured fastest per byte saved (docs/performance.md, PNG settings).
    static let deflateLevel: Int32 = 1
    /// Rows per band (and per strip of a large image drawn in strips). Bands are cut the same
    /// way whatever the number of cores, so the file's bytes never depend on the machine or
    /// on how busy it is; only how many bands are deflated at once does. 256 rather than 512:
    /// a card's eight bands share out between two cores more evenly than four, where a band
    /// across two photos took twice as long as the others (the app's typical card drawn and
    /// encoded 10 % sooner; docs/performance.md §11).
    static let bandRows = 256

    /// The PNG file's bytes. `bandRows` tests a different cut; `threads` how many cores
    /// deflate (default: the idle ones).
    static func encode(_ image: RasterImage, keepAlpha: Bool, bandRows: Int = bandRows, threads: Int? = nil) throws(PNGError)
        -> [UInt8]
    {
        let file = Locked<[UInt8]>([])
        try encode(image, keepAlpha: keepAlpha, bandRows: bandRows, threads: threads) { bytes in
            file.withLock { $0.append(contentsOf: bytes) }
        }
        return file.withLock { $0 }
    }

    /// Hands the PNG file's bytes to `emit`, in order, one chunk or a few at a time, as they
    /// are made (from whichever thread finished a band; never two calls at once).
    static func encode(
        _ image: RasterImage, keepAlpha: Bool, bandRows: Int = bandRows, threads: Int? = nil,
        emit: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(PNGError) {
        let width = image.width, height = image.height
        let ranges = stride(from: 0, to: height, by: max(1, bandRows)).map { $0..<min(height, $0 + max(1, bandRows)) }
        let threads = max(1, min(threads ?? EncoderParallelism.threads(), ranges.count))

        emitHeader(width: width, height: height, keepAlpha: keepAlpha, emit: emit)

        // Bands finish in any order; each is emitted once it and every band before it are done.
        let output = Locked(BandOutput(count: ranges.count))
        image.withUnsafePixels { pixels in
            // The pixels stay alive and unchanged for the whole call: each band only reads them.
            let address = UInt(bitPattern: pixels.baseAddress!)
            let stride = image.stride
            Parallel.forEach(count: ranges.count, workers: threads) { index in
                let range = ranges[index]
                let band = deflate(
                    rowsAt: UnsafePointer<UInt8>(bitPattern: address)! + range.lowerBound * stride, count: range.count,
                    width: width, stride: stride, keepAlpha: keepAlpha, last: index == ranges.count - 1)
                output.withLock { $0.finish(band, at: index, emit: emit) }
            }
        }
        // After a failure, bands that were never emitted still hold their buffers.
        if let failure = output.withLock({ $0.failure }) {
            output.withLock { $0.discardWaiting() }
            throw failure
        }
        emitTrailer(emit: emit)
    }

    /// The signature, IHDR and sRGB chunks.
    static func emitHeader(width: Int, height: Int, keepAlpha: Bool, emit: (UnsafeRawBufferPointer) -> Void) {
        var head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // IHDR: size, 8 bits, RGB (2) or RGBA (6), deflate, adaptive filtering method, no interlace.
        appendChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, keepAlpha ? 6 : 2, 0, 0, 0], to: &head)
        appendChunk("sRGB", [0], to: &head)  // perceptual, as libpng's png_set_sRGB writes it
        head.withUnsafeBytes { emit($0) }
    }

    /// The IEND chunk.
    static func emitTrailer(emit: (UnsafeRawBufferPointer) -> Void) {
        var tail: [UInt8] = []
        appendChunk("IEND", [], to: &tail)
        tail.withUnsafeBytes { emit($0) }
    }

    /// The band of `count` rows starting at `rows` (`stride` bytes apart), filtered and
    /// deflated: the encoder reads no row outside them. `last` ends the zlib stream.
    static func deflate(
        rowsAt rows: UnsafePointer<UInt8>, count: Int, width: Int, stride: Int, keepAlpha: Bool, last: Bool
    ) -> Band {
        var band = Band()
        var buffer = easel_png_buffer()
        var length = 0
        let status = easel_png_encode_band(
            rows, UInt32(width), stride, 0, UInt32(count), keepAlpha ? 1 : 0, deflateLevel, last ? 1 : 0, &buffer,
            &band.adler, &length)
        band.length = length
        if status == EASEL_PNG_OK {
            band.deflated = buffer
        } else {
            easel_png_buffer_free(&buffer)
            band.failure = bandFailure(status)
        }
        return band
    }

    /// One band's deflate stream (in the C buffer, freed once emitted), and the Adler-32 and
    /// count of its filtered bytes.
    struct Band: @unchecked Sendable {
        var deflated = easel_png_buffer()
        var adler: UInt32 = 1
        var length = 0
        var failure: PNGError?
    }

    /// The bands done and not yet emitted, the next to emit, and the zlib stream's running
    /// Adler-32.
    struct BandOutput: @unchecked Sendable {
        var waiting: [Band?]
        var next = 0
        var adler: UInt32 = 1
        var failure: PNGError?

        init(count: Int) { waiting = Array(repeating: nil, count: count) }

        /// Records band `index` and emits, in order, every band now ready: each an IDAT
        /// chunk, the first starting the zlib stream, the last ending it with its Adler-32.
        mutating func finish(_ band: Band, at index: Int, emit: (UnsafeRawBufferPointer) -> Void) {
            waiting[index] = band
            while failure == nil, next < waiting.count, var ready = waiting[next] {
                waiting[next] = nil
                defer { easel_png_buffer_free(&ready.deflated) }
                if let bandFailure = ready.failure {
                    failure = bandFailure
                    break
                }
                adler = next == 0 ? ready.adler : easel_png_adler32_combine(adler, ready.adler, ready.length)
                let first = next == 0, last = next == waiting.count - 1
                let data = UnsafeRawBufferPointer(start: ready.deflated.bytes, count: ready.deflated.length)
                let length = (first ? 2 : 0) + data.count + (last ? 4 : 0)
                guard length <= Int(Int32.max) else {
                    failure = .encodeFailed("a band's compressed rows (\(length) bytes) do not fit in one PNG chunk")
                    break
                }
                // Length, type and the zlib header; the band's bytes straight from its buffer;
                // the Adler-32 and the CRC of type and data.
                var before = bigEndian(UInt32(length)) + Array("IDAT".utf8)
                if first { before += [0x78, 0x01] }  // deflate, 32 KiB window, fastest
                let after = last ? bigEndian(adler) : []
                var crc = before.withUnsafeBufferPointer { easel_png_crc32(0, $0.baseAddress! + 4, $0.count - 4) }
                crc = easel_png_crc32(crc, ready.deflated.bytes, data.count)
                crc = after.withUnsafeBufferPointer { easel_png_crc32(crc, $0.baseAddress, $0.count) }
                before.withUnsafeBytes { emit($0) }
                emit(data)
                (after + bigEndian(crc)).withUnsafeBytes { emit($0) }
                next += 1
            }
            if failure == nil, let bandFailure = band.failure { failure = bandFailure }
        }

        /// Frees the buffers of bands that will not be emitted.
        mutating func discardWaiting() {
            for index in waiting.indices {
                if var band = waiting[index] { easel_png_buffer_free(&band.deflated) }
                waiting[index] = nil
            }
        }
    }

    /// The bytes of ISA-L's stream state (`deflateBand(_:rows:keepAlpha:stateAt:)`).
    static var deflateStateSize: Int { easel_png_deflate_state_size() }

    /// One band's raw deflate stream (not the last band: it ends in a full flush), with
    /// ISA-L's stream state in `state` (`deflateStateSize` bytes, 16-byte aligned) instead of
    /// memory the encoder allocates. The tests place it at thousands of addresses: the bytes
    /// must not change (ISA-L 2.30 once made them depend on it, see easel_png.c).
    static func deflateBand(_ image: RasterImage, rows: Range<Int>, keepAlpha: Bool, stateAt state: UnsafeMutableRawPointer)
        throws(PNGError) -> [UInt8]
    {
        var buffer = easel_png_buffer()
        defer { easel_png_buffer_free(&buffer) }
        var adler: UInt32 = 1
        var length = 0
        let status = image.withUnsafePixels { pixels in
            easel_png_encode_band_in(
                state, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width), image.stride,
                UInt32(rows.lowerBound), UInt32(rows.upperBound), keepAlpha ? 1 : 0, deflateLevel, 0, &buffer, &adler, &length)
        }
        guard status == EASEL_PNG_OK else { throw bandFailure(status) }
        return Array(UnsafeBufferPointer(start: buffer.bytes, count: buffer.length))
    }

    /// The error for a band the C encoder could not make.
    static func bandFailure(_ status: easel_png_status) -> PNGError {
        status == EASEL_PNG_OUT_OF_MEMORY ? .outOfMemory : .encodeFailed("ISA-L could not deflate")
    }

    /// Whether every pixel of `image` is opaque, its rows checked in bands on the idle cores.
    static func isOpaque(_ image: RasterImage, bandRows: Int = bandRows) -> Bool {
        let height = image.height, width = image.width, stride = image.stride
        let bands = (height + bandRows - 1) / bandRows
        let transparent = Locked(false)
        image.withUnsafePixels { pixels in
            let address = UInt(bitPattern: pixels.baseAddress!)
            Parallel.forEach(count: bands, workers: EncoderParallelism.threads()) { index in
                // Another band already found a transparent pixel: the answer is known.
                guard !transparent.withLock({ $0 }) else { return }
                let first = index * bandRows, end = min(height, first + bandRows)
                let opaque = easel_png_rows_are_opaque(
                    UnsafePointer<UInt8>(bitPattern: address), UInt32(width), stride, UInt32(first), UInt32(end))
                if opaque == 0 { transparent.withLock { $0 = true } }
            }
        }
        return !transparent.withLock { $0 }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        var crc = typeBytes.withUnsafeBufferPointer { easel_png_crc32(0, $0.baseAddress, $0.count) }
        crc = data.withUnsafeBufferPointer { easel_png_crc32(crc, $0.baseAddress, $0.count) }
        png += bigEndian(crc)
    }
}

/// How many cores an encode may use: all of them when it runs alone (one export, or the
/// last documents of a batch), one when a batch keeps every core busy. Batches say how many
/// documents are in flight; the encoder takes the cores nobody else is using.
public enum EncoderParallelism {
    private static let busy = Locked(0)
    /// The cores a batch may use in all (its `--jobs`), while `withCoreBudget` runs.
    private static let budget = Locked<Int?>(nil)

    /// Runs `body` with at most `cores` cores for every document in flight together: a batch
    /// of `--jobs N` then uses N cores, each document the ones the others leave, so
    /// `--jobs 1` renders on one core and `--jobs 2` on two, one document each.
    public static func withCoreBudget<T>(_ cores: Int, _ body: () throws -> T) rethrows -> T {
        budget.withLock { $0 = max(1, cores) }
        defer { budget.withLock { $0 = nil } }
        return try body()
    }

    /// Marks one more document in flight until `end()` (a batch's worker calls these).
    public static func begin() { busy.withLock { $0 += 1 } }
    /// Marks a document done.
    public static func end() { busy.withLock { $0 = max(0, $0 - 1) } }

    /// The cores an encode may use now: the idle ones plus its own (at most `EASEL_THREADS`,
    /// when set, which the benchmark uses to measure one core against two).
    public static func threads() -> Int {
        let others = max(0, busy.withLock { $0 } - 1)
        return max(1, min(cores, budget.withLock { $0 } ?? .max) - others)
    }

    /// The cores this process may use, read once (the cgroup's quota files are read on every
    /// count, and an export asks several times).
    private static let cores: Int = {
        let limit = getenv("EASEL_THREADS").flatMap { Int(String(cString: $0)) }.map { max(1, $0) } ?? .max
        return min(Parallel.availableProcessors, limit)
    }()
}
