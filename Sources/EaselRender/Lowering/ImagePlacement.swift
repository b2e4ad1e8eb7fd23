import EaselGeometry
import EaselDocuments
import EaselCairo

/// An image aspect-fitted and centred in a frame, clipped by a shape laid out in the fitted
/// rectangle (the Cards app's rule, which drawings follow too).
enum ImagePlacement {
    /// Where an image of `width` x `height` pixels sits in `frame`: aspect-fitted and centred.
    static func fittedRect(width: Int, height: Int, in frame: Size) -> Rect {
        let pixels = Size(width: Double(width), height: Double(height))
        return Rect(center: Point(x: frame.width / 2, y: frame.height / 2), size: pixels.aspectFit(in: frame))
    }

    /// Where `image` sits in `frame`, by the whole image's size: a reduction covers what the
    /// whole image would.
    static func fittedRect(for image: PixelBuffer, in frame: Size) -> Rect {
        let full = image.fullSize
        return fittedRect(width: full.width, height: full.height, in: frame)
    }

    /// From a buffer of `width` x `height` pixels onto `fitted`, in the frame's units.
    static func imageToFrame(width: Int, height: Int, fitted: Rect) -> Transform2D {
        Transform2D.scale(x: fitted.width / Double(width), y: fitted.height / Double(height))
            .concatenating(.translation(x: fitted.minX, y: fitted.minY))
    }

    static func operation(_ image: SceneImage, frame: Size, frameToCanvas: Transform2D, clip: ClipShape?) -> SceneOperation {
        let fitted = fittedRect(for: image.pixels, in: frame)
        let imageToCanvas = imageToFrame(width: image.pixels.width, height: image.pixels.height, fitted: fitted)
            .concatenating(frameToCanvas)
        return .image(image, transform: imageToCanvas, clip: clip.map { $0.path(in: fitted).applying(frameToCanvas) })
    }
}
