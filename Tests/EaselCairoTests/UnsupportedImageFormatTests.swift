import Testing
@testable import EaselCairo

/// A picture in a format Easel does not read (a phone's HEIC, a GIF) is named for what it
/// is, not reported as "not a PNG image".
@Suite("Image formats Easel does not read are named")
struct UnsupportedImageFormatTests {
    /// The first bytes of each format, as its files start.
    static let starts: [(name: String, bytes: [UInt8])] = [
        ("HEIC", [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)),
        ("HEIF", [0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0]),
        ("AVIF", [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0]),
        ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]),
        ("TIFF", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]),
        ("TIFF", [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]),
        ("BMP", Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [UInt8](repeating: 0, count: 36)),
        ("JPEG XL", [0xFF, 0x0A, 0, 0]),
        ("animated WebP", Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0x02, 0, 0, 0]),
    ]

    @Test func eachIsNamedByTheHeaderAndTheDecoder() {
        for (name, bytes) in Self.starts {
            #expect(throws: UnsupportedImageFormat(name: name), "\(name)") { try ImageDecoder.header(of: bytes) }
            #expect(throws: UnsupportedImageFormat(name: name), "\(name)") { try ImageDecoder.decodePixels(bytes) }
        }
        #expect(
            "\(UnsupportedImageFormat(name: "HEIC"))"
                == "it is a HEIC image; Easel reads PNG, JPEG and still WebP images (convert it to one of them)")
        #expect("\(UnsupportedImageFormat(name: "AVIF"))".hasPrefix("it is an AVIF image"))
    }

    @Test func otherBytesAreNotTakenForOne() {
        for bytes: [UInt8] in [[], Array("BMX".utf8), Array("hello world, not an image".utf8), [0x89, 0x50, 0x4E, 0x47]] {
            #expect(UnsupportedImageFormat.of(bytes) == nil, "\(bytes)")
        }
    }
}
