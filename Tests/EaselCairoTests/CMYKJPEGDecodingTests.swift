import Foundation
import Testing

@testable import EaselCairo

/// A CMYK JPEG (print work, Photoshop's exports) is drawn in the colours a browser shows, not
/// refused as a colour conversion libjpeg does not make.
@Suite("CMYK JPEGs are decoded")
struct CMYKJPEGDecodingTests {
    /// 16x8: red on the left, blue on the right, made by ImageMagick (`convert xc:red xc:blue
    /// +append -colorspace CMYK -quality 100`): CMYK with Adobe's marker, its inks inverted.
    static let redAndBlue = Array(
        Data(
            base64Encoded:
                "/9j/7gAOQWRvYmUAZAAAAAAC/9sAQwABAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB/9sAQwEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB/8AAFAgACAAQBAERAAIRAQMRAQQRAP/EABYAAQEBAAAAAAAAAAAAAAAAAAkACv/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAAAAAAAAALCf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAOBAEAAhEDEQQAAD8AZhVgf+38F4FTkqE//9k="
        )!)

    @Test func redAndBlueComeOutRedAndBlue() throws {
        let jpeg = Self.redAndBlue
        #expect(try ImageDecoder.header(of: jpeg).width == 16)
        let pixels = try ImageDecoder.decodePixels(jpeg)
        #expect(pixels.width == 16 && pixels.height == 8)
        func color(_ x: Int, _ y: Int) -> [Int] {
            let at = pixels.bytes.advanced(by: y * pixels.stride + x * 4).assumingMemoryBound(to: UInt8.self)
            return [Int(at[2]), Int(at[1]), Int(at[0]), Int(at[3])]  // R, G, B, A from BGRA
        }
        for (x, expected) in [(2, [255, 0, 0]), (13, [0, 0, 255])] {
            let found = color(x, 4)
            #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 8 } && found[3] == 255, "at \(x): \(found)")
        }
        // Decoded small (DCT scaling) the same way.
        let half = try ImageDecoder.decodePixels(jpeg, reducedBy: 2)
        #expect(half.width == 8)
    }
}
