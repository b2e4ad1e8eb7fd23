import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport
import EaselSupport

/// JPEG and WebP photos, read by content, as the Cards app's `UIImage(data:)` reads them.
@Suite("Photos: JPEG and WebP")
struct PhotoDecodingTests {
    static let folder = ProcessRunner.packageRoot.appendingPathComponent("Tests/EaselRenderTests/Images")

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: folder.appendingPathComponent(name))) }

    static let colours: [String: (Int, Int, Int)] = [
        "red": (230, 20, 20), "green": (20, 200, 40), "blue": (20, 40, 220), "yellow": (240, 220, 20),
    ]

    static func nearest(_ p: RGBA8) -> String {
        colours.min { a, b in
            func distance(_ c: (Int, Int, Int)) -> Int {
                let (r, g, b) = (Int(p.r) - c.0, Int(p.g) - c.1, Int(p.b) - c.2)
                return r * r + g * g + b * b
            }
            return distance(a.value) < distance(b.value)
        }!.key
    }

    struct Expected: Decodable {
        var size: [Int]
        var topLeft: String, topRight: String, bottomLeft: String
    }

    @Test func everyEXIFOrientationStandsAsPillowShowsIt() throws {
        let expected = try JSONDecoder().decode(
            [String: Expected].self, from: Data(contentsOf: Self.folder.appendingPathComponent("orientations.json")))
        for orientation in 1...8 {
            let bytes = try Self.bytes("orientation-\(orientation).jpg")
            #expect(ImageFormat.sniff(bytes) == .jpeg)
            let image = try ImageDecoder.decode(bytes)
            let want = try #require(expected["\(orientation)"])
            #expect([image.width, image.height] == want.size, "orientation \(orientation)")
            let corners = [
                Self.nearest(image.pixel(x: 1, y: 1)), Self.nearest(image.pixel(x: image.width - 2, y: 1)),
                Self.nearest(image.pixel(x: 1, y: image.height - 2)),
            ]
            #expect(corners == [want.topLeft, want.topRight, want.bottomLeft], "orientation \(orientation)")
        }
    }

    @Test func aJPEGsHeaderStandsAsItsEXIFOrientationTurnsIt() throws {
        for orientation in 1...8 {
            let bytes = try Self.bytes("orientation-\(orientation).jpg")
            let header = try ImageDecoder.header(of: bytes)
            let decoded = try ImageDecoder.decode(bytes)
            #expect(header.turned == (orientation >= 5), "orientation \(orientation)")
            #expect(header.uprightSize == (decoded.width, decoded.height), "orientation \(orientation)")
        }
    }

    @Test func aWebPWithAlphaDecodesToTheSamePixelsAsItsPNG() throws {
        let webp = try ImageDecoder.decode(try Self.bytes("alpha.webp"))
        let png = try PNGDecoder.decode(try Self.bytes("alpha.png"))
        #expect(webp.width == 20 && webp.height == 20)
        for y in 0..<20 {
            for x in 0..<20 {
                #expect(webp.premultipliedPixel(x: x, y: y) == png.premultipliedPixel(x: x, y: y), "(\(x), \(y))")
            }
        }
    }

    @Test func aCardShowsAJPEGStoredUnderAnExtensionlessName() throws {
        let folder = TemporaryFolder()
        try folder.write(try Self.bytes("orientation-6.jpg"), to: "0B5E1D2C-0000-4000-8000-00000000000A")
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(size: Size(width: 800, height: 1600)),
                    imageFilename: "0B5E1D2C-0000-4000-8000-00000000000A")
            ])
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        let rendered = try DocumentRenderer.render(LocatedDocument(card, at: url))
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
        // Upright (8x16 after orientation 6) and filling the 800x1600 frame: the top right is
        // the stored top left, red.
        #expect(Self.nearest(rendered.image.pixel(x: 650 + 300, y: 1000 - 700)) == "red")
    }

    @Test func aTruncatedJPEGIsDrawnAsFarAsItGoesWithAWarning() throws {
        let folder = TemporaryFolder()
        // Cut inside its scan data, as an interrupted copy leaves a photo: libjpeg-turbo warns.
        let whole = try Self.bytes("orientation-1.jpg")
        let scan = try #require(whole.indices.first { whole[$0] == 0xFF && whole[$0 + 1] == 0xDA })
        try folder.write(Array(whole.prefix(scan + 40)), to: "0B5E1D2C-0000-4000-8000-00000000000B")
        try folder.write(try Self.bytes("orientation-1.jpg"), to: "0B5E1D2C-0000-4000-8000-00000000000C")
        let card = Card(
            backgroundColor: .white,
            imageElements: ["0B5E1D2C-0000-4000-8000-00000000000B", "0B5E1D2C-0000-4000-8000-00000000000C"].map {
                ImageElement(transform: ElementTransform(size: Size(width: 400, height: 400)), imageFilename: $0)
            })
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        let rendered = try DocumentRenderer.render(LocatedDocument(card, at: url))
        #expect(rendered.warnings.count == 1, "only the damaged one: \(rendered.warnings)")
        let warning = try #require(rendered.warnings.first)
        #expect(warning.keyPath == "imageElements[0].imageFilename")
        #expect(warning.message.contains("0B5E1D2C-0000-4000-8000-00000000000B is damaged"), "\(warning.message)")
        #expect(warning.message.contains("drawn as far as it decodes"))
    }

    @Test func badAndHugePhotosAreRefusedWithReasons() throws {
        // Cut in half: libjpeg-turbo warns and gives what it has; nothing crashes.
        _ = try? ImageDecoder.decode(try Self.bytes("truncated.jpg"))
        // A header claiming 60000x60000 pixels is refused before any pixel memory exists.
        var huge = try Self.bytes("orientation-1.jpg")
        let sof = try #require(huge.indices.first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge.replaceSubrange((sof + 5)...(sof + 8), with: [0xEA, 0x60, 0xEA, 0x60])
        #expect(try ImageDecoder.header(of: huge).width == 60000)
        #expect(throws: ImageError.self) { try ImageDecoder.decodePixels(huge) }
        #expect(throws: ImageError.self) { try ImageDecoder.decodePixels(Array("RIFF0000WEBPVP8 ".utf8)) }
        #expect(throws: PNGError.self) { try ImageDecoder.decodePixels(Array("plain text".utf8)) }
    }
}

/// Decoded images shared across renders: decoded once per version of a file.
@Suite("Shared decoded images")
struct SharedImageCacheTests {
    static func pixels(_ outcome: ImageLoader.Outcome) -> PixelBuffer? {
        if case .loaded(let pixels, _) = outcome { return pixels }
        return nil
    }

    @Test func theSamePhotoInManyRendersIsDecodedOnceUntilItChanges() throws {
        let folder = TemporaryFolder()
        let url = try folder.write(try PNGEncoder.encode(try RasterImage(width: 40, height: 30)), to: "LOGO")
        // Renders (loaders) of their own: kept from the second decoding on, then the very same pixels.
        _ = try #require(Self.pixels(ImageLoader().load(url)))
        let first = try #require(Self.pixels(ImageLoader().load(url)))
        let second = try #require(Self.pixels(ImageLoader().load(url)))
        #expect(first === second, "decoded again once, then shared")
        try waitForTheNextFileTime(after: url)
        try folder.write(try PNGEncoder.encode(try RasterImage(width: 41, height: 30)), to: "LOGO")
        let changed = try #require(Self.pixels(ImageLoader().load(url)))
        #expect(changed !== first && changed.width == 41, "a changed file is decoded again")
    }

    @Test func aFileReplacedWithinAClockTickIsNotMistakenForTheOld() throws {
        // Same name, same size, written back to back (often the same inode and time stamp):
        // only the bytes differ, and the pixels must follow them.
        let folder = TemporaryFolder()
        var colours: [RGBA8] = []
        for value in [0.2, 0.8] {
            let image = try RasterImage(width: 20, height: 20)
            let context = try CairoContext(image: image)
            try context.setSource(Color(red: value, green: 0.5, blue: 0.5))
            try context.paint()
            let url = try folder.write(try PNGEncoder.encode(image), to: "SWATCH")
            let pixels = try #require(Self.pixels(ImageLoader().load(url)))
            colours.append(try RasterImage(copying: pixels).pixel(x: 5, y: 5))
        }
        #expect(colours[0] != colours[1], "\(colours)")
        // The same bytes under another name share a decoding (kept from the second on).
        let a = try folder.write(try PNGEncoder.encode(try RasterImage(width: 33, height: 12)), to: "A")
        let b = try folder.write(try PNGEncoder.encode(try RasterImage(width: 33, height: 12)), to: "B")
        let c = try folder.write(try PNGEncoder.encode(try RasterImage(width: 33, height: 12)), to: "C")
        _ = try #require(Self.pixels(ImageLoader().load(a)))
        let fromB = try #require(Self.pixels(ImageLoader().load(b)))
        let fromC = try #require(Self.pixels(ImageLoader().load(c)))
        #expect(fromB === fromC)
    }

    /// Waits (5 s at most, where there is only one thread to come) until `counter` reaches
    /// `value`: a bounded wait on a state.
    static func wait(until counter: Locked<Int>, reaches value: Int) {
        let deadline = Date().addingTimeInterval(5)
        while counter.withLock({ $0 }) < value, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)  // the polling interval of a bounded wait
        }
    }

    @Test func rendersAskingAtOnceShareOneDecoding() throws {
        let cache = SharedImageCache(maxBytes: 1 << 20)
        let png = try PNGEncoder.encode(try RasterImage(width: 50, height: 40))
        let buffers = Locked<[ObjectIdentifier]>([])
        let arrived = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            arrived.withLock { $0 += 1 }
            let image = cache.image(for: "one key") {
                // The first decoder goes on once another render has come for the image: it
                // waits for this decoding rather than starting its own.
                Self.wait(until: arrived, reaches: 2)
                return try! ImageDecoder.decodePixels(png)
            }
            buffers.withLock { $0.append(ObjectIdentifier(image)) }
        }
        #expect(cache.decodes == 1)
        #expect(Set(buffers.withLock { $0 }).count == 1, "one buffer for every render")
        // A failing decoding leaves the others to try for themselves: every one fails.
        let failures = Locked(0)
        let tried = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            tried.withLock { $0 += 1 }
            do {
                _ = try cache.image(for: "broken") { () throws -> PixelBuffer in
                    Self.wait(until: tried, reaches: 2)
                    throw PNGError.notPNG("not a PNG")
                }
            } catch { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 4)
    }

    @Test func theCacheKeepsToItsByteLimit() throws {
        let cache = SharedImageCache(maxBytes: 100 * 100 * 4 * 2)
        func decode() -> PixelBuffer { try! ImageDecoder.decodePixels(PNGEncoder.encode(RasterImage(width: 100, height: 100))) }
        // Each asked for twice (kept from the second decoding on).
        for index in 0..<5 {
            for _ in 0..<2 { _ = cache.image(for: "image \(index)", decode: decode) }
        }
        #expect(cache.decodes == 10)
        _ = cache.image(for: "image 4") { fatalError("image 4 is cached") }
        _ = cache.image(for: "image 0", decode: decode)
        #expect(cache.decodes == 11, "the oldest were evicted")
    }

    /// A folder whose cards each have photos of their own must not fill the cache with
    /// photos no other card will ask for; a photo used again is kept from then on.
    @Test func anImageIsKeptOnlyOnceItIsUsedAgain() throws {
        let cache = SharedImageCache(maxBytes: 1 << 20)
        func decode() -> PixelBuffer { try! ImageDecoder.decodePixels(PNGEncoder.encode(RasterImage(width: 20, height: 20))) }
        for index in 0..<3 { _ = cache.image(for: "photo \(index)", decode: decode) }
        _ = cache.image(for: "photo 0", decode: decode)
        #expect(cache.decodes == 4, "each photo decoded once, the first again when asked for again")
        _ = cache.image(for: "photo 0") { fatalError("photo 0, used twice, is kept") }
        _ = cache.image(for: "photo 1", decode: decode)
        #expect(cache.decodes == 5, "photo 1 was not kept after its first decoding")
    }
}
