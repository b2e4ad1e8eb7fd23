import EaselCairo
import EaselGeometry

/// Photos drawn at a fraction of their pixels are reduced, once, to about the size they are
/// drawn at before a raster render draws them: a 4000x3000 photo in a 1200x900 frame is
/// drawn from 1333x1000 pixels, a card's thumbnail from a few hundred. Drawing resamples
/// only those (cairo's filter over a whole big photo costs more than the reduction), and a
/// reduced photo kept for later renders holds a ninth of the memory or less, and a collage's
/// twelve app photos in 420x315 frames draw in nine tenths of the time. A photo drawn at more
/// than half its pixels and under three quarters is resampled to the size it is drawn at
/// (each pixel the mean of what it covers): cairo's GOOD filter draws such a photo through
/// pixman's separable convolution, several times the cost of the bilinear filter it uses
/// from three quarters up, and a folder of the app's typical cards (two photos of three
/// drawn so) spent a third of its time there. A photo drawn at three quarters or more is
/// drawn as it is, and so is an image smaller than a photo, and every image a caller asks to
/// be drawn with `ImageFilter.nearest` (its pixels kept hard, never averaged).
///
/// The reduction is by a whole factor (a box filter: each pixel the mean of a block), never
/// below the drawn size along either side, and the image's transform is adjusted so that
/// the reduced image covers exactly the rectangle the whole one did; a resampling likewise.
enum ImageReduction {
    /// The fewest pixels an image has for it to be reduced: a photo's.
    static let minimumPixels = PixelBuffer.photoPixels

    /// Whether photos drawn with `filter` may be drawn from fewer pixels than they have (a
    /// reduction, a resampling, or a smaller decoding: `ImageLoader.planDecoding`): not with
    /// `.nearest`, whose every output pixel must be one of the photo's own.
    static func applies(to filter: ImageFilter) -> Bool { filter != .nearest }

    /// `scene` with every photo drawn at under three quarters of its pixels (through
    /// `canvasToOutput`, canvas units to output pixels) replaced by its reduction or resampling
    /// (none when the images are drawn with `filter` `.nearest`).
    static func reducing(
        _ scene: Scene, canvasToOutput: Transform2D, filter: ImageFilter = .good, images: SharedImageCache = .shared
    ) -> Scene {
        guard applies(to: filter) else { return scene }
        // Each image's smaller versions made for this scene, by what they are ("reduced-2"):
        // an image drawn several times alike is made smaller once, cache or not.
        var made: [ObjectIdentifier: [String: PixelBuffer]] = [:]
        var scene = scene
        for (index, operation) in scene.operations.enumerated() {
            guard case .image(var image, let transform, let clip) = operation,
                image.pixels.width * image.pixels.height >= minimumPixels
            else { continue }
            let imageToOutput = transform.concatenating(canvasToOutput)
            let factor = self.factor(for: image.pixels, transform: imageToOutput)
            let original = image.pixels
            let variant: String
            let make: () -> PixelBuffer
            if factor >= 2 {
                variant = "reduced-\(factor)"
                make = { original.reduced(by: factor, threads: EncoderParallelism.threads()) }
            } else if let size = resampledSize(for: original, transform: imageToOutput) {
                variant = "resampled-\(size.width)x\(size.height)"
                make = { original.resampled(toWidth: size.width, height: size.height, threads: EncoderParallelism.threads()) }
            } else {
                continue
            }
            let small: PixelBuffer
            if let done = made[ObjectIdentifier(original)]?[variant] {
                small = done
            } else {
                small = images.image(for: original.contentKey.map { "\($0)/\(variant)" }) {
                    let result = make()
                    result.contentKey = nil
                    return result
                }
                made[ObjectIdentifier(original), default: [:]][variant] = small
            }
            image.pixels = small
            // The reduced image's pixel space onto the whole one's, exactly (edges included).
            let scale = Transform2D.scale(
                x: Double(original.width) / Double(small.width), y: Double(original.height) / Double(small.height))
            scene.operations[index] = .image(image, transform: scale.concatenating(transform), clip: clip)
        }
        return scene
    }

    /// The whole factor an image drawn through `imageToOutput` may be reduced by: how many of
    /// its pixels fall on one output pixel along the side that keeps the most, rounded down.
    static func factor(for pixels: PixelBuffer, transform imageToOutput: Transform2D) -> Int {
        factor(width: pixels.width, height: pixels.height, transform: imageToOutput)
    }

    /// The size a photo drawn at more than a half and under three quarters of its pixels
    /// (through `imageToOutput`, along the side that keeps the most) is resampled to: the
    /// size it is drawn at, rounded up. Nil otherwise: cairo draws a photo at three quarters
    /// and more with its bilinear filter, and one at a half or less is reduced by a whole
    /// factor (`factor`).
    static func resampledSize(for pixels: PixelBuffer, transform imageToOutput: Transform2D) -> (width: Int, height: Int)? {
        let scale = drawnScale(imageToOutput)
        guard scale.isFinite, scale > 0.5, scale < 0.75 else { return nil }
        let width = (Double(pixels.width) * scale).rounded(.up), height = (Double(pixels.height) * scale).rounded(.up)
        guard width >= 1, height >= 1, width < Double(pixels.width), height < Double(pixels.height) else { return nil }
        return (Int(width), Int(height))
    }

    /// The factor for an image of `width` x `height` pixels drawn through `imageToOutput`.
    static func factor(width: Int, height: Int, transform imageToOutput: Transform2D) -> Int {
        let scale = drawnScale(imageToOutput)
        guard scale.isFinite, scale > 0 else { return 1 }
        let factor = (1 / scale).rounded(.down)
        guard factor >= 2, factor <= 64 else { return factor > 64 ? 64 : 1 }
        return min(Int(factor), width, height)
    }

    /// How many output pixels one of the image's pixels covers through `imageToOutput`, along
    /// the side that keeps the most (a rotation changes nothing).
    private static func drawnScale(_ imageToOutput: Transform2D) -> Double {
        let alongX = (imageToOutput.a * imageToOutput.a + imageToOutput.b * imageToOutput.b).squareRoot()
        let alongY = (imageToOutput.c * imageToOutput.c + imageToOutput.d * imageToOutput.d).squareRoot()
        return max(alongX, alongY)
    }
}
