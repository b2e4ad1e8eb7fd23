import CEaselPNG
import Dispatch
import EaselSupport
import Foundation

/// Easel's own PNG writer for the default settings (UP filter, fast deflate): signature,
/// IHDR, sRGB, the scanlines deflated by ISA-L in row bands, IDAT, IEND, each chunk with its
/// CRC. The rows are cut in bands of 512, deflated on as many cores as are idle
/// (`EncoderParallelism`), each a raw deflate stream ending in a full flush, joined into one
/// zlib stream with one Adler-32 (as parallel gzip tools do): an ordinary PNG, with the same
/// bytes whatever the number of cores.
/// libpng stays the decoder and the reference the tests compare against.
enum FastPNGWriter {
    /// ISA-L's level 1: measured fastest per byte saved (README, PNG settings).
    static let deflateLevel: Int32 = 1
    /// Rows per band. Bands are cut the same way whatever the number of cores, so the file's
    /// bytes never depend on the machine or on how busy it is; only how many bands are
    /// deflated at once does.
    static let bandRows = 512

    /// `bandRows` tests a different cut; `threads` how many cores deflate (default: the idle ones).
    static func encode(_ image: RasterImage, keepAlpha: Bool, bandRows: Int = bandRows, threads: Int? = nil) throws(PNGError)
        -> [UInt8]
    {
        let width = image.width, height = image.height
        let rowBytes = 1 + width * (keepAlpha ? 4 : 3)
        let ranges = stride(from: 0, to: height, by: max(1, bandRows)).map { $0..<min(height, $0 + max(1, bandRows)) }
        let threads = max(1, min(threads ?? EncoderParallelism.threads(), ranges.count))

        // Each band: filtered rows (one buffer per band), their Adler-32, their deflate stream
        // (left in ISA-L's buffer, whose address is kept, and copied once, into the PNG).
        struct Band: Sendable {
            var deflatedAddress: UInt = 0
            var deflatedCount = 0
            var adler: UInt32 = 1
            var length = 0
            var failure: PNGError?
            var deflated: UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(start: UnsafePointer(bitPattern: deflatedAddress), count: deflatedCount)
            }
        }
        let results = Locked([Band](repeating: Band(), count: ranges.count))
        defer {
            for band in results.withLock({ $0 }) { free(UnsafeMutableRawPointer(bitPattern: band.deflatedAddress)) }
        }
        image.withUnsafePixels { pixels in
            // The pixels stay alive and unchanged for the whole call: each band only reads them.
            let address = UInt(bitPattern: pixels.baseAddress!)
            let stride = image.stride
            let work = { @Sendable (index: Int) in
                let base = UnsafePointer<UInt8>(bitPattern: address)!
                let range = ranges[index]
                var band = Band()
                // Every byte is written by the filter: no need to clear the buffer first.
                var written = 0
                let filtered = [UInt8](unsafeUninitializedCapacity: range.count * rowBytes) { buffer, count in
                    written = easel_png_filter_rows(
                        base, UInt32(width), stride, UInt32(range.lowerBound), UInt32(range.upperBound), keepAlpha ? 1 : 0,
                        buffer.baseAddress)
                    count = written == buffer.count ? written : 0
                }
                if written != range.count * rowBytes {
                    band.failure = .outOfMemory
                } else {
                    band.length = written
                    band.adler = filtered.withUnsafeBufferPointer { easel_png_adler32(1, $0.baseAddress, $0.count) }
                    var buffer = easel_png_buffer()
                    let status = filtered.withUnsafeBufferPointer {
                        easel_png_deflate_band($0.baseAddress, $0.count, deflateLevel, index == ranges.count - 1 ? 1 : 0, &buffer)
                    }
                    if status == EASEL_PNG_OK {
                        band.deflatedAddress = UInt(bitPattern: buffer.bytes)
                        band.deflatedCount = buffer.length
                    } else {
                        easel_png_buffer_free(&buffer)
                        band.failure = status == EASEL_PNG_OUT_OF_MEMORY ? .outOfMemory : .encodeFailed("ISA-L could not deflate")
                    }
                }
                results.withLock { $0[index] = band }
            }
            Parallel.forEach(count: ranges.count, workers: threads, work)
        }
        let bands = results.withLock { $0 }
        if let failure = bands.compactMap(\.failure).first { throw failure }

        // The zlib stream: header (deflate, 32 KiB window, fastest), the bands, Adler-32.
        var adler = bands[0].adler
        for band in bands.dropFirst() { adler = easel_png_adler32_combine(adler, band.adler, band.length) }
        let idatLength = 2 + bands.reduce(0) { $0 + $1.deflatedCount } + 4
        guard idatLength <= Int(Int32.max) else {
            throw .encodeFailed("the compressed image (\(idatLength) bytes) does not fit in one PNG chunk")
        }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(idatLength + 128)
        // IHDR: size, 8 bits, RGB (2) or RGBA (6), deflate, adaptive filtering method, no interlace.
        appendChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, keepAlpha ? 6 : 2, 0, 0, 0], to: &png)
        appendChunk("sRGB", [0], to: &png)  // perceptual, as libpng's png_set_sRGB writes it
        // IDAT, written in place: each band's bytes are copied once, and the CRC covers them there.
        png += bigEndian(UInt32(idatLength))
        let typeStart = png.count
        png += Array("IDAT".utf8) + [0x78, 0x01]
        for band in bands { png.append(contentsOf: band.deflated) }
        png += bigEndian(adler)
        let crc = png.withUnsafeBufferPointer { easel_png_crc32(0, $0.baseAddress! + typeStart, $0.count - typeStart) }
        png += bigEndian(crc)
        appendChunk("IEND", [], to: &png)
        return png
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

    /// Marks one more document in flight until `end()` (a batch's worker calls these).
    public static func begin() { busy.withLock { $0 += 1 } }
    /// Marks a document done.
    public static func end() { busy.withLock { $0 = max(0, $0 - 1) } }

    /// The cores an encode may use now: the idle ones plus its own (at most `EASEL_THREADS`,
    /// when set, which the benchmark uses to measure one core against two).
    public static func threads() -> Int {
        let cores = min(
            ProcessInfo.processInfo.activeProcessorCount,
            ProcessInfo.processInfo.environment["EASEL_THREADS"].flatMap(Int.init).map { max(1, $0) } ?? .max)
        let others = max(0, busy.withLock { $0 } - 1)
        return max(1, cores - others)
    }
}
