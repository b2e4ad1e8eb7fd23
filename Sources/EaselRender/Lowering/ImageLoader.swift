import EaselGeometry
import Foundation
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
            let outcome = decode(bytes, from: url, version: nil, decoded: early?.decoded)
            cache[url] = outcome
            return outcome
        }
        switch FolderFileResolver.resolve(name, inFolder: folder) {
        case .missing(let reason), .refused(let reason): return .failed(reason)
        case .file(let url): return load(url)
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
        // What to decode, in the document's order: each file once, within the budgets as
        // far as the headers tell.
        var jobs: [(url: URL, version: String?, bytes: [UInt8])] = []
        var predictedPixels = decodedPixels
        // A file loaded, prefetched or queued already is not read again.
        func isNew(_ url: URL) -> Bool { cache[url] == nil && prefetched[url] == nil && !jobs.contains { $0.url == url } }
        for name in names {
            let url: URL
            let version: String?
            let bytes: [UInt8]
            if let memoryFiles {
                url = folder.appendingPathComponent(name)
                guard let sent = memoryFiles[name], isNew(url) else { continue }
                (version, bytes) = (nil, sent)
            } else {
                guard case .file(let file) = FolderFileResolver.resolve(name, inFolder: folder), isNew(file),
                    let read = try? FileIO.readBytes(at: file.path, maxBytes: RenderLimits.maxImageFileBytes)
                else { continue }
                (url, version, bytes) = (file, SharedImageCache.key(of: read), read)
            }
            guard let header = try? ImageDecoder.header(of: bytes) else { continue }
            let cost = header.costInPixels
            guard cost <= maxPixels, predictedPixels + cost <= maxTotalPixels else { continue }
            predictedPixels += cost
            jobs.append((url, version, bytes))
        }
        guard !jobs.isEmpty else {
            alongside?()
            return
        }
        let results = Locked([Result<PixelBuffer, any Error>?](repeating: nil, count: jobs.count))
        let maxPixels = maxPixels, deadline = deadline
        let sharedImages = sharedImages
        let work = jobs.map { (version: $0.version, bytes: $0.bytes) }
        Parallel.forEach(count: work.count + (alongside == nil ? 0 : 1), workers: threads) { index in
            guard index < work.count else { return alongside!() }
            let job = work[index]
            let result = Result {
                try sharedImages.image(for: job.version) {
                    let pixels = try ImageDecoder.decodePixels(job.bytes, maxPixels: maxPixels, deadline: deadline)
                    pixels.contentKey = job.version
                    return pixels
                }
            }
            results.withLock { $0[index] = result }
        }
        for (job, result) in zip(jobs, results.withLock { $0 }) {
            if let result { prefetched[job.url] = Prefetched(version: job.version, bytes: job.bytes, decoded: result) }
        }
    }

    /// Decodes the PNG, JPEG or WebP image at `url`, told apart by content (once; later calls
    /// return the same outcome).
    public func load(_ url: URL) -> Outcome {
        if let cached = cache[url] { return cached }
        if let early = prefetched.removeValue(forKey: url) {
            let outcome = decode(early.bytes, from: url, version: early.version, decoded: early.decoded)
            cache[url] = outcome
            return outcome
        }
        let outcome: Outcome
        do {
            let bytes = try FileIO.readBytes(at: url.path, maxBytes: RenderLimits.maxImageFileBytes)
            // Shared by content: the very bytes decoded are the key.
            outcome = decode(bytes, from: url, version: SharedImageCache.key(of: bytes))
        } catch {
            outcome = .failed("\(error)")
        }
        cache[url] = outcome
        return outcome
    }

    /// Decodes an image's bytes within the budgets; `version` keys the shared cache (nil: not
    /// shared). `decoded` is what decoding these bytes gave when `prefetch` already did it.
    private func decode(
        _ bytes: [UInt8], from url: URL, version: String?, decoded early: Result<PixelBuffer, any Error>? = nil
    ) -> Outcome {
        let outcome: Outcome
        do {
            guard bytes.count <= RenderLimits.maxImageFileBytes else {
                throw DocumentError(
                    file: url.path,
                    kind: .limitExceeded("the image \(url.lastPathComponent) is over \(RenderLimits.maxImageFileBytes) bytes"))
            }
            // The budget is checked from the header, before any pixel memory exists.
            let header = try ImageDecoder.header(of: bytes)
            let cost = header.costInPixels
            if cost <= maxPixels, decodedPixels + cost > maxTotalPixels {
                throw DocumentError(
                    file: url.path,
                    kind: .limitExceeded(
                        "the image \(url.lastPathComponent) (\(header.width)x\(header.height)) would take the document's images past the budget of \(maxTotalPixels) pixels (\(maxTotalPixels * 4 >> 20) MB, the decoder's own memory included); it is not drawn"
                    ))
            }
            // Shared with every render in the process when the very same file was decoded before.
            let deadline = deadline
            let decoded =
                try early?.get()
                ?? sharedImages.image(for: version) {
                    let pixels = try ImageDecoder.decodePixels(bytes, maxPixels: maxPixels, deadline: deadline)
                    pixels.contentKey = version
                    return pixels
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
