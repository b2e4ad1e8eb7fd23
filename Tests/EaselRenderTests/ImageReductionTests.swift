@testable import EaselCairo
import EaselGeometry
import Testing

@testable import EaselRender

/// A camera-size photo drawn at a fraction of its pixels is drawn from a box reduction,
/// whose pixels are each the mean of the block they stand for; an app-size photo, or one
/// drawn at half its pixels or more, is drawn as it is.
@Suite("Photos drawn small are drawn from a reduction")
struct ImageReductionTests {
    /// An opaque photo whose pixel (x, y) is a gradient plus a 5-pixel checker, so that a
    /// block's mean is known and unlike any one pixel in it.
    static func photo(width: Int, height: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        buffer.withUnsafeBytes { raw in
            let pixels = UnsafeMutableRawPointer(mutating: raw.baseAddress!).assumingMemoryBound(to: UInt32.self)
            for y in 0..<height {
                for x in 0..<width {
                    let red = UInt32(x * 200 / width), green = UInt32(y * 200 / height)
                    let blue: UInt32 = (x + y) % 2 == 0 ? 255 : 0
                    pixels[y * width + x] = 0xFF00_0000 | red << 16 | green << 8 | blue
                }
            }
        }
        return buffer
    }

    static func scene(drawing pixels: PixelBuffer, at size: Size) -> Scene {
        let fit = Transform2D.scale(x: size.width / Double(pixels.width), y: size.height / Double(pixels.height))
        return Scene(canvasSize: size, operations: [.image(SceneImage(name: "photo", pixels: pixels), transform: fit, clip: nil)])
    }

    /// A scene drawing a test photo of `width` x `height` at `size`, and the pixels the
    /// reduction leaves it drawn from (no cache).
    static func photo(width: Int, height: Int, drawnAt size: Size) throws -> (scene: Scene, drawn: PixelBuffer) {
        let scene = Self.scene(drawing: Self.photo(width: width, height: height), at: size)
        let reduced = ImageReduction.reducing(scene, canvasToOutput: .identity, images: SharedImageCache(maxBytes: 0))
        return (scene, try #require(Self.drawnPixels(reduced)))
    }

    static func drawnPixels(_ scene: Scene) -> PixelBuffer? {
        for case .image(let image, _, _) in scene.operations { return image.pixels }
        return nil
    }

    @Test func aCameraPhotoInASmallFrameIsDrawnFromTheMeansOfItsBlocks() throws {
        let (scene, drawn) = try Self.photo(width: 2000, height: 1500, drawnAt: Size(width: 400, height: 300))
        #expect((drawn.width, drawn.height) == (400, 300), "a fifth along each side")

        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: 400, pixelHeight: 300)
        var worst = 0
        for (x, y) in [(0, 0), (17, 33), (200, 150), (399, 299), (123, 271)] {
            // The mean of the 5x5 block the output pixel stands for.
            var sums = [0, 0, 0]
            for sy in y * 5..<y * 5 + 5 {
                for sx in x * 5..<x * 5 + 5 {
                    sums[0] += sx * 200 / 2000
                    sums[1] += sy * 200 / 1500
                    sums[2] += (sx + sy) % 2 == 0 ? 255 : 0
                }
            }
            let pixel = image.pixel(x: x, y: y)
            let expected = sums.map { ($0 + 12) / 25 }
            worst = max(
                worst, abs(Int(pixel.r) - expected[0]), abs(Int(pixel.g) - expected[1]), abs(Int(pixel.b) - expected[2]))
        }
        #expect(worst <= 2, "each output pixel is its block's mean (worst channel off by \(worst))")
    }

    @Test func anImageSmallerThanAPhotoOrAPhotoDrawnAtThreeQuartersOfItsPixelsOrMoreIsDrawnAsItIs() {
        let sticker = Self.photo(width: 800, height: 600)
        let small = Self.scene(drawing: sticker, at: Size(width: 80, height: 60))
        #expect(Self.drawnPixels(ImageReduction.reducing(small, canvasToOutput: .identity)) === sticker)

        // The Cards app's own photo drawn at a tenth is reduced as a camera photo would be.
        let appPhoto = Self.photo(width: 1000, height: 750)
        let thumbnail = Self.scene(drawing: appPhoto, at: Size(width: 100, height: 75))
        #expect(Self.drawnPixels(ImageReduction.reducing(thumbnail, canvasToOutput: .identity))?.width == 100)

        let camera = Self.photo(width: 2000, height: 1500)
        let large = Self.scene(drawing: camera, at: Size(width: 1500, height: 1125))
        #expect(Self.drawnPixels(ImageReduction.reducing(large, canvasToOutput: .identity)) === camera)
    }

    @Test func aPhotoDrawnAtAHalfToThreeQuartersIsDrawnFromItsAreaMeansAtTheDrawnSize() throws {
        let (scene, drawn) = try Self.photo(width: 1000, height: 750, drawnAt: Size(width: 600, height: 450))
        #expect((drawn.width, drawn.height) == (600, 450), "resampled to the size it is drawn at")
        #expect(drawn.fullSize == (1000, 750), "placed as the whole photo")

        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: 600, pixelHeight: 450)
        var worst = 0
        for (x, y) in [(0, 0), (17, 33), (300, 225), (599, 449), (123, 271)] {
            // The mean of the source pixels under the output pixel, each weighted by how much of it is covered.
            var sums = [0.0, 0.0, 0.0]
            let span = 1000.0 / 600.0
            for sy in 0..<750 {
                let wy = max(0, min(Double(sy + 1), Double(y + 1) * span) - max(Double(sy), Double(y) * span))
                guard wy > 0 else { continue }
                for sx in 0..<1000 {
                    let wx = max(0, min(Double(sx + 1), Double(x + 1) * span) - max(Double(sx), Double(x) * span))
                    guard wx > 0 else { continue }
                    sums[0] += wx * wy * Double(sx * 200 / 1000)
                    sums[1] += wx * wy * Double(sy * 200 / 750)
                    sums[2] += wx * wy * ((sx + sy) % 2 == 0 ? 255 : 0)
                }
            }
            let pixel = image.pixel(x: x, y: y)
            let expected = sums.map { Int(($0 / (span * span)).rounded()) }
            worst = max(
                worst, abs(Int(pixel.r) - expected[0]), abs(Int(pixel.g) - expected[1]), abs(Int(pixel.b) - expected[2]))
        }
        #expect(worst <= 2, "each output pixel is the mean of what it covers (worst channel off by \(worst))")
    }

    /// A caller that asks for the nearest-neighbour filter (pixel art) gets the photo's own
    /// pixels, never a mean of several: the 1-pixel checker stays pure blue or none.
    @Test func aPhotoDrawnWithTheNearestFilterIsNeverAveraged() throws {
        let scene = Self.scene(drawing: Self.photo(width: 1000, height: 750), at: Size(width: 600, height: 450))
        let kept = ImageReduction.reducing(
            scene, canvasToOutput: .identity, filter: .nearest, images: SharedImageCache(maxBytes: 0))
        #expect(Self.drawnPixels(kept)?.width == 1000, "drawn from its own pixels")

        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: 600, pixelHeight: 450, imageFilter: .nearest)
        var blues = Set<UInt8>()
        for y in stride(from: 0, to: 450, by: 7) {
            for x in stride(from: 0, to: 600, by: 3) { blues.insert(image.pixel(x: x, y: y).b) }
        }
        #expect(blues == [0, 255], "every output pixel is one of the photo's: \(blues.sorted().prefix(8))")
    }

    @Test func areaWeightsCoverEachSourcePixelOnceAndAddUpToAWholePixel() {
        for (source, target) in [(1000, 600), (750, 450), (7, 5), (3, 2), (101, 100), (640, 321)] {
            let weights = AreaWeights(source: source, target: target)
            var coverage = [Int](repeating: 0, count: source)
            for t in 0..<target {
                let taps = weights.range(of: t)
                #expect(taps.reduce(0) { $0 + Int(weights.weights[$1]) } == 256, "\(source) -> \(target): pixel \(t)")
                for tap in taps { coverage[weights.sources[tap]] += Int(weights.weights[tap]) }
            }
            // Each source pixel gives about its share (256 * target / source) in all, within rounding.
            let share = 256.0 * Double(target) / Double(source)
            #expect(coverage.allSatisfy { abs(Double($0) - share) <= 3 }, "\(source) -> \(target): \(coverage.prefix(8))")
        }
    }

    /// The resampler sums a pixel's channels side by side in vector lanes, down the rows and
    /// then across: each must come out exactly as its own weighted sum (no carry from one lane
    /// into the next), on pixels of every value up to opaque white, at a width whose last
    /// pixel falls outside a whole vector.
    @Test func resamplingGivesEachChannelItsOwnWeightedSum() {
        let (width, height, targetWidth, targetHeight) = (97, 61, 60, 40)
        let image = PixelBuffer(width: width, height: height)
        var state: UInt32 = 12345
        image.withUnsafeBytes { raw in
            let pixels = UnsafeMutableRawPointer(mutating: raw.baseAddress!).assumingMemoryBound(to: UInt32.self)
            for index in 0..<(width * height) {
                state = state &* 1_664_525 &+ 1_013_904_223
                // Premultiplied: a colour is at most its alpha. Every third pixel opaque white.
                let alpha = index % 3 == 0 ? 255 : state >> 24
                let colour = { (shift: UInt32) in index % 3 == 0 ? 255 : (state >> shift & 0xFF) * alpha / 255 }
                pixels[index] = alpha << 24 | colour(16) << 16 | colour(8) << 8 | colour(0)
            }
        }
        let resampled = image.resampled(toWidth: targetWidth, height: targetHeight, threads: 2)
        let columns = AreaWeights(source: width, target: targetWidth), rows = AreaWeights(source: height, target: targetHeight)
        var mismatches = 0
        image.withUnsafeBytes { sourceBytes in
            resampled.withUnsafeBytes { resultBytes in
                let source = sourceBytes.bindMemory(to: UInt32.self), result = resultBytes.bindMemory(to: UInt32.self)
                for y in 0..<targetHeight {
                    for x in 0..<targetWidth {
                        for shift: UInt32 in [0, 8, 16, 24] {
                            var sum = 0
                            for row in rows.range(of: y) {
                                for column in columns.range(of: x) {
                                    let value = Int(source[rows.sources[row] * width + columns.sources[column]] >> shift & 0xFF)
                                    sum += value * Int(columns.weights[column]) * Int(rows.weights[row])
                                }
                            }
                            let expected = min(255, (sum + 32768) >> 16)
                            if Int(result[y * targetWidth + x] >> shift & 0xFF) != expected { mismatches += 1 }
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) channels differ from their own weighted sums")
    }

    /// A reduction far steeper than any photo's (2,000 pixels to 1), where every area weight
    /// rounds to 0 and a target pixel has no taps at all, still gives an image of the size
    /// asked for (the padded taps once read a source list that was empty, and trapped).
    @Test func aTargetPixelWithNoTapsIsResampledWithoutTrapping() {
        let image = PixelBuffer(width: 2000, height: 3)
        #expect(AreaWeights(source: 2000, target: 1).range(of: 0).isEmpty)
        let resampled = image.resampled(toWidth: 1, height: 3)
        #expect(resampled.width == 1 && resampled.height == 3)
    }

    @Test func theFactorIsWholeAndNeverBelowTheDrawnSize() {
        let camera = Self.photo(width: 2000, height: 1500)
        #expect(ImageReduction.factor(for: camera, transform: .scale(x: 0.2, y: 0.2)) == 5)
        #expect(ImageReduction.factor(for: camera, transform: .scale(x: 0.3, y: 0.3)) == 3, "1/0.3 = 3.33, rounded down")
        // Squeezed along one side only: the side that keeps the most pixels decides.
        #expect(ImageReduction.factor(for: camera, transform: .scale(x: 0.1, y: 0.6)) == 1)
        #expect(ImageReduction.factor(for: camera, transform: .scale(x: 0, y: 0)) == 1, "drawn at no size: nothing to reduce")
    }
}
