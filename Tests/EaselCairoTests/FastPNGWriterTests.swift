import Testing
import Foundation
import EaselGeometry
@testable import EaselCairo
import EaselTestSupport
import CEaselSystem
import CEaselPNG

/// Easel's own PNG writer against libpng (the reference) and cairo's reader: every file it
/// writes, in any number of bands, decodes to the very pixels libpng's encoding of the same
/// image decodes to.
@Suite("Fast PNG writer")
struct FastPNGWriterTests {
    /// Noise with every alpha, so rounding and transparency are all exercised.
    static func image(width: Int, height: Int, opaque: Bool, seed: UInt32) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var state = seed
        image.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let a = opaque ? 255 : (state >> 24) & 0xFF
                    func channel(_ shift: UInt32) -> UInt32 { (((state >> shift) & 0xFF) * a) / 255 }
                    let value = a << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
                    pixels.storeBytes(of: value, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
                }
            }
        }
        return image
    }

    static func pixels(_ image: RasterImage) -> [RGBA8] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image.premultipliedPixel(x: x, y: y) } }
    }

    @Test(arguments: [(1, 1), (3, 2), (17, 1025), (257, 300), (1001, 777)])
    func everySizeAndBandCountDecodesAsLibpngsDoes(size: (Int, Int)) throws {
        let folder = TemporaryFolder()
        for opaque in [true, false] {
            let image = try Self.image(width: size.0, height: size.1, opaque: opaque, seed: UInt32(size.0 * 31 + size.1))
            // libpng's encoding of the same image (zlib level 2 takes libpng's path).
            let reference = Self.pixels(
                try PNGDecoder.decode(try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: 2))))
            for bandRows in [1, 2, 100, 512, 2000] {
                let bytes = try FastPNGWriter.encode(image, keepAlpha: !opaque, bandRows: bandRows, threads: 2)
                let bands = (size.1 + bandRows - 1) / bandRows
                let header = try PNGDecoder.header(of: bytes)
                #expect(header.colorType == (opaque ? 2 : 6), "RGB when opaque, RGBA otherwise")
                #expect(
                    Self.pixels(try PNGDecoder.decode(bytes)) == reference, "\(size) opaque \(opaque), \(bands) bands: libpng")
                let url = try folder.write(bytes, to: "fast.png")
                #expect(
                    Self.pixels(try RasterImage.readPNGWithCairo(at: url.path)) == reference,
                    "\(size) opaque \(opaque), \(bands) bands: cairo")
            }
        }
    }

    /// The RGB scanline filter's fast version (SSSE3 on x86-64) against its portable C one,
    /// on noise in every byte (X included, which both must drop), at every width up to 40
    /// (every tail the four-pixel steps leave) and a few wide ones.
    @Test func theFastScanlineFilterGivesThePortableFiltersBytes() {
        #if arch(x86_64)
            // Every x86-64 machine Easel runs on has SSSE3: the comparison is of two filters.
            #expect(easel_png_filter_uses_ssse3() == 1, "the SSSE3 filter is the one in use")
        #endif
        var state: UInt32 = 12345
        for width in Array(1...40) + [257, 1300, 2601] {
            let rows = 5
            let pixels = (0..<width * rows).map { _ -> UInt32 in
                state = state &* 1_664_525 &+ 1_013_904_223
                return state
            }
            #expect(easel_png_filter_rows_agree(pixels, UInt32(width), UInt32(rows)) == 1, "width \(width)")
        }
    }

    @Test func theDefaultEncodingUsesTheFastWriterAndStaysCloseToZlibsSize() throws {
        let image = try Self.image(width: 600, height: 900, opaque: true, seed: 7)
        // A photo-like gradient with grain compresses; pure noise does not: use a drawn one.
        let context = try CairoContext(image: image)
        var band = Path()
        band.addRect(Rect(x: 0, y: 0, width: 600, height: 450))
        try context.setSource(Color(red: 0.2, green: 0.5, blue: 0.7))
        try context.fill(band)
        let fast = try PNGEncoder.encode(image)
        let zlib = try PNGEncoder.encode(image, options: PNGEncodingOptions(compressionLevel: 1, filters: .sub))
        #expect(Self.pixels(try PNGDecoder.decode(fast)) == Self.pixels(try PNGDecoder.decode(zlib)))
        #expect(Double(fast.count) <= Double(zlib.count) * 1.15 + 1024, "fast \(fast.count) vs zlib \(zlib.count)")
        // The same bytes whatever the number of cores that deflate.
        for threads in [1, 2, 5] {
            #expect(try FastPNGWriter.encode(image, keepAlpha: false, threads: threads) == fast, "\(threads) threads")
        }
    }

    @Test func theBytesNeverDependOnWhatTheMemoryHeldBefore() throws {
        // Large enough for several 128 KiB pieces a band, and drawn (flat colours, repeated
        // shapes) so that deflate finds matches: the hash tables matter only then.
        let image = try RasterImage(width: 1950, height: 3000)
        let context = try CairoContext(image: image)
        try context.setSource(Color(red: 0.95, green: 0.9, blue: 0.8))
        try context.paint()
        for index in 0..<60 {
            var shape = Path()
            shape.addEllipse(in: Rect(x: Double(index * 41 % 1800), y: Double(index * 73 % 2900), width: 260, height: 190))
            try context.setSource(Color(red: Double(index % 3) / 3, green: 0.5, blue: 0.8))
            try context.fill(shape)
        }
        // glibc fills every block malloc returns with a byte of our choosing (M_PERTURB):
        // any byte the encoder reads without having written it shows as a difference.
        defer { easel_fill_new_memory(0) }
        var encodings: [[UInt8]] = []
        for (perturb, threads) in [(0x11, 1), (0xEE, 1), (0x5A, 2), (0xA5, 2)] {
            easel_fill_new_memory(Int32(perturb))
            encodings.append(try FastPNGWriter.encode(image, keepAlpha: false, threads: threads))
        }
        easel_fill_new_memory(0)
        #expect(Set(encodings).count == 1, "\(encodings.map(\.count)) bytes")
        let decoded = try PNGDecoder.decode(encodings[0])
        for (x, y) in [(0, 0), (975, 1500), (1949, 2999)] {
            #expect(decoded.premultipliedPixel(x: x, y: y) == image.premultipliedPixel(x: x, y: y))
        }
    }

    /// Bytes of address space the placement test reserves (never committed: `MAP_NORESERVE`).
    static let stateArenaBytes = 1 << 33

    /// Whether this machine lets a process reserve `stateArenaBytes` (not under strict
    /// overcommit or a `ulimit -v`).
    static let canReserveStateArena: Bool = {
        let probe = mmap(nil, stateArenaBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let probe, probe != MAP_FAILED else { return false }
        munmap(probe, stateArenaBytes)
        return true
    }()

    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["EASEL_SANITIZER"] == nil, "65,536 encodes: not a concurrency test"),
        .enabled(if: canReserveStateArena, "needs 8 GiB of address space reserved, never committed"))
    func theBytesNeverDependOnWhereTheDeflateStateLives() throws {
        // ISA-L 2.30 hashed the address of its stream state when it deflated a stream's first
        // byte: the same rows gave other bytes, now and then, in another process (see
        // easel_png.c). The state is placed at 65,536 addresses 64 KiB apart, from a 4 GiB
        // boundary, so that bits 16 to 31 of the address, the ones that reached the hash,
        // take every value; the band must come out the same every time. Before the fix, 16
        // placements gave other bytes for these rows (whatever the colour, in every run).
        let image = try RasterImage(width: 256, height: 8)
        let context = try CairoContext(image: image)
        try context.setSource(Color(red: 1, green: 0.8, blue: 0))
        try context.paint()
        // From the second row: the band's first line is stored as it is (NONE), every later
        // line UP-filtered to zeros. (Without the fix, 8 of the placements still give other
        // bytes for these rows; an all-black band, all zeros, does not show it.)
        let rows = 1..<8
        let placements = 1 << 16, spacing = 1 << 16
        let reserved = Self.stateArenaBytes
        guard let raw = mmap(nil, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
            raw != MAP_FAILED
        else { throw PNGError.outOfMemory }
        defer { munmap(raw, reserved) }
        let boundary = 1 << 32
        let arena = raw + (boundary - Int(bitPattern: UInt(bitPattern: raw)) % boundary) % boundary
        let reference = try FastPNGWriter.deflateBand(image, rows: rows, keepAlpha: false, stateAt: arena)
        var differing: [Int] = []
        for placement in 1..<placements {
            // The state is larger than the spacing: one placement is used at a time, and the
            // encoder clears its state first.
            let state = arena + placement * spacing
            let bytes = try FastPNGWriter.deflateBand(image, rows: rows, keepAlpha: false, stateAt: state)
            if bytes != reference { differing.append(placement) }
            // Give the pages back.
            madvise(state, FastPNGWriter.deflateStateSize, Int32(MADV_DONTNEED))
        }
        #expect(differing.isEmpty, "\(differing.count) placements gave other bytes: \(differing.prefix(8))")
    }
}
