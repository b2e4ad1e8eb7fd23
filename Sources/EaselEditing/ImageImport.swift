import FoundationEssentials
import Glibc
import EaselGeometry
import EaselDocuments
import EaselSupport
import EaselCairo
import EaselRender

/// An image brought into a document's folder: the name to use and its size in pixels (what
/// a new element's frame takes its proportions from).
public struct ImportedImage: Hashable, Sendable {
    /// The file's name in the document's folder.
    public var name: String
    /// The image's width and height in pixels, as stored.
    public var pixelSize: Size
}

/// Brings a PNG, JPEG or WebP image into a document's folder, as the Cards app does when a
/// photo is added.
public enum ImageImport {
    /// The app keeps photos whose sides are not both over this; larger ones are shrunk so
    /// that the longer side is this long.
    public static let cardImageMaxSide = 1000

    /// What a PNG kept byte for byte may hold besides its pixels, 4 bytes each: a colour
    /// profile, EXIF, text. A larger one is encoded anew from its pixels.
    static let pngSlackBytes = 1 << 20

    /// Reads and checks the image at `source` (PNG, JPEG or WebP; it must decode), shrinks
    /// it as the app does when both sides exceed 1000 pixels, and stores it in the card's
    /// folder as PNG (what the app's `UIImage.save()` writes) under a new upper-case UUID with
    /// no extension. A PNG that needs no shrinking is stored byte for byte. Returns its name
    /// and size.
    public static func intoCardFolder(_ source: URL, folder: URL) throws -> ImportedImage {
        let bytes = try FileIO.readBytes(at: source.path, maxBytes: RenderLimits.maxImageFileBytes, allowingStreams: true)
        return try intoCardFolder(bytes: bytes, from: source.path, folder: folder)
    }

    /// `intoCardFolder(_:folder:)` for an image's bytes; `source` names them in errors.
    public static func intoCardFolder(bytes: [UInt8], from source: String, folder: URL) throws -> ImportedImage {
        let image: RasterImage
        do { image = try ImageDecoder.decode(bytes) } catch {
            throw DocumentError(file: source, kind: .invalidValue("\(error)"))
        }
        let size = Size(width: Double(image.width), height: Double(image.height))
        guard image.width > cardImageMaxSide && image.height > cardImageMaxSide else {
            // Kept byte for byte unless the file is far larger than its pixels (chunks of
            // padding no reader shows): each card's photo is a file of its own, and one
            // small image must not become many large files.
            if ImageFormat.sniff(bytes) == .png, bytes.count <= image.width * image.height * 4 + Self.pngSlackBytes {
                return ImportedImage(name: try CardFolder.addImage(png: bytes, to: folder), pixelSize: size)
            }
            let png: [UInt8]
            do { png = try PNGEncoder.encode(image) } catch { throw RenderError.png(error) }
            return ImportedImage(name: try CardFolder.addImage(png: png, to: folder), pixelSize: size)
        }
        let scale = Double(cardImageMaxSide) / Double(max(image.width, image.height))
        let width = max(1, Int(saturating: (Double(image.width) * scale).rounded())),
            height = max(1, Int(saturating: (Double(image.height) * scale).rounded()))
        let shrunk = try RasterImage(width: width, height: height)
        let context = try CairoContext(image: shrunk)
        try context.concatenate(.scale(x: Double(width) / Double(image.width), y: Double(height) / Double(image.height)))
        try context.drawImage(image, filter: .good)
        let png: [UInt8]
        do { png = try PNGEncoder.encode(shrunk) } catch { throw RenderError.png(error) }
        return ImportedImage(
            name: try CardFolder.addImage(png: png, to: folder),
            pixelSize: Size(width: Double(width), height: Double(height)))
    }

    /// Puts the image at `source` (PNG, JPEG or WebP, as it is, once it decodes) beside a drawing (or in its package) so that it resolves:
    /// a file already there is used as it is; another is copied in, under its own name or,
    /// when that is taken by a different file, a numbered one. Returns the name to use and
    /// the image's size.
    public static func intoDrawingFolder(_ source: URL, folder: URL) throws -> ImportedImage {
        let bytes = try FileIO.readBytes(at: source.path, maxBytes: RenderLimits.maxImageFileBytes, allowingStreams: true)
        let resolvedSource = source.standardizedFileURL.resolvingSymlinksInPath()
        if resolvedSource.deletingLastPathComponent().path == folder.standardizedFileURL.resolvingSymlinksInPath().path {
            return ImportedImage(name: source.lastPathComponent, pixelSize: try pixelSize(of: bytes, from: source.path))
        }
        return try intoDrawingFolder(bytes: bytes, named: source.lastPathComponent, from: source.path, folder: folder)
    }

    /// The size of the image `bytes` hold, decoding them whole, as for a card: an image that
    /// could never be drawn (a header claiming 100000x100000 pixels, a 0x0 JPEG, a truncated
    /// file) is refused here, not added.
    private static func pixelSize(of bytes: [UInt8], from source: String) throws -> Size {
        do {
            let image = try ImageDecoder.decode(bytes)
            return Size(width: Double(image.width), height: Double(image.height))
        } catch {
            throw DocumentError(file: source, kind: .invalidValue("\(error)"))
        }
    }

    /// `intoDrawingFolder(_:folder:)` for an image's bytes, to be named `name` (or a
    /// numbered name when that is taken by another file); `source` names them in errors.
    public static func intoDrawingFolder(bytes: [UInt8], named name: String, from source: String, folder: URL) throws
        -> ImportedImage
    {
        let size = try pixelSize(of: bytes, from: source)
        let imported = { (name: String) in ImportedImage(name: name, pixelSize: size) }
        let original = URL(fileURLWithPath: name)
        let base = original.deletingPathExtension().lastPathComponent
        let ext = original.pathExtension.isEmpty ? "png" : original.pathExtension
        var name = name
        var counter = 2
        // Written beside its name and moved in only while the name is free: another edit
        // taking the same name meanwhile (or a file appearing) sends this one to the next.
        while true {
            let target = folder.appendingPathComponent(name).path
            if FileIO.entryExists(atPath: target) {
                if let existing = try? FileIO.readBytes(at: target, maxBytes: RenderLimits.maxImageFileBytes), existing == bytes {
                    return imported(name)
                }
            } else {
                let temporary = folder.appendingPathComponent(".easel-image-\(UUID().uuidString).\(ext)").path
                try AtomicFile.write(bytes, to: temporary)
                do {
                    if try FileIO.moveIntoFreeName(temporary, to: target) {
                        CreatedFiles.record(target)
                        return imported(name)
                    }
                } catch {
                    unlink(temporary)
                    throw error
                }
                unlink(temporary)
                continue  // taken meanwhile: look at it again (it may be the same image)
            }
            name = "\(base)-\(counter).\(ext)"
            counter += 1
        }
    }
}
