import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

@testable import EaselCairo
@testable import EaselRender

/// A camera photo in a small frame is decoded at about the size it is drawn at when the
/// render's options are known: a PNG to exactly the pixels the renderer would have reduced it
/// to (so the render is unchanged), a JPEG through libjpeg-turbo's DCT scaling (close to
/// them); other options or another size decode it whole. In an SVG or PDF only a photo the
/// export embeds as its own file is decoded small (a viewer draws the file); one embedded as
/// its pixels is decoded whole.
@Suite("Photos decoded at the size they are drawn at")
struct DecodeAtDrawnSizeTests {
    static let photoName = "0B5E1D2C-0000-4000-8000-0000000000D1"

    /// A 2000x1500 camera-like photo (gradients and grain), as RGB pixels.
    static func photoRGB(width: Int = 2000, height: Int = 1500) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt32 = 7
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let grain = Int(state >> 28) - 8
                let at = (y * width + x) * 3
                rgb[at] = UInt8(max(0, min(255, x * 255 / width + grain)))
                rgb[at + 1] = UInt8(max(0, min(255, y * 255 / height + grain)))
                rgb[at + 2] = UInt8(max(0, min(255, (x / 50 + y / 50) % 2 * 200 + grain + 20)))
            }
        }
        return rgb
    }

    static func png(width: Int = 2000, height: Int = 1500) throws -> [UInt8] {
        let rgb = photoRGB(width: width, height: height)
        let image = try RasterImage(width: width, height: height)
        image.withUnsafeMutablePixels { pixels in
            for index in 0..<(width * height) {
                let value =
                    0xFF00_0000 | UInt32(rgb[index * 3]) << 16 | UInt32(rgb[index * 3 + 1]) << 8 | UInt32(rgb[index * 3 + 2])
                pixels.storeBytes(of: value, toByteOffset: index * 4, as: UInt32.self)
            }
        }
        return try PNGEncoder.encode(image, options: PNGEncodingOptions(colorMode: .rgb))
    }

    /// The same photo at `width` x `height` as a JPEG of `quality` made by libjpeg-turbo's
    /// cjpeg, or nil without cjpeg. (cjpeg reads the pixels from a PPM, written once per size.)
    static func jpeg(in folder: TemporaryFolder, width: Int = 2000, height: Int = 1500, quality: Int = 92) throws
        -> [UInt8]?
    {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg") else { return nil }
        let source = folder.file("photo-\(width)x\(height).ppm")
        if !FileManager.default.fileExists(atPath: source.path) {
            try folder.write(
                Array("P6\n\(width) \(height)\n255\n".utf8) + photoRGB(width: width, height: height),
                to: source.lastPathComponent)
        }
        let out = folder.file("photo-\(width)x\(height)-\(quality).jpg")
        let process = try Process.run(
            URL(fileURLWithPath: "/usr/bin/cjpeg"), arguments: ["-quality", "\(quality)", "-outfile", out.path, source.path])
        process.waitUntilExit()
        return Array(try Data(contentsOf: out))
    }

    /// A card drawing the photo in a 500x400 frame, turned a little, written next to it.
    static func card(with photo: [UInt8], in folder: TemporaryFolder) throws -> LocatedDocument {
        try folder.write(photo, to: photoName)
        let card = Card(
            backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(
                        size: Size(width: 500, height: 400), rotationDegrees: 7, offset: Point(x: 100, y: -300)),
                    imageFilename: photoName)
            ])
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        return LocatedDocument(card, at: url)
    }

    /// A card drawing `photos` one above the other, each in a `frame` (200 units apart),
    /// written next to them.
    static func card(withEach photos: [[UInt8]], frame: Size, in folder: TemporaryFolder) throws -> LocatedDocument {
        var elements: [ImageElement] = []
        for (index, photo) in photos.enumerated() {
            let name = "0B5E1D2C-0000-4000-8000-00000000000\(index)"
            try folder.write(photo, to: name)
            elements.append(
                ImageElement(
                    transform: ElementTransform(
                        size: frame, offset: Point(x: 0, y: Double(index - 1) * (frame.height + 200))),
                    imageFilename: name))
        }
        let card = Card(backgroundColor: .white, imageElements: elements)
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        return LocatedDocument(card, at: url)
    }

    static func drawn(_ scene: Scene) throws -> PixelBuffer {
        for case .image(let image, _, _) in scene.operations { return image.pixels }
        throw CocoaError(.featureUnsupported)
    }

    static func pixels(_ image: RasterImage) -> [UInt8] { image.withUnsafePixels { Array($0) } }

    @Test func aPNGPhotoInASmallFrameIsDecodedSmallToTheSamePixels() throws {
        let folder = TemporaryFolder()
        let located = try Self.card(with: try Self.png(), in: folder)
        let options = RenderOptions()
        let planned = try DocumentRenderer.scene(
            for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)), drawnFor: options)
        let whole = try DocumentRenderer.scene(for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)))
        // 2000x1500 fitted in 500x400 at scale 1: a quarter along each side.
        let small = try Self.drawn(planned)
        #expect((small.width, small.height) == (500, 375))
        #expect(small.fullSize == (2000, 1500))
        #expect(try Self.drawn(whole).width == 2000, "without the options, decoded whole")
        // Whole and drawn from the renderer's reduction, or decoded small: the same pixels.
        let a = try DocumentRenderer.export(planned, options: options).bytes
        let b = try DocumentRenderer.export(whole, options: options).bytes
        #expect(
            try PNGDecoder.decodePixels(a).withUnsafeBytes { Array($0) }
                == PNGDecoder.decodePixels(b).withUnsafeBytes { Array($0) })
    }

    /// Drawn with the nearest-neighbour filter, a photo is decoded whole whatever its frame:
    /// a smaller decoding would average the pixels that filter is asked to keep.
    @Test func aPhotoDrawnWithTheNearestFilterIsDecodedWhole() throws {
        let folder = TemporaryFolder()
        let located = try Self.card(with: try Self.png(), in: folder)
        let scene = try DocumentRenderer.scene(
            for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)),
            drawnFor: RenderOptions(imageFilter: .nearest))
        let drawn = try Self.drawn(scene)
        #expect((drawn.width, drawn.height) == (2000, 1500))
    }

    @Test func aJPEGPhotoInASmallFrameIsDecodedByDCTScalingCloseToTheWholeOnesPixels() throws {
        let folder = TemporaryFolder()
        guard let jpeg = try Self.jpeg(in: folder) else {
            Issue.record("libjpeg-turbo's cjpeg (Debian: libjpeg-turbo-progs) makes the test's JPEG")
            return
        }
        let located = try Self.card(with: jpeg, in: folder)
        let planned = try DocumentRenderer.render(located, options: RenderOptions())
        let scene = try DocumentRenderer.scene(
            for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)), drawnFor: RenderOptions())
        let small = try Self.drawn(scene)
        #expect((small.width, small.height) == (500, 375), "decoded at 1/4 by the DCT")
        let whole = try CairoSceneRenderer.rasterize(
            DocumentRenderer.scene(for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0))),
            pixelWidth: 1300, pixelHeight: 2000)
        let (x, y) = (Self.pixels(planned.image), Self.pixels(whole))
        let differences = zip(x, y).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 0.5, "mean difference per channel \(mean)")
        #expect(differences.max() ?? 0 <= 40, "largest difference \(differences.max() ?? 0)")
    }

    /// A card of several large photos drawn small (three 24-megapixel phone photos) is within
    /// the document's image budget when they are decoded small: the budget counts what a
    /// decode keeps. Here three 3-megapixel photos and a budget of 7 million pixels.
    @Test func photosDecodedSmallCountAgainstTheBudgetAtTheSizeTheyAreDecodedAt() throws {
        let folder = TemporaryFolder()
        let png = try Self.png()
        let located = try Self.card(withEach: [png, png, png], frame: Size(width: 400, height: 300), in: folder)
        func scene(_ options: RenderOptions?) throws -> Scene {
            try DocumentRenderer.scene(
                for: located, images: ImageLoader(maxTotalPixels: 7_000_000, sharedImages: SharedImageCache(maxBytes: 0)),
                drawnFor: options)
        }
        let small = try scene(RenderOptions())
        #expect(small.warnings.isEmpty, "\(small.warnings)")
        var drawn = 0
        for case .image(let image, _, _) in small.operations {
            drawn += 1
            #expect(image.pixels.width == 400, "decoded at a fifth, the size it is drawn at")
        }
        #expect(drawn == 3)
        // Decoded whole (a PDF embeds a PNG as its pixels), the third is past the budget, named.
        let whole = try scene(RenderOptions(format: .pdf))
        #expect(whole.warnings.map(\.keyPath) == ["imageElements[2].imageFilename"], "\(whole.warnings)")
        #expect(whole.warnings.first?.message.contains("past the budget of 7000000 pixels (26 MiB") == true)
    }

    /// A photo reduced only once decoded whole (an interlaced PNG, which libpng reads) holds
    /// its whole pixels meanwhile: the budget is checked with them, and counts what the photo
    /// keeps after. Two 2000x1500 photos drawn 400 wide and a budget of 3.2 million pixels:
    /// the second photo's whole pixels would take the budget past it, so it is not drawn.
    @Test func aPhotoReducedOnlyOnceDecodedWholeIsCheckedWithItsWholePixels() throws {
        let rgb = Self.photoRGB()
        let interlaced = ReferencePNGWriter.encode(
            width: 2000, height: 1500, colorType: .rgb, bitDepth: 8, interlaced: true
        ) { x, y in
            let index = (y * 2000 + x) * 3
            return [Int(rgb[index]), Int(rgb[index + 1]), Int(rgb[index + 2])]
        }
        func scene(_ photo: [UInt8]) throws -> Scene {
            let folder = TemporaryFolder()
            let located = try Self.card(withEach: [photo, photo], frame: Size(width: 400, height: 300), in: folder)
            return try DocumentRenderer.scene(
                for: located, images: ImageLoader(maxTotalPixels: 3_200_000, sharedImages: SharedImageCache(maxBytes: 0)),
                drawnFor: RenderOptions())
        }
        // Read by Easel's own reader, a photo never holds more than it keeps: both are drawn.
        let streamed = try scene(try Self.png())
        #expect(streamed.warnings.isEmpty, "\(streamed.warnings)")
        let whole = try scene(interlaced)
        #expect(whole.warnings.map(\.keyPath) == ["imageElements[1].imageFilename"], "\(whole.warnings)")
        #expect(whole.warnings.first?.message.contains("past the budget of 3200000 pixels") == true)
        #expect(try Self.drawn(whole).width == 400, "the first is drawn, decoded small")
    }

    /// A JPEG's cost at its DCT scale, and its decoder's memory whatever the scale: a
    /// 48-megapixel progressive photo drawn at an eighth is within the one-image limit.
    @Test func aJPEGCostsItsPixelsAtItsDCTScaleAndItsDecodersMemory() throws {
        let progressive = ImageDecoder.Header(format: .jpeg, width: 8000, height: 6000, workBytes: 144_000_000)
        #expect(progressive.costInPixels == 48_000_000 + 36_000_000)
        #expect(progressive.cost(reducedBy: 8) == 1000 * 750 + 36_000_000)
        #expect(progressive.cost(reducedBy: 3) == 3000 * 2250 + 36_000_000, "decoded at 3/8")
        #expect(ImageDecoder.Header(format: .png, width: 2001, height: 1500).cost(reducedBy: 4) == 501 * 375)
        #expect(
            progressive.costInPixels > RenderLimits.maxImagePixels && progressive.cost(reducedBy: 8) < RenderLimits.maxImagePixels
        )
    }

    @Test func aPhotoDrawnLargeOrEmbeddedAsItsPixelsIsDecodedWhole() throws {
        let folder = TemporaryFolder()
        let located = try Self.card(with: try Self.png(), in: folder)
        // A PDF embeds a PNG as its pixels: all of them, for a viewer that zooms in.
        for options in [RenderOptions(size: .scale(4)), RenderOptions(format: .pdf)] {
            let scene = try DocumentRenderer.scene(
                for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)), drawnFor: options)
            #expect(try Self.drawn(scene).width == 2000, "\(options.format) \(options.size)")
        }
        // An SVG embeds the file itself: its pixels only give the box it is drawn in.
        let svg = try DocumentRenderer.scene(
            for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)),
            drawnFor: RenderOptions(format: .svg))
        #expect(try Self.drawn(svg).width == 500)
        // At half the size: drawn at an eighth of its pixels.
        let half = try DocumentRenderer.scene(
            for: located, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)),
            drawnFor: RenderOptions(size: .scale(0.5)))
        #expect(try Self.drawn(half).width == 250)
    }

    @Test func anAppPhotoInAThumbnailIsDecodedSmallAndAnImageSmallerThanAPhotoWhole() throws {
        // The Cards app's own 1000x750 photo in a thumbnail: decoded at a fraction.
        let folder = TemporaryFolder()
        let app = try Self.card(with: try Self.png(width: 1000, height: 750), in: folder)
        let thumbnail = try DocumentRenderer.scene(
            for: app, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)),
            drawnFor: RenderOptions(size: .thumbnail))
        #expect(try Self.drawn(thumbnail).width <= 500)
        // A sticker-sized image (under half a megapixel) is decoded whole whatever its frame.
        let other = TemporaryFolder()
        let sticker = try Self.card(with: try Self.png(width: 800, height: 600), in: other)
        let small = try DocumentRenderer.scene(
            for: sticker, images: ImageLoader(sharedImages: SharedImageCache(maxBytes: 0)),
            drawnFor: RenderOptions(size: .thumbnail))
        #expect(try Self.drawn(small).width == 800)
    }

    /// A card of three large JPEGs (three 24-megapixel phone photos; here 7.7-megapixel ones
    /// and a budget of 20 million pixels) in small frames: past the document's image budget
    /// decoded whole, so its SVG and PDF once drew the third as the error image. Decoded at
    /// the size they are drawn at, they are within it, and each file is in the export as it
    /// is: a viewer draws the photo from all its pixels.
    @Test func largeJPEGsInAnSVGOrPDFAreDecodedSmallAndEmbeddedAsTheirOwnFiles() throws {
        let folder = TemporaryFolder()
        // Three files of their own (at three qualities).
        var files: [[UInt8]] = []
        for quality in 80..<83 {
            guard let jpeg = try Self.jpeg(in: folder, width: 3200, height: 2400, quality: quality) else {
                Issue.record("libjpeg-turbo's cjpeg (Debian: libjpeg-turbo-progs) makes the test's JPEG")
                return
            }
            files.append(jpeg)
        }
        let located = try Self.card(withEach: files, frame: Size(width: 600, height: 400), in: folder)

        func export(_ format: OutputFormat) throws -> ExportedFile {
            let options = RenderOptions(format: format)
            let images = ImageLoader(maxTotalPixels: 20_000_000, sharedImages: SharedImageCache(maxBytes: 0))
            return try DocumentRenderer.export(
                DocumentRenderer.scene(for: located, images: images, drawnFor: options), options: options)
        }
        let svg = try export(.svg)
        #expect(svg.warnings.isEmpty, "\(svg.warnings)")
        let text = String(decoding: svg.bytes, as: UTF8.self)
        for file in files {
            #expect(text.contains("data:image/jpeg;base64,\(Data(file).base64EncodedString())"), "the file itself")
        }
        // Each in the box of its pixels as decoded (at 2/8: 800x600), which the viewer fits
        // it to: the proportions are the file's own.
        #expect(text.components(separatedBy: #"width="800" height="600" xlink:href="data:image/jpeg;base64,"#).count - 1 == 3)

        let pdf = try export(.pdf)
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
        for file in files {
            #expect(pdf.bytes.firstRange(of: file) != nil, "the JPEG as the image's stream")
        }
    }
}
