import Dispatch
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselSupport

/// Draws a scene with cairo, onto any surface (raster, SVG, PDF). It knows nothing of cards
/// or drawings: this is the one place where scene values become EaselCairo calls.
public enum CairoSceneRenderer {
    /// Draws `scene` into `context`, whose user space is already set up so that the
    /// scene's canvas units map onto the output.
    public static func draw(
        _ scene: Scene, in context: CairoContext, imageFilter: ImageFilter = .good,
        fonts: FontLibrary = .shared
    ) throws(RenderError) {
        try draw(
            scene, in: context, images: try RenderError.wrapping { try cairoImages(for: scene) }, imageFilter: imageFilter,
            fonts: fonts)
    }

    /// One cairo image per decoded buffer, however often the scene draws it (a PDF or SVG
    /// then embeds each image once), made in the order the scene first uses them and before
    /// the output surface, so that cairo numbers them as it always has (SVG ids included).
    /// With `embeddingFiles` (an SVG or PDF), each image decoded from a file that is still
    /// as it was decoded, and that a viewer shows as Easel draws it, carries the file itself
    /// (`RasterImage.attachEncodedFile`): an SVG then embeds the photo's own bytes, a PDF a
    /// JPEG's, instead of cairo encoding the pixels again (fifteen times the PNG export's time
    /// for a card of three photos). `svg`: every other image carries a PNG of its pixels made
    /// by Easel's own writer, which an SVG embeds as it would cairo's (the same pixels) in a
    /// fraction of the time (a phone's portrait photo, turned upright: 4.4 s by cairo's).
    static func cairoImages(for scene: Scene, embeddingFiles: Bool = false, svg: Bool = false) throws
        -> [ObjectIdentifier: RasterImage]
    {
        var images: [ObjectIdentifier: RasterImage] = [:]
        for case .image(let image, _, _) in scene.operations where images[ObjectIdentifier(image.pixels)] == nil {
            let raster = try RasterImage(sharing: image.pixels)
            if embeddingFiles, let source = image.source, let key = image.pixels.contentKey,
                let bytes = try? FileIO.readBytes(at: source.path, maxBytes: RenderLimits.maxImageFileBytes),
                Checksums.contentKey(of: bytes) == key, let mimeType = ImageDecoder.embeddableMIMEType(of: bytes, inSVG: svg)
            {
                try raster.attachEncodedFile(bytes, mimeType: mimeType)
            }
            if svg, raster.attachedFileType == nil {
                try raster.attachEncodedFile(try PNGEncoder.encode(raster), mimeType: "image/png")
            }
            images[ObjectIdentifier(image.pixels)] = raster
        }
        return images
    }

    static func draw(
        _ scene: Scene, in context: CairoContext, images: [ObjectIdentifier: RasterImage], imageFilter: ImageFilter,
        fonts: FontLibrary, visible: Rect? = nil, plan: GroupPlan? = nil
    ) throws(RenderError) {
        var images = images
        // Each open group's opacity, and whether it is drawn as a layer (`GroupPlan`).
        var openGroups: [(opacity: Double, layered: Bool)] = []
        // Made once for a render's strips, which each draw the whole scene.
        let plan = plan ?? GroupPlan(scene.operations)
        /// False when `path` (in canvas units, widened by `margin`) lies wholly outside the
        /// part being drawn (a strip): drawing it there would change no pixel.
        func isVisible(_ path: Path, margin: Double) -> Bool {
            guard let visible, let bounds = path.controlPointBounds else { return true }
            return bounds.reaches(visible, margin: margin)
        }
        try RenderError.wrapping {
            // A layered group wholly outside the part being drawn is passed over to its end.
            var passOverThrough = -1
            for (index, operation) in scene.operations.enumerated() where index > passOverThrough {
                // Every 16 operations, and before each shadow (a blur costs more than most).
                var isShadow = false
                if case .shadow = operation { isShadow = true }
                if let deadline = scene.deadline, index % 16 == 0 || isShadow, DispatchTime.now().uptimeNanoseconds > deadline {
                    throw RenderError.timedOut(file: scene.file)
                }
                // The opacity of a group of this operation alone, drawn straight at it.
                let alpha = plan.directOpacity[index] ?? 1
                switch operation {
                case .fill(let path, let color):
                    guard isVisible(path, margin: 0) else { continue }
                    try context.setSource(color.multiplyingAlpha(by: alpha))
                    try context.fill(path)
                case .stroke(let path, let style):
                    // A miter can reach several widths out (cairo's limit is 10): 5 is half of it.
                    guard isVisible(path, margin: style.width * 5) else { continue }
                    try context.stroke(
                        path, color: style.color.multiplyingAlpha(by: alpha), width: style.width, dash: style.dash,
                        cap: lineCap(style.cap), join: lineJoin(style.join))
                case .image(let image, let transform, let clip):
                    let key = ObjectIdentifier(image.pixels)
                    let raster = try images[key] ?? RasterImage(sharing: image.pixels)
                    images[key] = raster
                    try context.withSavedState { () throws(CairoError) in
                        if let clip { try context.clip(clip) }
                        guard try context.concatenateIfVisible(transform) else { return }
                        try context.drawImage(raster, filter: imageFilter, opacity: alpha)
                    }
                case .text(var text):
                    text.color = text.color.multiplyingAlpha(by: alpha)
                    try drawText(text, in: context, fonts: fonts)
                case .beginGroup(let opacity, let clip):
                    if let visible, plan.drawsLayer(beginningAt: index, opacity: opacity),
                        let end = plan.endOfGroupOutside(visible, beginningAt: index)
                    {
                        passOverThrough = end
                        continue
                    }
                    try context.save()
                    if let clip { try context.clip(clip) }
                    // A layer only where one is needed, and only as large as what it holds.
                    let layered = plan.drawsLayer(beginningAt: index, opacity: opacity)
                    if layered {
                        if let bounds = plan.bounds[index] { try context.clipToPixels(around: bounds) }
                        try context.pushGroup()
                    }
                    openGroups.append((opacity, layered))
                case .endGroup:
                    guard let group = openGroups.popLast() else {
                        throw RenderError.unbalancedGroups(file: scene.file, problem: "a scene ends a group it never began")
                    }
                    if group.layered { try context.popGroupAndPaint(opacity: group.opacity) }
                    try context.restore()
                case .shadow(let shadow):
                    var caster = Scene(canvasSize: scene.canvasSize, operations: shadow.operations)
                    caster.file = scene.file
                    caster.deadline = scene.deadline
                    try context.drawShadow(color: shadow.color, offset: shadow.offset, blurRadius: shadow.blurRadius) {
                        recorder in
                        try draw(caster, in: recorder, images: images, imageFilter: imageFilter, fonts: fonts)
                    }
                }
            }
        }
        guard openGroups.isEmpty else {
            throw .unbalancedGroups(file: scene.file, problem: "a scene leaves \(openGroups.count) group(s) open")
        }
    }

    /// Rasterises `scene` into a new image of `pixelWidth` x `pixelHeight`, stretching the
    /// canvas onto it (the caller keeps the aspect ratio when it wants to).
    /// `canvasToOutput` places the canvas otherwise (a fitted box, an area of the canvas).
    /// Images of 1.5 million pixels and more are drawn in strips of `stripRows` rows, on as
    /// many cores as are idle (`threads` forces the number): the strips are cut the same way
    /// whatever the cores, so the pixels never depend on the machine or on how busy it is.
    public static func rasterize(
        _ scene: Scene, pixelWidth: Int, pixelHeight: Int, canvasToOutput: Transform2D? = nil,
        imageFilter: ImageFilter = .good, stripRows: Int? = nil, threads: Int? = nil
    ) throws(RenderError) -> RasterImage {
        try RenderError.wrapping {
            let image = try RasterImage(width: pixelWidth, height: pixelHeight)
            let transform = canvasToOutput ?? stretch(scene, pixelWidth, pixelHeight)
            // Photos drawn at under three quarters of their pixels are drawn from a reduction.
            let scene = ImageReduction.reducing(scene, canvasToOutput: transform, filter: imageFilter)
            let rows = max(1, stripRows ?? (isLarge(pixelWidth, pixelHeight) ? Self.stripRows : pixelHeight))
            let clip = needsCanvasClip(scene, transform: transform, width: Double(pixelWidth), height: Double(pixelHeight))
            let plan = GroupPlan(scene.operations)
            // Whole, unless its layers need thinner strips (`drawStrip` cuts them).
            let thin = layerRows(depth: plan.layerDepth, width: pixelWidth)
            guard rows < pixelHeight || thin.map({ $0 < pixelHeight }) == true else {
                try fitCanvas(
                    of: scene, into: CairoContext(image: image), images: try cairoImages(for: scene), transform: transform,
                    imageFilter: imageFilter, clipToCanvas: clip, plan: plan)
                return image
            }
            // Each strip is its own context over its rows of the same memory, the scene
            // shifted up by the strip's top row (a whole number of pixels).
            let tops = Array(stride(from: 0, to: pixelHeight, by: rows))
            let failure = Locked<(any Error)?>(nil)
            // The workers only read the scene (its images are immutable pixel buffers) and
            // each draws into its own rows of the image.
            let sendableScene = UncheckedSendable(scene), sendableImage = UncheckedSendable(image)
            let workers = max(1, min(threads ?? EncoderParallelism.threads(), tops.count))
            Parallel.forEach(count: tops.count, workers: workers) { index in
                let top = tops[index], bottom = min(pixelHeight, top + rows)
                do {
                    let strip = try sendableImage.value.strip(rows: top..<bottom)
                    try drawStrip(
                        sendableScene.value, into: strip, rows: top..<bottom, width: pixelWidth, transform: transform,
                        imageFilter: imageFilter, clipToCanvas: clip, plan: plan)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
            image.markDirty()
            if let error = failure.withLock({ $0 }) { throw error }
            return image
        }
    }

    /// Draws `scene` as `rasterize` would and encodes it as PNG band by band, each band as
    /// soon as it is drawn (`PNGEncoder.encodeDrawnInBands`), handing the file's bytes to
    /// `emit`: the same bytes as `rasterize` then `PNGEncoder.encode`, with a band of memory
    /// per core instead of the whole image. Only for images `rasterize` draws in strips (its
    /// strips are the encoder's bands, `PNGEncoder.bandRows` rows each), with Easel's own PNG
    /// writer, and for `.auto` colour only when the scene starts with an opaque fill of its
    /// whole canvas and the canvas covers the output. `threads` forces the number of cores. Returns false when
    /// it does not apply, or when a band turned out not opaque after all: then whatever was
    /// emitted must be thrown away.
    package static func encodePNGInBands(
        _ scene: Scene, pixelWidth: Int, pixelHeight: Int, canvasToOutput: Transform2D, imageFilter: ImageFilter,
        png: PNGEncodingOptions, threads: Int? = nil, emit: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(RenderError) -> Bool {
        guard drawsInStrips(pixelWidth, pixelHeight) else { return false }
        let clip = needsCanvasClip(scene, transform: canvasToOutput, width: Double(pixelWidth), height: Double(pixelHeight))
        // The workers only read the scene (its images are immutable pixel buffers); photos
        // drawn at under three quarters of their pixels are drawn from a reduction, as
        // `rasterize` does.
        let shared = UncheckedSendable(ImageReduction.reducing(scene, canvasToOutput: canvasToOutput, filter: imageFilter))
        let plan = GroupPlan(shared.value.operations)
        return try RenderError.wrapping {
            // The whole output's size is checked as a whole image's would be.
            try RenderLimits.checkOutput(width: pixelWidth, height: pixelHeight)
            return try PNGEncoder.encodeDrawnInBands(
                width: pixelWidth, height: pixelHeight, options: png, expectOpaque: !clip && startsOpaque(scene),
                threads: threads,
                draw: { band, rows in
                    // Exactly as `rasterize` draws its strip of the same rows.
                    try drawStrip(
                        shared.value, into: band, rows: rows, width: pixelWidth, transform: canvasToOutput,
                        imageFilter: imageFilter, clipToCanvas: clip, plan: plan)
                }, emit: emit)
        }
    }

    /// Whether `encodePNGInBands` takes this image (it may still find a band not opaque).
    package static func encodesPNGInBands(
        _ scene: Scene, pixelWidth: Int, pixelHeight: Int, canvasToOutput: Transform2D, png: PNGEncodingOptions
    ) -> Bool {
        guard drawsInStrips(pixelWidth, pixelHeight) else { return false }
        let clip = needsCanvasClip(scene, transform: canvasToOutput, width: Double(pixelWidth), height: Double(pixelHeight))
        return PNGEncoder.encodesDrawnInBands(options: png, expectOpaque: !clip && startsOpaque(scene))
    }

    /// Whether `scene` begins with an opaque fill of at least its whole canvas (a card's or
    /// a drawing's background), so that, drawn over, every pixel of the canvas is opaque.
    static func startsOpaque(_ scene: Scene) -> Bool {
        guard case .fill(let path, let color) = scene.operations.first, color.alpha >= 1,
            let bounds = path.controlPointBounds
        else { return false }
        return bounds.minX <= 0 && bounds.minY <= 0 && bounds.maxX >= scene.canvasSize.width
            && bounds.maxY >= scene.canvasSize.height
    }

    /// Draws rows `rows` of the output into `strip`, an image whose first row is
    /// `rows.lowerBound`: the scene shifted up by that many pixels (a whole number, so each
    /// strip's pixels are the same whichever path draws it), skipping what lies wholly
    /// outside the strip, and flushed into the strip's memory. `rasterize`'s strips and
    /// `encodePNGInBands`'s bands both come through here.
    ///
    /// A scene whose layers nest deep enough to hold more than `layerBytesPerStrip` over the
    /// strip's rows is drawn in thinner strips of the same memory, cut at whole multiples of
    /// `layerRows(depth:width:)` from the output's top, so that both paths cut alike. `plan`
    /// is the scene's, made once for all its strips.
    private static func drawStrip(
        _ scene: Scene, into strip: RasterImage, rows: Range<Int>, width: Int, transform: Transform2D,
        imageFilter: ImageFilter, clipToCanvas: Bool, plan: GroupPlan
    ) throws {
        guard let thin = layerRows(depth: plan.layerDepth, width: width), thin < rows.count else {
            return try drawRows(
                scene, into: strip, rows: rows, width: width, transform: transform, imageFilter: imageFilter,
                clipToCanvas: clipToCanvas, plan: plan)
        }
        var top = rows.lowerBound
        while top < rows.upperBound {
            let bottom = min(rows.upperBound, (top / thin + 1) * thin)
            let part = try strip.strip(rows: (top - rows.lowerBound)..<(bottom - rows.lowerBound))
            try drawRows(
                scene, into: part, rows: top..<bottom, width: width, transform: transform, imageFilter: imageFilter,
                clipToCanvas: clipToCanvas, plan: plan)
            top = bottom
        }
    }

    /// The most bytes the layers open at once may hold while one strip is drawn: 16 nested
    /// faded groups across a 25000-pixel-wide output held 650 MB in strips of 256 rows.
    static let layerBytesPerStrip = 32 << 20

    /// How many rows of `width` pixels a strip may have for `depth` layers open at once
    /// (a scene's `GroupPlan.layerDepth`, each up to a strip's width, in ARGB32) to hold at
    /// most `layerBytesPerStrip`; nil when the scene draws no layer.
    static func layerRows(depth: Int, width: Int) -> Int? {
        guard depth > 0, width > 0 else { return nil }
        let rows = Double(layerBytesPerStrip) / (Double(depth) * Double(width) * 4)
        return rows >= Double(Int32.max) ? Int(Int32.max) : max(1, Int(rows))
    }

    /// Draws rows `rows` of the output into `strip`, as `drawStrip` says, in one piece.
    private static func drawRows(
        _ scene: Scene, into strip: RasterImage, rows: Range<Int>, width: Int, transform: Transform2D,
        imageFilter: ImageFilter, clipToCanvas: Bool, plan: GroupPlan
    ) throws {
        // The strip's rows in canvas units (the transform only scales and moves), two pixels
        // wider on each side for antialiasing.
        let visible = canvasRect(ofRows: rows.lowerBound - 2..<rows.upperBound + 2, width: width, transform: transform)
        // Each strip its own cairo images: a cairo surface is not shared between threads.
        try fitCanvas(
            of: scene, into: CairoContext(image: strip), images: try cairoImages(for: scene),
            transform: transform.concatenating(.translation(x: 0, y: -Double(rows.lowerBound))), imageFilter: imageFilter,
            visible: visible, clipToCanvas: clipToCanvas, plan: plan)
        strip.withUnsafePixels { _ in }  // flushes the strip's drawing into the memory
    }

    /// The canvas rectangle that `rows` of the output show, for an axis-aligned `transform`
    /// (scale and translation, as every output placement is); nil when it is not one.
    static func canvasRect(ofRows rows: Range<Int>, width: Int, transform: Transform2D) -> Rect? {
        guard transform.b == 0, transform.c == 0, transform.a != 0, transform.d != 0 else { return nil }
        let xs = [(-2 - transform.tx) / transform.a, (Double(width) + 2 - transform.tx) / transform.a]
        let ys = [(Double(rows.lowerBound) - transform.ty) / transform.d, (Double(rows.upperBound) - transform.ty) / transform.d]
        return Rect(x: xs.min()!, y: ys.min()!, width: abs(xs[1] - xs[0]), height: abs(ys[1] - ys[0]))
    }

    /// Whether an image of `width` x `height` pixels is large: 1.5 million pixels or more,
    /// drawn in strips on the idle cores (and unmapped in the background once written).
    package static func isLarge(_ width: Int, _ height: Int) -> Bool { width * height >= 1_500_000 }

    /// Whether `rasterize` draws such an image in strips (large, and taller than one strip).
    static func drawsInStrips(_ width: Int, _ height: Int) -> Bool { isLarge(width, height) && stripRows < height }

    /// Rows per strip when a large image is rasterised in strips: the PNG encoder's bands,
    /// so that a band drawn and encoded on its own (`encodePNGInBands`) has the pixels of
    /// the same rows drawn as a strip of the whole image.
    public static let stripRows = PNGEncoder.bandRows

    static func stretch(_ scene: Scene, _ width: Double, _ height: Double) -> Transform2D {
        .scale(x: width / scene.canvasSize.width, y: height / scene.canvasSize.height)
    }

    static func stretch(_ scene: Scene, _ width: Int, _ height: Int) -> Transform2D {
        stretch(scene, Double(width), Double(height))
    }

    /// Draws `scene` as a one-page SVG or PDF of `width` x `height` and returns its bytes.
    public static func vectorFile(
        _ scene: Scene, format: VectorSurface.Format, width: Int, height: Int,
        imageFilter: ImageFilter = .good
    ) throws(RenderError) -> [UInt8] {
        try vectorFile(
            scene, format: format, width: Double(width), height: Double(height), physical: false,
            canvasToOutput: stretch(scene, width, height), imageFilter: imageFilter)
    }

    /// Draws `scene` on a page of `width` x `height` (points, or SVG pixels unless
    /// `physical`), placed by `canvasToOutput`.
    public static func vectorFile(
        _ scene: Scene, format: VectorSurface.Format, width: Double, height: Double, physical: Bool,
        canvasToOutput: Transform2D, imageFilter: ImageFilter = .good
    ) throws(RenderError) -> [UInt8] {
        try RenderError.wrapping {
            // A PDF's opaque images, but for JPEG files it embeds as they are, go in as rows
            // Easel deflated (see `PDFImageStreams`); should that fail, the PDF is drawn again
            // as cairo alone writes it.
            func draw(embeddingRows: Bool) throws -> [UInt8] {
                let images = try cairoImages(for: scene, embeddingFiles: true, svg: format == .svg)
                let surface = try VectorSurface(format: format, width: width, height: height, physical: physical)
                if embeddingRows && format == .pdf {
                    let drawnFromPixels = images.filter { $0.value.attachedFileType != "image/jpeg" }
                    for (key, rows) in flateImages(of: scene, only: Set(drawnFromPixels.keys)) {
                        if let raster = images[key] { try surface.embed(rows, for: raster) }
                    }
                }
                try fitCanvas(
                    of: scene, into: surface.context(), images: images, transform: canvasToOutput, imageFilter: imageFilter,
                    clipToCanvas: needsCanvasClip(scene, transform: canvasToOutput, width: width, height: height))
                return try surface.finish()
            }
            do {
                return try draw(embeddingRows: true)
            } catch CairoError.imagesNotEmbedded {
                return try draw(embeddingRows: false)
            }
        }
    }

    /// The opaque ones among the scene's images `keys` names, as PDF image streams
    /// (`PDFImageStreams.FlateImage`), deflated on the cores at once. An image with
    /// transparency, or one whose rows could not be made, is left out: cairo writes it.
    static func flateImages(of scene: Scene, only keys: Set<ObjectIdentifier>) -> [ObjectIdentifier:
        PDFImageStreams.FlateImage]
    {
        var pixels: [ObjectIdentifier: PixelBuffer] = [:]
        for case .image(let image, _, _) in scene.operations where keys.contains(ObjectIdentifier(image.pixels)) {
            pixels[ObjectIdentifier(image.pixels)] = image.pixels
        }
        let work = Array(pixels)
        let made = Locked([ObjectIdentifier: PDFImageStreams.FlateImage]())
        Parallel.forEach(count: work.count, workers: EncoderParallelism.threads()) { index in
            if let rows = try? PDFImageStreams.FlateImage(opaque: work[index].value) {
                made.withLock { $0[work[index].key] = rows }
            }
        }
        return made.withLock { $0 }
    }

    /// Draws `scene` into `context` through `transform` (canvas to output), skipping what lies
    /// wholly outside `visible` (in canvas units) when it is given.
    /// Draws `scene` into `context` through `transform` (canvas to output), skipping what lies
    /// wholly outside `visible` (in canvas units) when it is given, and clipped to the canvas
    /// with `clipToCanvas` (the app clips everything to its canvas).
    private static func fitCanvas(
        of scene: Scene, into context: CairoContext, images: [ObjectIdentifier: RasterImage],
        transform: Transform2D, imageFilter: ImageFilter, visible: Rect? = nil, clipToCanvas: Bool = false,
        plan: GroupPlan? = nil
    ) throws {
        try context.concatenate(transform)
        if clipToCanvas {
            var canvas = Path()
            canvas.addRect(Rect(origin: .zero, size: scene.canvasSize))
            try context.clip(canvas)
        }
        try draw(scene, in: context, images: images, imageFilter: imageFilter, fonts: .shared, visible: visible, plan: plan)
    }

    /// Whether the canvas, placed by `transform`, leaves part of a `width` x `height` output
    /// uncovered (a box fitted with `contain`, an area reaching past the canvas): only then
    /// can an element spill where the app would show nothing, and only then is a clip drawn
    /// (when the canvas fills the output, the output's own edges clip it, and the pixels
    /// stay exactly as they were).
    static func needsCanvasClip(_ scene: Scene, transform: Transform2D, width: Double, height: Double) -> Bool {
        var canvas = Path()
        canvas.addRect(Rect(origin: .zero, size: scene.canvasSize))
        guard let placed = canvas.applying(transform).controlPointBounds else { return true }
        return placed.minX > 0 || placed.minY > 0 || placed.maxX < width || placed.maxY < height
    }

    private static func drawText(_ text: SceneText, in context: CairoContext, fonts: FontLibrary) throws {
        guard text.fontSize > 0, !text.line.runs.isEmpty else { return }
        let runs = try text.line.runs.map { run in (face: try fonts.face(for: run.font), glyphs: run.glyphs) }
        try context.showGlyphs(runs, size: text.fontSize, color: text.color, transform: text.transform)
    }

    private static func lineCap(_ cap: Stroke.Cap) -> CairoContext.LineCap {
        switch cap {
        case .butt: return .butt
        case .round: return .round
        case .square: return .square
        }
    }

    private static func lineJoin(_ join: Stroke.Join) -> CairoContext.LineJoin {
        switch join {
        case .miter: return .miter
        case .round: return .round
        case .bevel: return .bevel
        }
    }
}
