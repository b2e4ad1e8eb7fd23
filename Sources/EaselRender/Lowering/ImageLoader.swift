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
    /// Pixels decoded so far.
    public private(set) var decodedPixels = 0
    /// Image files given in memory, by the name documents use (nil: images come from disk).
    private let memoryFiles: [String: [UInt8]]?

    /// A loader with an empty cache, refusing images of more than `maxPixels` pixels, and
    /// any image that would take the total past `maxTotalPixels`.
    public init(maxPixels: Int = RenderLimits.maxImagePixels, maxTotalPixels: Int = RenderBudgets.maxImagePixelsPerDocument) {
        self.maxPixels = maxPixels
        self.maxTotalPixels = maxTotalPixels
        self.memoryFiles = nil
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
    }

    /// The image a document names, resolved inside `folder` only (see `FolderFileResolver`).
    public func image(named name: String, inFolder folder: URL) -> Outcome {
        if let memoryFiles {
            let url = folder.appendingPathComponent(name)
            if let cached = cache[url] { return cached }
            guard let bytes = memoryFiles[name] else { return .failed("the image \(name) was not sent with the document") }
            let outcome = decode(bytes, from: url, version: nil)
            cache[url] = outcome
            return outcome
        }
        switch FolderFileResolver.resolve(name, inFolder: folder) {
        case .missing(let reason), .refused(let reason): return .failed(reason)
        case .file(let url): return load(url)
        }
    }

    /// Decodes the PNG, JPEG or WebP image at `url`, told apart by content (once; later calls
    /// return the same outcome).
    public func load(_ url: URL) -> Outcome {
        if let cached = cache[url] { return cached }
        let outcome: Outcome
        do {
            // The file's version, taken before it is read (so cached pixels are never newer than their key).
            let version = SharedImageCache.key(of: url.path)
            let bytes = try FileIO.readBytes(at: url.path, maxBytes: RenderLimits.maxImageFileBytes)
            outcome = decode(bytes, from: url, version: version)
        } catch {
            outcome = .failed("\(error)")
        }
        cache[url] = outcome
        return outcome
    }

    /// Decodes an image's bytes within the budgets; `version` keys the shared cache (nil: not shared).
    private func decode(_ bytes: [UInt8], from url: URL, version: String?) -> Outcome {
        let outcome: Outcome
        do {
            guard bytes.count <= RenderLimits.maxImageFileBytes else {
                throw DocumentError(
                    file: url.path,
                    kind: .limitExceeded("the image \(url.lastPathComponent) is over \(RenderLimits.maxImageFileBytes) bytes"))
            }
            // The budget is checked from the header, before any pixel memory exists.
            let header = try ImageDecoder.header(of: bytes)
            let pixels = header.width.multipliedReportingOverflow(by: header.height)
            if !pixels.overflow, pixels.partialValue <= maxPixels, decodedPixels + pixels.partialValue > maxTotalPixels {
                throw DocumentError(
                    file: url.path,
                    kind: .limitExceeded(
                        "the image \(url.lastPathComponent) (\(header.width)x\(header.height)) would take the document's images past the budget of \(maxTotalPixels) pixels; it is not drawn"
                    ))
            }
            // Shared with every render in the process when the very same file was decoded before.
            let decoded = try SharedImageCache.shared.image(for: version) {
                try ImageDecoder.decodePixels(bytes, maxPixels: maxPixels)
            }
            decodedPixels += decoded.width * decoded.height
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
