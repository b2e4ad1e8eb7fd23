import Foundation
import Testing
import EaselCairo
@testable import EaselRender
import EaselTestSupport

/// Images decoded ahead of the lowering on several cores must come out exactly as the
/// lowering would have had them one by one: the same pixels, the same failures with the
/// same messages, the per-document budget counted in the document's order.
@Suite("Images decoded ahead")
struct ImagePrefetchTests {
    /// What a loader gave for each name, comparable: the pixel size or the failure message.
    static func outcomes(_ loader: ImageLoader, _ names: [String], in folder: URL) -> [String] {
        names.map { name in
            switch loader.image(named: name, inFolder: folder) {
            case .loaded(let pixels, let url): return "\(url.lastPathComponent) \(pixels.width)x\(pixels.height)"
            case .failed(let reason): return "failed: \(reason)"
            }
        }
    }

    @Test func outcomesAndBudgetsAreThoseOfDecodingOneByOne() throws {
        let folder = TemporaryFolder()
        _ = try folder.write(TestImages.quadrants(width: 300, height: 200), to: "a.png")  // 60,000 pixels
        _ = try folder.write(TestImages.quadrants(width: 400, height: 300), to: "big.png")  // 120,000: over the rest
        _ = try folder.write(TestImages.quadrants(width: 100, height: 100), to: "c.png")  // 10,000: fits after big is refused
        _ = try folder.write(Array("not an image".utf8), to: "broken.png")
        _ = try folder.write(TestImages.quadrants(width: 400, height: 400), to: "huge.png")  // over maxPixels
        let names = ["a.png", "big.png", "c.png", "broken.png", "missing.png", "../outside.png", "huge.png", "a.png"]
        func loader() -> ImageLoader { ImageLoader(maxPixels: 130_000, maxTotalPixels: 100_000) }

        let oneByOne = Self.outcomes(loader(), names, in: folder.url)
        let ahead = loader()
        ahead.prefetch(names, inFolder: folder.url, threads: 2)
        #expect(Self.outcomes(ahead, names, in: folder.url) == oneByOne)
        #expect(oneByOne[0] == "a.png 300x200" && oneByOne[2] == "c.png 100x100" && oneByOne[7] == "a.png 300x200")
        #expect(oneByOne[1].contains("budget"), "\(oneByOne[1])")
        #expect(oneByOne[3...6].allSatisfy { $0.hasPrefix("failed") }, "\(oneByOne)")
        #expect(ahead.decodedPixels == 70_000)
    }

    /// A document naming many large files (a small image padded with chunks no reader
    /// shows) is not read into memory all at once: the prefetch holds files up to the pixel
    /// budget's bytes and leaves the rest to the lowering, with the same outcomes.
    @Test func theFilesHeldAheadStayWithinTheBudgetsBytes() throws {
        let folder = TemporaryFolder()
        let small = try TestImages.quadrants(width: 10, height: 10)
        let end = small.count - 12  // IEND, the last 12 bytes
        let padded =
            Array(small[..<end]) + ReferencePNGWriter.chunk("zzZz", [UInt8](repeating: 0, count: 300_000)) + small[end...]
        let names = (0..<8).map { "padded-\($0).png" }
        for name in names { _ = try folder.write(padded, to: name) }
        // 250,000 pixels: 1,000,000 bytes, three of the files.
        func loader() -> ImageLoader { ImageLoader(maxTotalPixels: 250_000, sharedImages: SharedImageCache(maxBytes: 0)) }
        let oneByOne = Self.outcomes(loader(), names, in: folder.url)
        let ahead = loader()
        ahead.prefetch(names, inFolder: folder.url, threads: 2)
        #expect(ahead.prefetchedCount == 3)
        #expect(Self.outcomes(ahead, names, in: folder.url) == oneByOne)
        #expect(oneByOne.allSatisfy { $0.hasSuffix(" 10x10") }, "\(oneByOne)")
    }

    @Test func theSameImageIsSharedNotDecodedTwice() throws {
        let folder = TemporaryFolder()
        _ = try folder.write(TestImages.quadrants(width: 210, height: 130), to: "logo.png")
        _ = try folder.write(TestImages.quadrants(width: 220, height: 140), to: "photo.png")
        // A cache of the test's own: the process's cache counts every test's decodings.
        let cache = SharedImageCache(maxBytes: 1 << 20)
        let loader = ImageLoader(sharedImages: cache)
        loader.prefetch(["logo.png", "photo.png", "logo.png"], inFolder: folder.url, threads: 2)
        let first = loader.image(named: "logo.png", inFolder: folder.url)
        let again = loader.image(named: "logo.png", inFolder: folder.url)
        guard case .loaded(let a, _) = first, case .loaded(let b, _) = again else {
            Issue.record("the logo did not load")
            return
        }
        #expect(a === b)
        #expect(cache.decodes == 2, "logo and photo, each once")
    }
}
