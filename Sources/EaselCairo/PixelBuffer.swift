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
    let bytes: UnsafeMutableRawPointer
    /// What the decoder said was wrong with a file it still decoded (a truncated JPEG, whose
    /// missing rows are grey); nil for a whole image. Set by the decoder before the buffer
    /// is shared, never after.
    public internal(set) var damage: String?

    /// A transparent buffer; the caller fills it before sharing it.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width * 4
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(1, stride * height), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, stride * height))
    }

    deinit { bytes.deallocate() }

    /// Read access to the pixel rows.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: bytes, count: stride * height))
    }
}
