import EaselGeometry

/// Where a document draws its images, told before it is lowered: a raster render then decodes
/// each large photo at about the size it is drawn at (`ImageLoader.planDecoding`), rather than
/// decoding all of it to draw a fraction of its pixels. Each use is what the lowering places:
/// the image aspect-fitted in `frame`, carried onto the canvas by `frameToCanvas`.
public struct ImageLayout: Sendable {
    /// One place an image is drawn.
    public struct Use: Sendable {
        /// The image's name, as the document gives it.
        public var name: String
        /// The frame the image is aspect-fitted in, in the frame's own units.
        public var frame: Size
        /// From the frame's space to the canvas.
        public var frameToCanvas: Transform2D

        /// A use of the image `name`, fitted in `frame`, placed on the canvas by `frameToCanvas`.
        public init(name: String, frame: Size, frameToCanvas: Transform2D) {
            (self.name, self.frame, self.frameToCanvas) = (name, frame, frameToCanvas)
        }
    }

    /// The document's canvas size.
    public var canvasSize: Size
    /// Every place an image is drawn; an image drawn twice is listed twice.
    public var uses: [Use]

    /// The layout of a canvas of `canvasSize` drawing `uses`.
    public init(canvasSize: Size, uses: [Use]) {
        (self.canvasSize, self.uses) = (canvasSize, uses)
    }
}
