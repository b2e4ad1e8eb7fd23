import CEaselCairo
import CEaselPixels
import EaselSupport

/// Images drawn turned (a card's photo rotated a few degrees), sampled by Easel rather than
/// by pixman.
///
/// Why: through a transform that turns, cairo's GOOD filter is bilinear (at three quarters
/// of the image's pixels or more), and pixman has no fast path for it: its generic fetcher
/// takes 13–17 ns a pixel, against under 1 ns to composite an image that is not
/// transformed (measured on a 600x450 photo turned 4°). A folder of the app's typical
/// cards, whose photos are turned, spent a sixth of its CPU there. Easel samples the same
/// filter — bilinear, weights in 128ths of a pixel, the edge pixels repeated outward as
/// cairo's PAD extend does — into a buffer aligned with the device pixels, and cairo
/// composites that through the same path, clip and opacity with no transform at all: the
/// edges' coverage stays cairo's own, and the colours are pixman's to within 3 levels
/// (its matrix is rounded to 16.16 fixed point and anchored per drawing; Easel's to 32.32,
/// anchored at the device origin, so that every band of a render samples alike).
extension CairoContext {
    /// A turned image's samples for the device pixels the current clip shows, and the device
    /// pixel of their top-left corner; nil where cairo samples the image itself: not a raster
    /// target, not the GOOD filter, not turned, shrunk below cairo's bilinear range, or
    /// placed beyond what any output shows.
    func turnedImageSamples(_ image: RasterImage, filter: ImageFilter) throws(CairoError) -> (
        samples: RasterImage, x: Int, y: Int
    )? {
        guard filter == .good, drawsOnPixels, image.width > 0, image.height > 0 else { return nil }
        var imageToDevice = cairo_matrix_t()
        cairo_get_matrix(cr, &imageToDevice)
        guard imageToDevice.xy != 0 || imageToDevice.yx != 0 else { return nil }
        var deviceToImage = imageToDevice
        guard cairo_matrix_invert(&deviceToImage) == CAIRO_STATUS_SUCCESS else { return nil }
        // cairo's GOOD filter is bilinear while a device pixel spans less than 4/3 of an image
        // pixel along each axis (beyond, a box filter): a margin keeps Easel clear of its edge.
        let spanX = (deviceToImage.xx * deviceToImage.xx + deviceToImage.xy * deviceToImage.xy).squareRoot()
        let spanY = (deviceToImage.yx * deviceToImage.yx + deviceToImage.yy * deviceToImage.yy).squareRoot()
        guard spanX < 1.3, spanY < 1.3 else { return nil }
        guard
            let covered = Self.devicePixels(
                coveringLeft: 0, top: 0, right: Double(image.width), bottom: Double(image.height), through: imageToDevice),
            let region = visibleDevicePixels()?.intersection(covered), !region.isEmpty,
            let sampler = TurnedImageSampler(deviceToImage: deviceToImage, limit: Self.deviceLimit)
        else { return nil }
        let samples = try Self.scratchImage(width: region.width, height: region.height)
        image.withUnsafePixels { source in
            samples.withUnsafeMutablePixels { target in
                sampler.sample(
                    source, width: image.width, height: image.height, stride: image.stride, opaque: image.isOpaqueFormat,
                    into: target, stride: samples.stride, region: region)
            }
        }
        return (samples, region.minX, region.minY)
    }

    /// Each thread's memory for turned samples, reused from one drawing to the next. Why: a
    /// new buffer's pages fault on their first write (about 1.4 µs per 4 KiB page on a virtual
    /// machine, PixelMemory), which cost a third as much again as the sampling itself. A
    /// drawing's samples are composited before it returns, so the next may overwrite them.
    private static let scratch = ThreadLocal<PixelBuffer?> { nil }

    /// The most memory a thread keeps for samples (a band of a large render needs less).
    static let keptScratchBytes = 8 << 20

    /// An image of `width` x `height` pixels over this thread's scratch memory (grown as
    /// needed, within `keptScratchBytes`), or of its own when larger.
    private static func scratchImage(width: Int, height: Int) throws(CairoError) -> RasterImage {
        if let kept = scratch.value, let image = try RasterImage(reusing: kept, width: width, height: height) {
            return image
        }
        let bytes = width * 4 * height
        guard bytes <= keptScratchBytes else { return try RasterImage(width: width, height: height) }
        // Whole mebibytes (rows of 64 KiB), so that bands of a few sizes share one buffer.
        let buffer = try PixelBuffer.forOutput(width: 16_384, height: ((bytes + (1 << 20) - 1) >> 20) * 16)
        scratch.value = buffer
        guard let image = try RasterImage(reusing: buffer, width: width, height: height) else {
            return try RasterImage(width: width, height: height)
        }
        return image
    }
}

/// Bilinear samples of an image through a device-to-image transform, in 32.32 fixed point:
/// the image position of device pixel (x, y)'s centre, less half a pixel, is
/// `origin + x * step + y * rowStep`, exactly, wherever a region starts.
struct TurnedImageSampler {
    private let origin: (x: Int64, y: Int64)
    private let step: (x: Int64, y: Int64)
    private let rowStep: (x: Int64, y: Int64)

    /// Nil when a coefficient is not finite or so large that fixed-point positions could
    /// overflow (no device coordinate within `limit` maps so far into an image that shows).
    init?(deviceToImage m: cairo_matrix_t, limit: Double) {
        let one = 4_294_967_296.0
        func fixed(_ value: Double, within bound: Double) -> Int64? {
            guard value.isFinite, abs(value) <= bound else { return nil }
            return Int64((value * one).rounded())
        }
        // Steps under 2 image pixels a device pixel (the caller's bilinear range), an origin
        // under 2^20 pixels: positions within `limit` (2^18 here) of the device origin then
        // stay under 2^21 pixels, far inside 32 integer bits.
        guard limit <= 262_144,
            let stepX = fixed(m.xx, within: 2), let stepY = fixed(m.yx, within: 2),
            let rowX = fixed(m.xy, within: 2), let rowY = fixed(m.yy, within: 2),
            let originX = fixed(0.5 * m.xx + 0.5 * m.xy + m.x0 - 0.5, within: 1_048_576),
            let originY = fixed(0.5 * m.yx + 0.5 * m.yy + m.y0 - 0.5, within: 1_048_576)
        else { return nil }
        origin = (originX, originY)
        step = (stepX, stepY)
        rowStep = (rowX, rowY)
    }

    /// Fills `region`'s pixels of `target` (premultiplied ARGB32 rows `targetStride` apart,
    /// the region's top-left at the first byte) with samples of `source` (`width` x `height`
    /// pixels, rows `stride` apart; `opaque`: RGB24, its top byte padding), each the bilinear
    /// mean of the four pixels around its position, edge pixels repeated outward
    /// (`easel_sample_turned`, in C for its SSE2 lanes).
    func sample(
        _ source: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, opaque: Bool,
        into target: UnsafeMutableRawBufferPointer, stride targetStride: Int, region: PixelBox
    ) {
        guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress,
            let width = Int32(exactly: width), let height = Int32(exactly: height),
            let regionX = Int32(exactly: region.minX), let regionY = Int32(exactly: region.minY),
            let regionWidth = Int32(exactly: region.width), let regionHeight = Int32(exactly: region.height),
            source.count >= stride * Int(height), target.count >= targetStride * Int(regionHeight)
        else { return }
        easel_sample_turned(
            sourceBase.assumingMemoryBound(to: UInt8.self), width, height, stride, opaque ? 1 : 0,
            targetBase.assumingMemoryBound(to: UInt8.self), targetStride, regionX, regionY, regionWidth, regionHeight,
            origin.x, origin.y, step.x, step.y, rowStep.x, rowStep.y)
    }
}
