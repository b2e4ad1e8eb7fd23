import EaselCairo
import EaselDocuments
import EaselGeometry
import FoundationEssentials

/// A document type that can be drawn: it lowers itself to a `Scene`. Card and Drawing
/// conform (in `Card+Rendering.swift` and `Drawing+Rendering.swift`); a library user's own
/// document type conforms the same way and, once registered with `DocumentRegistry`, is
/// rendered, exported and batch-exported like them.
public protocol RenderableDocument: FileDocument {
    /// The document as a scene. Problems that can be drawn around (a missing image, an
    /// unmapped font) become the scene's warnings, named with `context.file`.
    func scene(in context: LoweringContext) -> Scene

    /// The texts the document draws, each with the font name it asks for: a render lays
    /// them out once ahead — loading their fonts and any fallbacks — while its images
    /// decode on other cores. Optional (by default none).
    var textsToLayOut: [(text: String, fontName: String)] { get }

    /// Where the document draws its images: a raster render decodes each photo of two
    /// megapixels or more that is drawn at half its pixels or fewer at about the size it is
    /// drawn at. Optional (by default nil: every image is decoded whole). An image the
    /// lowering draws but the layout leaves out is decoded whole.
    var imageLayout: ImageLayout? { get }
}

extension RenderableDocument {
    /// None: the fonts load when the lowering reaches the texts.
    public var textsToLayOut: [(text: String, fontName: String)] { [] }

    /// Unknown: images are decoded whole.
    public var imageLayout: ImageLayout? { nil }
}

/// What a document needs to lower itself: where its resources are, the image and font
/// loaders of this render, and the background to draw instead of its own, if any.
public struct LoweringContext {
    /// The folder the document's images resolve from (see `LocatedDocument.resourceFolder`).
    public var resourceFolder: URL
    /// The document's name in warnings.
    public var file: String
    /// Decodes each image file once for this render.
    public var images: ImageLoader
    /// The process's fonts.
    public var fonts: FontLibrary
    /// Replaces the document's background when set (export's `--background`).
    public var background: Color?
    /// The document's texts laid out ahead of the lowering, if they were.
    public var textsAhead: TextLayoutAhead?

    /// A context for one render; by default with a fresh image loader, the shared fonts,
    /// the document's own background and no text laid out ahead.
    public init(
        resourceFolder: URL, file: String, images: ImageLoader = ImageLoader(), fonts: FontLibrary = .shared,
        background: Color? = nil, textsAhead: TextLayoutAhead? = nil
    ) {
        self.resourceFolder = resourceFolder
        self.file = file
        self.images = images
        self.fonts = fonts
        self.background = background
        self.textsAhead = textsAhead
    }
}
