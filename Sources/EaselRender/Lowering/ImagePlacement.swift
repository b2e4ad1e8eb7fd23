import EaselGeometry
import EaselDocuments

/// An image aspect-fitted and centred in a frame, clipped by a shape laid out in the fitted
/// rectangle (the Cards app's rule, which drawings follow too).
enum ImagePlacement {
    static func fittedRect(for raster: RasterImage, in frame: Size) -> Rect {
        let pixels = Size(width: Double(raster.width), height: Double(raster.height))
        return Rect(center: Point(x: frame.width / 2, y: frame.height / 2), size: pixels.aspectFit(in: frame))
    }

    static func operation(_ image: SceneImage, frame: Size, frameToCanvas: Transform2D, clip: ClipShape?) -> SceneOperation {
        let fitted = fittedRect(for: image.raster, in: frame)
        let imageToCanvas = Transform2D.scale(x: fitted.width / Double(image.raster.width), y: fitted.height / Double(image.raster.height))
            .concatenating(.translation(x: fitted.minX, y: fitted.minY))
            .concatenating(frameToCanvas)
        return .image(image, transform: imageToCanvas, clip: clip.map { $0.path(in: fitted).applying(frameToCanvas) })
    }
}
