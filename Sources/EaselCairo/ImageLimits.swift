/// Size limits for everything the renderer allocates, checked before allocating.
/// Documented in docs/limits.md.
public enum RenderLimits {
    /// The most pixels in one output image (about 400 MB of ARGB32).
    public static let maxOutputPixels = 100_000_000
    /// The longest side of an output image in pixels (cairo's own limit).
    public static let maxOutputSide = 32_767
    /// The most pixels in one decoded input image (about 256 MB of ARGB32).
    public static let maxImagePixels = 64_000_000
    /// The largest image file read, in bytes.
    public static let maxImageFileBytes = 64 << 20

    /// Throws unless a `width` x `height` image may be allocated.
    public static func checkOutput(width: Int, height: Int) throws(CairoError) {
        guard width > 0, height > 0 else { throw .noArea(width: width, height: height) }
        guard width <= maxOutputSide, height <= maxOutputSide, width * height <= maxOutputPixels else {
            throw .tooLarge(
                width: width, height: height,
                limit: "\(maxOutputPixels) pixels and \(maxOutputSide) pixels a side")
        }
    }
}
