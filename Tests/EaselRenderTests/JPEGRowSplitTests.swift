import CEaselJPEG
import EaselTestSupport
import Foundation
import Testing

@testable import EaselCairo

/// A camera JPEG decoded on two threads (the bottom's reading past the top's codes) gives
/// one decoder's pixels byte for byte, whatever the scale, the chroma sampling or the row it
/// is split at; a damaged or cut-short file, or a passed deadline, is decoded on one thread,
/// which says why as it always did.
@Suite("JPEG photos decoded on two threads")
struct JPEGRowSplitTests {
    /// The test's camera-like photo (2000x1500, 3 megapixels) as a JPEG made by cjpeg with
    /// `options` (a chroma sampling, greyscale), or nil without cjpeg.
    static func jpeg(_ options: [String], in folder: TemporaryFolder) throws -> [UInt8]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg") else { return nil }
        let source = folder.file("photo.ppm")
        if !FileManager.default.fileExists(atPath: source.path) {
            _ = try folder.write(Array("P6\n2000 1500\n255\n".utf8) + DecodeAtDrawnSizeTests.photoRGB(), to: "photo.ppm")
        }
        let out = folder.file("photo-\(options.joined()).jpg")
        let process = try Process.run(
            URL(fileURLWithPath: "/usr/bin/cjpeg"),
            arguments: ["-quality", "90"] + options + ["-outfile", out.path, source.path])
        process.waitUntilExit()
        return Array(try Data(contentsOf: out))
    }

    /// What one decoder writes at `eighths`/8: the pixels, and its status and message.
    static func oneThread(_ bytes: [UInt8], eighths: Int) -> (pixels: [UInt8], status: easel_jpeg_status, message: String) {
        let header = try! ImageDecoder.jpegHeader(bytes)
        let pixels = PixelBuffer(width: (header.width * eighths + 7) / 8, height: (header.height * eighths + 7) / 8)
        var message = [CChar](repeating: 0, count: 200)
        var limits = easel_jpeg_limits()
        let status = easel_jpeg_decode(
            bytes, bytes.count, pixels.bytes.assumingMemoryBound(to: UInt8.self), pixels.stride, &limits, UInt32(eighths),
            &message, message.count)
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (pixels.withUnsafeBytes { Array($0) }, status, text)
    }

    /// The first row at which `pixels` differ from `expected` (nil: the same bytes), so that
    /// a failure names a row rather than printing megabytes.
    static func firstDifferentRow(_ pixels: PixelBuffer, _ expected: [UInt8]) -> Int? {
        pixels.withUnsafeBytes { bytes in
            guard bytes.count == expected.count else { return -1 }
            return expected.withUnsafeBytes { expected in
                (0..<pixels.height).first { row in
                    memcmp(bytes.baseAddress! + row * pixels.stride, expected.baseAddress! + row * pixels.stride, pixels.stride)
                        != 0
                }
            }
        }
    }

    static func missingCJPEG() {
        Issue.record("libjpeg-turbo's cjpeg (Debian: libjpeg-turbo-progs) makes the test's JPEGs")
    }

    @Test func twoThreadsWriteOneDecodersBytesAtEveryScaleSamplingAndSplit() throws {
        let folder = TemporaryFolder()
        for options in [["-sample", "2x2"], ["-sample", "2x1"], ["-sample", "1x1"], ["-grayscale"]] {
            guard let bytes = try Self.jpeg(options, in: folder) else { return Self.missingCJPEG() }
            let header = try ImageDecoder.jpegHeader(bytes)
            for eighths in 1...8 {
                let whole = Self.oneThread(bytes, eighths: eighths)
                #expect(whole.status == EASEL_JPEG_OK)
                let height = (header.height * eighths + 7) / 8
                // The first and last rows, a row beside a block's edge, a third of the way,
                // the row the decoder itself would pick.
                let planned = JPEGRowSplit.row(for: header, eighths: eighths, outputHeight: height)
                for split in Set([1, 9, height / 3, height - 1] + (planned.map { [$0] } ?? [])) {
                    let pixels = PixelBuffer(width: (header.width * eighths + 7) / 8, height: height)
                    let done = JPEGRowSplit.decode(bytes, into: pixels, eighths: eighths, splitAt: split, deadline: nil)
                    #expect(done, "\(options) at \(eighths)/8 split at \(split)")
                    #expect(
                        Self.firstDifferentRow(pixels, whole.pixels) == nil, "\(options) at \(eighths)/8 split at \(split)")
                }
            }
        }
    }

    /// Rows asked for from past the last one are none: the decoder writes nothing (it had
    /// written the rows from the top, the other thread's).
    @Test func rowsAskedForFromPastTheEndAreNone() throws {
        let folder = TemporaryFolder()
        guard let bytes = try Self.jpeg(["-sample", "2x2"], in: folder) else { return Self.missingCJPEG() }
        let pixels = PixelBuffer(width: 250, height: 188)  // an eighth of 2000x1500
        memset(pixels.bytes, 0xAB, pixels.stride * pixels.height)
        var limits = easel_jpeg_limits()
        for first in [188, 200] {
            let status = easel_jpeg_decode_rows(
                bytes, bytes.count, pixels.bytes.assumingMemoryBound(to: UInt8.self), pixels.stride, &limits, 1,
                UInt32(first), 200, nil, 0)
            #expect(status == EASEL_JPEG_OK)
        }
        #expect(pixels.withUnsafeBytes { $0.allSatisfy { $0 == 0xAB } }, "no row written")
    }

    @Test func aCameraJPEGIsSplitOnlyWhereItPays() throws {
        let folder = TemporaryFolder()
        guard let bytes = try Self.jpeg(["-sample", "2x2"], in: folder) else { return Self.missingCJPEG() }
        let header = try ImageDecoder.jpegHeader(bytes)
        // At 3/8 the top thread takes about 77 % of the rows; at an eighth, none is split.
        let split = try #require(JPEGRowSplit.row(for: header, eighths: 3, outputHeight: 563))
        #expect((420..<450).contains(split))
        #expect(JPEGRowSplit.row(for: header, eighths: 1, outputHeight: 188) == nil)
        // A progressive file (its codes come in several scans) and an image under a camera
        // photo's pixels are decoded on one thread.
        guard let progressive = try Self.jpeg(["-progressive"], in: folder) else { return Self.missingCJPEG() }
        #expect(JPEGRowSplit.row(for: try ImageDecoder.jpegHeader(progressive), eighths: 8, outputHeight: 1500) == nil)
        var small = header
        (small.width, small.height) = (1000, 750)
        #expect(JPEGRowSplit.row(for: small, eighths: 8, outputHeight: 750) == nil)
        // Nor is one of several photos decoded side by side (a card's, by its prefetch): the
        // cores are busy already. The thread's own setting comes back after.
        #expect(ImageDecoder.decoding(oneOfSeveral: true) { JPEGRowSplit.row(for: header, eighths: 3, outputHeight: 563) } == nil)
        #expect(JPEGRowSplit.row(for: header, eighths: 3, outputHeight: 563) == split)
        // And the decoder's own answer is one decoder's.
        let decoded = try ImageDecoder.decodePixels(bytes, reducedBy: 3)
        #expect(Self.firstDifferentRow(decoded, Self.oneThread(bytes, eighths: 3).pixels) == nil)
    }

    @Test func aCutShortOrDamagedCameraJPEGIsDecodedOnOneThreadAsBefore() throws {
        let folder = TemporaryFolder()
        guard let bytes = try Self.jpeg(["-sample", "2x2"], in: folder) else { return Self.missingCJPEG() }
        // Cut short in the top's rows, and in the bottom's: grey from where the data ends.
        for keep in [bytes.count / 3, bytes.count * 9 / 10] {
            let cut = Array(bytes.prefix(keep))
            let one = Self.oneThread(cut, eighths: 8)
            #expect(one.status == EASEL_JPEG_TRUNCATED)
            let pixels = PixelBuffer(width: 2000, height: 1500)
            #expect(!JPEGRowSplit.decode(cut, into: pixels, eighths: 8, splitAt: 900, deadline: nil))
            // Both halves stopped where the data ends: the last row was never padded grey
            // (one decoder, below, pads it), so a large cut-short file is not padded twice.
            let lastRow = pixels.withUnsafeBytes { Array($0.suffix(pixels.stride)) }
            #expect(lastRow.allSatisfy { $0 == 0 }, "cut at \(keep)")
            let decoded = try ImageDecoder.decodePixels(cut)
            #expect(Self.firstDifferentRow(decoded, one.pixels) == nil, "cut at \(keep)")
            #expect(decoded.damage == one.message)
        }
        // Corrupt codes (bytes overwritten in the middle of the data): libjpeg's own words.
        var damaged = bytes
        for index in stride(from: bytes.count / 2, to: bytes.count / 2 + 4000, by: 7) { damaged[index] = 0xFF }
        let one = Self.oneThread(damaged, eighths: 8)
        #expect(one.status == EASEL_JPEG_ERROR)
        let pixels = PixelBuffer(width: 2000, height: 1500)
        #expect(!JPEGRowSplit.decode(damaged, into: pixels, eighths: 8, splitAt: 900, deadline: nil))
        #expect(throws: ImageError(format: .jpeg, message: one.message)) { try ImageDecoder.decodePixels(damaged) }
    }

    @Test func aPassedDeadlineStopsBothThreads() throws {
        let folder = TemporaryFolder()
        guard let bytes = try Self.jpeg(["-sample", "2x2"], in: folder) else { return Self.missingCJPEG() }
        let pixels = PixelBuffer(width: 2000, height: 1500)
        let past = DispatchTime.now().uptimeNanoseconds - 1
        #expect(!JPEGRowSplit.decode(bytes, into: pixels, eighths: 8, splitAt: 900, deadline: past))
        #expect(throws: ImageError.self) { try ImageDecoder.decodePixels(bytes, deadline: past) }
    }
}
