import EaselSupport

/// Decoded pixels held by Swift, not by cairo: premultiplied ARGB32 in native byte order
/// (cairo's layout), rows `stride` bytes apart. Immutable once made, so one buffer can be
/// drawn by several renders at once. A scene holds images as pixel buffers; the renderer
/// wraps one in a `RasterImage` (sharing, not copying, its memory) only when it draws.
public final class PixelBuffer: @unchecked Sendable {
    /// The image's width in pixels.
    public let width: Int
    /// The image's height in pixels.
    public let height: Int
    /// Bytes from one row to the next (`width * 4`, which is what cairo wants for ARGB32).
    public let stride: Int
    /// Stable for the life of the buffer, so a cairo surface can point at it.
    var bytes: UnsafeMutableRawPointer { memory.bytes }
    private let memory: PixelMemory
    /// What the decoder said was wrong with a file it still decoded (a truncated JPEG, whose
    /// missing rows are grey); nil for a whole image. Set by the decoder before the buffer
    /// is shared, never after.
    public internal(set) var damage: String?
    /// The content key (`Checksums.contentKey`) of the file bytes the pixels were decoded
    /// from, set by whoever decoded them before the buffer is shared; nil when unknown. A
    /// vector export embeds the file itself only when it still has this key.
    public package(set) var contentKey: String?
    /// The size of the image these pixels are a whole-factor reduction of (`reduced(by:)`, or
    /// a decode at the size an image is drawn at); nil when they are the image's own. Placing
    /// an image uses this size, so that a reduction covers exactly what the whole image would.
    public package(set) var reducedFrom: (width: Int, height: Int)?

    /// The size of the image itself: `reducedFrom`, or the buffer's own size.
    public var fullSize: (width: Int, height: Int) { reducedFrom ?? (width, height) }

    /// A transparent buffer; the caller fills it before sharing it.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width * 4
        memory = PixelMemory(byteCount: stride * height)
        if !memory.isZeroed { memory.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, stride * height)) }
    }

    /// A transparent buffer for `width` x `height` pixels Easel draws, within the bounds any
    /// output keeps (`RenderLimits.checkOutput`, as `RasterImage(width:height:)` checks them);
    /// decoders check their own limits and use the initializer.
    static func forOutput(width: Int, height: Int) throws(CairoError) -> PixelBuffer {
        try RenderLimits.checkOutput(width: width, height: height)
        return PixelBuffer(width: width, height: height)
    }

    deinit { memory.release() }

    /// Read access to the pixel rows.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: bytes, count: stride * height))
    }
}

extension PixelBuffer {
    /// The fewest pixels of a camera photo (two megapixels), not the 1000x750 the Cards app
    /// saves: a photo this large is decoded on two cores when one is idle.
    public static let cameraPhotoPixels = 2_000_000

    /// The fewest pixels of a photo (half a megapixel: the Cards app saves 1000x750, a
    /// camera more): a photo drawn at half its pixels or fewer is reduced before it is drawn,
    /// one drawn at under three quarters resampled (`ImageReduction`). Smaller images
    /// (stickers, icons) are drawn as they are.
    public static let photoPixels = 500_000

    /// The image shrunk by a whole `factor` (2 or more): each pixel the mean of a
    /// `factor` x `factor` block (fewer at the right and bottom edges), premultiplied values
    /// averaged as a box filter does, rows shared among `threads` cores. A photo drawn at a
    /// fraction of its pixels is reduced once to about the size it is drawn at, so that
    /// drawing it resamples a few pixels rather than all of them, and keeps no more memory
    /// than that. The damage note and content key are not carried over.
    public func reduced(by factor: Int, threads: Int = 1) -> PixelBuffer {
        let factor = max(1, factor)
        let width = (self.width + factor - 1) / factor, height = (self.height + factor - 1) / factor
        let result = PixelBuffer(width: width, height: height)
        let source = UncheckedSendable(bytes), target = UncheckedSendable(result.bytes)
        let (sourceWidth, sourceHeight, sourceStride, targetStride) = (self.width, self.height, stride, result.stride)
        Parallel.forEach(count: height, workers: threads) { y in
            var sums = [UInt32](repeating: 0, count: width * 4)
            let top = y * factor, bottom = min(sourceHeight, top + factor)
            for row in top..<bottom {
                let pixels = (source.value + row * sourceStride).assumingMemoryBound(to: UInt32.self)
                sums.withUnsafeMutableBufferPointer { sums in
                    for x in 0..<sourceWidth {
                        let value = pixels[x], slot = (x / factor) * 4
                        sums[slot] &+= value & 0xFF
                        sums[slot + 1] &+= value >> 8 & 0xFF
                        sums[slot + 2] &+= value >> 16 & 0xFF
                        sums[slot + 3] &+= value >> 24
                    }
                }
            }
            let out = (target.value + y * targetStride).assumingMemoryBound(to: UInt32.self)
            let rows = UInt32(bottom - top)
            for x in 0..<width {
                let count = UInt32(min(sourceWidth, (x + 1) * factor) - x * factor) * rows
                func mean(_ channel: Int) -> UInt32 { (sums[x * 4 + channel] + count / 2) / count }
                out[x] = mean(0) | mean(1) << 8 | mean(2) << 16 | mean(3) << 24
            }
        }
        result.reducedFrom = fullSize
        return result
    }
}
