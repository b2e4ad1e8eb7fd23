import Dispatch
import Foundation
import Testing
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselTestSupport

/// Decoding and text layout stay within a render's deadline and its memory budget, whatever
/// a file claims: the red team's decoder bombs (a progressive JPEG of thousands of scans, one
/// whose coefficient buffers alone are 294 MB, a drawing of thousands of texts) end in time.
@Suite("Decoding and layout within the deadline and the budget")
struct DecodeBoundsTests {
    static func bytes(_ name: String) throws -> [UInt8] { try PhotoDecodingTests.bytes(name) }

    static func deadline(inMilliseconds milliseconds: UInt64) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + milliseconds * 1_000_000
    }

    @Test func aProgressiveJPEGOfManyValidScansDecodes() throws {
        let pixels = try ImageDecoder.decodePixels(try Self.bytes("scans-98.jpg"))
        #expect(pixels.width == 64 && pixels.height == 64)
        #expect(pixels.damage == nil)
    }

    @Test func aScanBombStopsAtItsFirstRepeatedScan() throws {
        // The red team's bomb: the last scan of a progressive photo repeated 2,000 times,
        // each a pass over the whole image to decode (90 s for theirs).
        let photo = try Self.bytes("progressive-2048.jpg")
        let lastScan = try #require(photo.indices.last { photo[$0] == 0xFF && photo[$0 + 1] == 0xDA })
        let scan = photo[lastScan..<(photo.count - 2)]
        var bomb = Array(photo.dropLast(2))
        for _ in 0..<2_000 { bomb += scan }
        bomb += [0xFF, 0xD9]
        #expect { try ImageDecoder.decodePixels(bomb) } throws: { error in
            "\(error)".contains("JPEG: Inconsistent progression sequence")
        }
    }

    @Test func aJPEGWhoseDecoderWouldNeedTooMuchMemoryIsRefusedFromItsHeader() throws {
        let claims = try Self.bytes("progressive-claims-7000.jpg")
        let header = try ImageDecoder.header(of: claims)
        #expect(header.width == 7000 && header.height == 7000)
        // 2 bytes of DCT coefficients per sample of each of the 3 components.
        #expect(header.workBytes == 7000 * 7000 * 3 * 2)
        #expect(header.costInPixels == 7000 * 7000 + 7000 * 7000 * 3 * 2 / 4)
        #expect { try ImageDecoder.decodePixels(claims) } throws: { error in
            "\(error)".contains("of the decoder's own memory besides its pixels, over the limit of 244 MiB in all")
        }
    }

    @Test func aCardsPhotosCountTheirDecodersMemoryAgainstTheBudget() throws {
        // Within the per-image limit as pixels (49 of 64 million), over the document's
        // budget (50 million, about 200 MB) once the coefficient buffers are counted.
        let folder = TemporaryFolder()
        var claims = try Self.bytes("progressive-claims-7000.jpg")
        let sof = try #require(claims.indices.first { claims[$0] == 0xFF && claims[$0 + 1] == 0xC2 })
        claims.replaceSubrange((sof + 5)...(sof + 8), with: [0x0F, 0xA0, 0x0F, 0xA0])  // 4000x4000
        try folder.write(claims, to: "0B5E1D2C-0000-4000-8000-0000000000B0")
        let header = try ImageDecoder.header(of: claims)
        #expect(header.width * header.height < RenderBudgets.maxImagePixelsPerDocument)
        let loader = ImageLoader(maxTotalPixels: header.costInPixels - 1)
        guard case .failed(let reason) = loader.load(folder.file("0B5E1D2C-0000-4000-8000-0000000000B0")) else {
            Issue.record("the photo should be over the budget")
            return
        }
        #expect(reason.contains("past the budget"), "\(reason)")
    }

    @Test func aDeadlineStopsAJPEGDecodeMidway() throws {
        // A whole decode of this photo takes tens of milliseconds (the scans of 4 million
        // pixels); 2 ms after the call it is either not started yet (a loaded machine) or
        // stopped between rows: either way no image comes back, and the message says why.
        let photo = try Self.bytes("progressive-2048.jpg")
        #expect(try ImageDecoder.decodePixels(photo).width == 2048)
        #expect { try ImageDecoder.decodePixels(photo, deadline: Self.deadline(inMilliseconds: 2)) } throws: {
            "\($0)" == "JPEG: the decode ran past its deadline and was stopped"
        }
    }

    @Test func aDeadlineStopsAPNGDecodeMidway() throws {
        let image = try RasterImage(width: 3000, height: 3000)
        let png = try PNGEncoder.encode(image)
        #expect { try ImageDecoder.decodePixels(png, deadline: Self.deadline(inMilliseconds: 1)) } throws: { error in
            (error as? PNGError) == .pastDeadline
        }
    }

    @Test func aDecodeIsNotStartedPastItsDeadline() throws {
        let past = DispatchTime.now().uptimeNanoseconds
        for name in ["orientation-1.jpg", "alpha.webp", "alpha.png"] {
            #expect(throws: (any Error).self, "\(name)") {
                try ImageDecoder.decodePixels(try Self.bytes(name), deadline: past)
            }
        }
    }

    @Test func thousandsOfTextsStopAtTheDeadline() throws {
        // The red team's drawing of 2,000 bidirectional texts held a worker for 45 s.
        let text = String(repeating: "שלום Hello مرحبا 123 ", count: 40)
        let graphic =
            #"{"kind":"text","text":"\#(text)","fontSize":12,"transform":{"center":[400,300],"size":[700,500]},"fill":[0,0,0,1]}"#
        let json =
            #"{"version":1,"canvas":{"size":[800,600]},"graphics":[\#(Array(repeating: graphic, count: 2_000).joined(separator: ","))]}"#
        let folder = TemporaryFolder()
        let url = try folder.write(json, to: "texts.drawing")
        let located = try DocumentRegistry.standard.open(url)
        #expect(throws: RenderError.timedOut(file: located.displayName)) {
            try DocumentRenderer.scene(for: located, deadline: Self.deadline(inMilliseconds: 100))
        }
    }
}
