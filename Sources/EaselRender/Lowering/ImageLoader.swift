import EaselGeometry
import FoundationEssentials
import EaselDocuments
import EaselSupport
import EaselCairo

/// Loads the images one document uses, each file decoded once however often the document
/// uses it, into Swift-owned pixels (no cairo object). One loader belongs to one render.
public final class ImageLoader {
    /// What became of one image.
    public enum Outcome {
        /// The decoded image and the file it came from.
        case loaded(PixelBuffer, URL)
        /// The reason, as a warning to show; the error image is drawn instead.
        case failed(String)
    }

    private var cache: [URL: Outcome] = [:]
    /// The most pixels an image may have; a larger one fails and draws the error image.
    public let maxPixels: Int
    /// The most pixels all the images of one render may have together (see `RenderBudgets`).
    public let maxTotalPixels: Int
    /// Pixels decoded so far, counted as `ImageDecoder.Header.costInPixels` (an image's
    /// pixels and its decoder's work memory).
    public private(set) var decodedPixels = 0
    /// The render's deadline (`DispatchTime` uptime nanoseconds, as `Scene.deadline`), nil
    /// for none: decoding stops at it, and so does the lowering's text layout, which reads it
    /// here. A render whose lowering reached it fails as timed out.
    public var deadline: UInt64?
    /// Where decoded images are shared with other renders (the process's cache unless a
    /// caller, such as a test counting decodings, keeps its own).
    public let sharedImages: SharedImageCache
    /// Image files given in memory, by the name documents use (nil: images come from disk).
    private let memoryFiles: [String: [UInt8]]?
    /// Files read and decoded ahead of the lowering by `prefetch`, by URL: what `load` would
    /// read and what decoding those bytes gave.
    private var prefetched: [URL: Prefetched] = [:]
    /// How many files `prefetch` holds for the lowering now.
    var prefetchedCount: Int { prefetched.count }
    /// Where each image is drawn, through to the output's pixels, by the name documents use
    /// (`planDecoding`); empty: every image is decoded whole.
    private var drawnThrough: [String: [(frame: Size, frameToOutput: Transform2D)]] = [:]
    /// The format the decoding was planned for: in an SVG or PDF only an image the export
    /// embeds as its own file is decoded reduced (`embedsFile`).
    private var plannedFormat = OutputFormat.png

    private struct Prefetched {
        var version: String?
        var bytes: [UInt8]
        var decoded: Result<PixelBuffer, any Error>
    }

    /// A loader with an empty cache, refusing images of more than `maxPixels` pixels, and
    /// any image that would take the total past `maxTotalPixels`; decoded images are shared
    /// through `sharedImages`.
    public init(
        maxPixels: Int = RenderLimits.maxImagePixels, maxTotalPixels: Int = RenderBudgets.maxImagePixelsPerDocument,
        sharedImages: SharedImageCache = .shared
    ) {
        self.maxPixels = maxPixels
        self.maxTotalPixels = maxTotalPixels
        self.memoryFiles = nil
        self.sharedImages = sharedImages
    }

    /// A loader whose images are `files` (name → bytes, as a request sent them) and never
    /// read from disk: `easel serve`'s stateless render writes and reads no file.
    public init(
        files: [String: [UInt8]], maxPixels: Int = RenderLimits.maxImagePixels,
        maxTotalPixels: Int = RenderBudgets.maxImagePixelsPerDocument
    ) {
        self.maxPixels = maxPixels
        self.maxTotalPixels = maxTotalPixels
        self.memoryFiles = files
        self.sharedImages = .shared
    }

    /// Plans a raster render's decoding: each image `layout` places is drawn through
    /// `canvasToOutput` to the output's pixels, and a photo of `ImageReduction.minimumPixels`
    /// or more drawn at half its pixels or fewer everywhere it is used is decoded at about
    /// the size it is drawn at (`ImageDecoder.decodePixels(reducedBy:)`): the factor the
    /// renderer would reduce it by (`ImageReduction.factor`), so a PNG's pixels are the ones it
    /// would draw, and a JPEG's come from libjpeg-turbo's DCT scaling. Call before the
    /// lowering and its `prefetch`.
    ///
    /// For an SVG or PDF (`format`), only a photo the export embeds as its own file is decoded
    /// reduced: a viewer draws the file, at whatever size it is shown, and the pixels are only
    /// the picture cairo places it by (their size its box). Any other photo is embedded as
    /// its pixels, and keeps every one of them for a viewer that zooms in.
    public func planDecoding(_ layout: ImageLayout, canvasToOutput: Transform2D, format: OutputFormat = .png) {
        drawnThrough = [:]
        plannedFormat = format
        for use in layout.uses {
            drawnThrough[use.name, default: []].append((use.frame, use.frameToCanvas.concatenating(canvasToOutput)))
        }
    }

    /// The whole factor an image of `header`, drawn as `uses` says (`planDecoding`), is
    /// decoded reduced by: the smallest of its uses' (1 when it is not planned, or smaller
    /// than a photo).
    private static func reductionFactor(
        uses: [(frame: Size, frameToOutput: Transform2D)]?, header: ImageDecoder.Header, bytes: [UInt8],
        version: String?, format: OutputFormat
    ) -> Int {
        let (width, height) = header.uprightSize
        guard let uses, width * height >= ImageReduction.minimumPixels else { return 1 }
        // A file given in memory has no version to be embedded by (`decodeForCache`).
        guard format == .png || (version != nil && embedsFile(bytes, in: format)) else { return 1 }
        let factors = uses.map { use in
            // Placed as the lowering places it.
            let fitted = ImagePlacement.fittedRect(width: width, height: height, in: use.frame)
            let imageToOutput = ImagePlacement.imageToFrame(width: width, height: height, fitted: fitted)
                .concatenating(use.frameToOutput)
            return ImageReduction.factor(width: width, height: height, transform: imageToOutput)
        }
        let factor = factors.min() ?? 1
        // A viewer fits the file into the box of the pixels keeping its proportions: reduced
        // to other proportions (a side rounded up), it would leave a sliver of that box empty.
        if format != .png, factor > 1 {
            let kept = header.keptSize(reducedBy: factor)
            guard kept.width * header.height == kept.height * header.width else { return 1 }
        }
        return factor
    }

    /// Whether a vector export in `format` shows the image of `bytes` by its own file: what
    /// an SVG embeds (`ImageDecoder.embeddableMIMEType`), and of that what cairo's PDF writer
    /// takes, a JPEG.
    static func embedsFile(_ bytes: [UInt8], in format: OutputFormat) -> Bool {
        switch format {
        case .png: return false
        case .svg: return ImageDecoder.embeddableMIMEType(of: bytes, inSVG: true) != nil
        case .pdf: return ImageDecoder.embeddableMIMEType(of: bytes) == "image/jpeg"
        }
    }

    /// The shared cache's key for an image decoded reduced by `factor` (nil: not shared).
    private static func key(_ version: String?, reducedBy factor: Int) -> String? {
        factor > 1 ? version.map { "\($0)/drawn-\(factor)" } : version
    }

    /// Decodes `bytes` reduced by `factor` for the shared cache, carrying the file's content
    /// key: a vector export embeds the file when the key still matches (a reduced image's
    /// pixels are then only the box cairo places the file in: a viewer draws the file).
    private static func decodeForCache(
        _ bytes: [UInt8], version: String?, factor: Int, maxPixels: Int, deadline: UInt64?
    ) throws -> PixelBuffer {
        let pixels = try ImageDecoder.decodePixels(bytes, maxPixels: maxPixels, deadline: deadline, reducedBy: factor)
        pixels.contentKey = version
        return pixels
    }

    /// The warning for an image drawn from a damaged file (`PixelBuffer.damage`).
    static func damageWarning(_ damage: String, source: URL, file: String, keyPath: String) -> DocumentWarning {
        DocumentWarning(
            file: file, keyPath: keyPath,
            message: "the image \(source.lastPathComponent) is damaged (\(damage)); it is drawn as far as it decodes")
    }

    /// The image a document names, resolved inside `folder` only (see `FolderFileResolver`).
    public func image(named name: String, inFolder folder: URL) -> Outcome {
        if let memoryFiles {
            let url = folder.appendingPathComponent(name)
            if let cached = cache[url] { return cached }
            guard let bytes = memoryFiles[name] else { return .failed("the image \(name) was not sent with the document") }
            let early = prefetched.removeValue(forKey: url)
            let outcome = decode(bytes, from: url, version: nil, name: name, decoded: early?.decoded)
            cache[url] = outcome
            return outcome
        }
        switch FolderFileResolver.resolve(name, inFolder: folder) {
        case .missing(let reason), .refused(let reason): return .failed(reason)
        case .file(let url): return load(url, name: name)
        }
    }

    /// Reads and decodes the images `names` (resolved in `folder`, as `image(named:inFolder:)`
    /// resolves them) on `threads` cores at once, ahead of the lowering that asks for them
    /// one by one. Only the decoding moves: the lowering still checks every budget, in the
    /// document's order, and each outcome is the one it would have had. An image the budgets
    /// will refuse by its header is not decoded. `alongside`, when given, runs as one more
    /// job among the decodings (a render lays its texts out there: with three photos on two
    /// cores, one core would otherwise wait for the third).
    public func prefetch(
        _ names: [String], inFolder folder: URL, threads: Int, alongside: (@Sendable () -> Void)? = nil
    ) {
        guard threads > 1 else {
            alongside?()
            return
        }
        // The files, in the document's order, each once: one loaded or prefetched already
        // is not read again.
        var found: [(name: String, url: URL)] = []
        for name in names {
            let url: URL
            if let memoryFiles {
                url = folder.appendingPathComponent(name)
                guard memoryFiles[name] != nil else { continue }
            } else {
                guard case .file(let file) = FolderFileResolver.resolve(name, inFolder: folder) else { continue }
                url = file
            }
            guard cache[url] == nil, prefetched[url] == nil, !found.contains(where: { $0.url == url }) else { continue }
            found.append((name, url))
        }
        let files = found
        guard !files.isEmpty else {
            alongside?()
            return
        }
        // Each job reads its file and its header, then waits for its turn to be admitted
        // within the budgets (in the document's order, as the lowering will count them), then
        // decodes: the first photo decodes while the next ones are read.
        let admission = Admission(predictedPixels: decodedPixels)
        let results = Locked([Prefetched?](repeating: nil, count: files.count))
        let (maxPixels, maxTotalPixels, deadline) = (maxPixels, maxTotalPixels, deadline)
        let (sharedImages, memoryFiles) = (sharedImages, memoryFiles)
        let uses = files.map { drawnThrough[$0.name] }
        let format = plannedFormat
        Parallel.forEach(count: files.count + (alongside == nil ? 0 : 1), workers: threads) { index in
            guard index < files.count else { return alongside!() }
            let file = files[index]
            var read: (version: String?, bytes: [UInt8], header: ImageDecoder.Header)?
            let limit = RenderLimits.maxImageFileBytes
            if let bytes = memoryFiles?[file.name] ?? (try? FileIO.readBytes(at: file.url.path, maxBytes: limit)),
                let header = try? ImageDecoder.header(of: bytes)
            {
                read = (memoryFiles == nil ? SharedImageCache.key(of: bytes) : nil, bytes, header)
            }
            let factor =
                read.map {
                    Self.reductionFactor(
                        uses: uses[index], header: $0.header, bytes: $0.bytes, version: $0.version, format: format)
                } ?? 1
            let cost = read.map { (kept: $0.header.cost(reducedBy: factor), peak: $0.header.peakCost(reducedBy: factor)) }
            guard
                admission.admit(
                    index, cost: cost, fileBytes: read?.bytes.count ?? 0, maxPixels: maxPixels, maxTotalPixels: maxTotalPixels),
                let read
            else {
                return
            }
            // Several photos decode side by side, each on a core of its own.
            let decoded = Result {
                try ImageDecoder.decoding(oneOfSeveral: files.count > 1) {
                    try sharedImages.image(for: Self.key(read.version, reducedBy: factor)) {
                        try Self.decodeForCache(
                            read.bytes, version: read.version, factor: factor, maxPixels: maxPixels, deadline: deadline)
                    }
                }
            }
            results.withLock { $0[index] = Prefetched(version: read.version, bytes: read.bytes, decoded: decoded) }
        }
        for (file, result) in zip(files, results.withLock { $0 }) {
            if let result { prefetched[file.url] = result }
        }
    }

    /// The prefetch's budget, spent in the document's order whatever order the files are read
    /// in: each job waits for the one before it to be admitted or passed over.
    private final class Admission: @unchecked Sendable {
        private let condition = Condition()
        private var next = 0
        private var predictedPixels: Int

        init(predictedPixels: Int) { self.predictedPixels = predictedPixels }

        /// The bytes of the files admitted, which the prefetch holds until the lowering takes them.
        private var heldFileBytes = 0

        /// Whether job `index`, keeping `cost.kept` pixels and holding `cost.peak` at most
        /// while it decodes (nil: its file could not be read), is within the budgets; returns
        /// once every earlier job has had its turn. An image within them whose file (of
        /// `fileBytes`) would take the files held past the pixel budget's bytes is counted but
        /// left to the lowering, which reads it when it comes to it: a document naming many
        /// large files (a small image padded with chunks no reader shows) is not all held at once.
        func admit(_ index: Int, cost: (kept: Int, peak: Int)?, fileBytes: Int, maxPixels: Int, maxTotalPixels: Int)
            -> Bool
        {
            condition.lock()
            defer {
                next += 1
                condition.broadcast()
                condition.unlock()
            }
            while next < index { condition.wait() }
            guard let cost, cost.kept <= maxPixels, predictedPixels + cost.peak <= maxTotalPixels else { return false }
            predictedPixels += cost.kept
            guard heldFileBytes + fileBytes <= (maxTotalPixels > Int.max / 4 ? Int.max : maxTotalPixels * 4) else {
                return false
            }
            heldFileBytes += fileBytes
            return true
        }
    }

    /// Decodes the PNG, JPEG or WebP image at `url`, told apart by content (once; later calls
    /// return the same outcome). `name`, the document's name for it, says where it is drawn
    /// when the decoding was planned (`planDecoding`); without it the image is decoded whole.
    public func load(_ url: URL, name: String? = nil) -> Outcome {
        if let cached = cache[url] { return cached }
        if let early = prefetched.removeValue(forKey: url) {
            let outcome = decode(early.bytes, from: url, version: early.version, name: name, decoded: early.decoded)
            cache[url] = outcome
            return outcome
        }
        let outcome: Outcome
        do {
            let bytes = try FileIO.readBytes(at: url.path, maxBytes: RenderLimits.maxImageFileBytes)
            // Shared by content: the very bytes decoded are the key.
            outcome = decode(bytes, from: url, version: SharedImageCache.key(of: bytes), name: name)
        } catch {
            outcome = .failed("\(error)")
        }
        cache[url] = outcome
        return outcome
    }

    /// Decodes an image's bytes within the budgets; `version` keys the shared cache (nil: not
    /// shared). `decoded` is what decoding these bytes gave when `prefetch` already did it.
    private func decode(
        _ bytes: [UInt8], from url: URL, version: String?, name: String?, decoded early: Result<PixelBuffer, any Error>? = nil
    ) -> Outcome {
        let outcome: Outcome
        do {
            guard bytes.count <= RenderLimits.maxImageFileBytes else {
                throw DocumentError(
                    file: url.path,
                    kind: .limitExceeded("the image \(url.lastPathComponent) is over \(RenderLimits.maxImageFileBytes) bytes"))
            }
            // The budget is checked from the header, before any pixel memory exists: what the
            // image keeps at the size it is decoded at (a photo drawn small, decoded small,
            // costs what it keeps), and the decoder's own memory.
            let header = try ImageDecoder.header(of: bytes)
            let factor =
                name.map {
                    Self.reductionFactor(
                        uses: drawnThrough[$0], header: header, bytes: bytes, version: version, format: plannedFormat)
                } ?? 1
            // (A photo reduced only once decoded whole holds its whole pixels meanwhile.)
            let cost = header.cost(reducedBy: factor)
            if cost <= maxPixels, decodedPixels + header.peakCost(reducedBy: factor) > maxTotalPixels {
                throw DocumentError(
                    file: url.path,
                    kind: .limitExceeded(
                        "the image \(url.lastPathComponent) (\(header.width)x\(header.height)) would take the document's images past the budget of \(maxTotalPixels) pixels (\((maxTotalPixels * 4) >> 20) MiB, the decoder's own memory included); it is not drawn"
                    ))
            }
            // Shared with every render in the process when the very same file was decoded before.
            let (deadline, maxPixels) = (deadline, maxPixels)
            let decoded =
                try early?.get()
                ?? sharedImages.image(for: Self.key(version, reducedBy: factor)) {
                    try Self.decodeForCache(bytes, version: version, factor: factor, maxPixels: maxPixels, deadline: deadline)
                }
            decodedPixels += cost
            outcome = .loaded(decoded, url)
        } catch let error as DocumentError {
            outcome = .failed(error.description)
        } catch let error as PNGError {
            outcome = .failed("the image \(url.lastPathComponent) cannot be read: \(error)")
        } catch {
            outcome = .failed("the image \(url.lastPathComponent) cannot be read: \(error)")
        }
        return outcome
    }
}
