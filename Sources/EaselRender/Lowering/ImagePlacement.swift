import EaselGeometry
import EaselDocuments
import EaselCairo

/// An image aspect-fitted and centred in a frame, clipped by a shape laid out in the fitted
/// rectangle (the Cards app's rule, which drawings follow too).
enum ImagePlacement {
    static func fittedRect(for image: PixelBuffer, in frame: Size) -> Rect {
        // The whole image's size: a reduction covers what the whole image would.
        let full = image.fullSize
        let pixels = Size(width: Double(full.width), height: Double(full.height))
        return Rect(center: Point(x: frame.width / 2, y: frame.height / 2), size: pixels.aspectFit(in: frame))
    }

    static func operation(_ image: SceneImage, frame: Size, frameToCanvas: Transform2D, clip: ClipShape?) -> SceneOperation {
        let fitted = fittedRect(for: image.pixels, in: frame)
        let imageToCanvas = Transform2D.scale(
            x: fitted.width / Double(image.pixels.width), y: fitted.height / Double(image.pixels.height)
        )
        .concatenating(.translation(x: fitted.minX, y: fitted.minY))
        .concatenating(frameToCanvas)
        return .image(image, transform: imageToCanvas, clip: clip.map { $0.path(in: fitted).applying(frameToCanvas) })
    }
}
