import Foundation
import EaselGeometry
import EaselDocuments

/// Lays a card out as a scene, following ../shared/cards-format.md:
/// - the background fills the whole 1300x2000 canvas;
/// - each element's frame is centred at the card centre plus its offset and rotated
///   clockwise about its own centre;
/// - an image is aspect-fitted and centred in its frame, and a clip shape is laid out in
///   the fitted image's rectangle (not the whole frame);
/// - images first, then texts, each in stored order.
public enum CardLowering {
    public static func scene(for card: Card, folder: URL, images: ImageLoader, file: String) -> Scene {
        var scene = Scene(canvasSize: Card.canvasSize)
        var background = Path()
        background.addRect(Rect(origin: .zero, size: Card.canvasSize))
        scene.operations.append(.fill(background, card.backgroundColor))

        for (index, element) in card.imageElements.enumerated() {
            let keyPath = "imageElements[\(index)]"
            let frame = element.transform
            guard frame.size.width > 0, frame.size.height > 0 else {
                scene.warnings.append(DocumentWarning(file: file, keyPath: keyPath + ".transform.size",
                                                      message: "the frame \(frame.size) has no area; the element is not drawn"))
                continue
            }
            guard let name = element.imageFilename else {
                // No image chosen: the app draws the error image too.
                scene.operations += ErrorImage.operations(in: frame.size, frameToCanvas: frame.frameToCard)
                continue
            }
            switch images.cardImage(named: name, inFolder: folder) {
            case .failed(let reason):
                scene.warnings.append(DocumentWarning(file: file, keyPath: keyPath + ".imageFilename", message: reason))
                scene.operations += ErrorImage.operations(in: frame.size, frameToCanvas: frame.frameToCard)
            case .loaded(let raster):
                scene.operations.append(imageOperation(SceneImage(name: name, raster: raster), element: element))
            }
        }
        return scene
    }

    /// The image aspect-fitted and centred in the element's frame, clipped by the element's
    /// clip shape laid out in the fitted rectangle.
    static func imageOperation(_ image: SceneImage, element: ImageElement) -> SceneOperation {
        let frame = element.transform
        let pixelSize = Size(width: Double(image.raster.width), height: Double(image.raster.height))
        let fitted = pixelSize.aspectFit(in: frame.size)
        let fittedRect = Rect(center: Point(x: frame.size.width / 2, y: frame.size.height / 2), size: fitted)
        let imageToCanvas = Transform2D.scale(x: fitted.width / pixelSize.width, y: fitted.height / pixelSize.height)
            .concatenating(.translation(x: fittedRect.minX, y: fittedRect.minY))
            .concatenating(frame.frameToCard)
        let clip = element.clip.map { $0.path(in: fittedRect).applying(frame.frameToCard) }
        return .image(image, transform: imageToCanvas, clip: clip)
    }
}
