/// The perceptual comparison, written from the two published methods pixelmatch also uses:
/// - the colour difference is the YIQ-weighted metric of Kotsarenko and Ramos, "Measuring
///   perceived color difference using YIQ NTSC transmission color space in mobile
///   applications" (2010): the difference of two colours in YIQ, weighted 0.5053 for Y,
///   0.299 for I and 0.1957 for Q;
/// - anti-aliased pixels are found with the detector of Vysniauskas, "Anti-aliased pixel and
///   intensity slope detector" (2009): a pixel is anti-aliased when it has at most two
///   neighbours of its own colour, both a darker and a brighter neighbour, and the darkest or
///   the brightest of them lies in a flat area (more than two neighbours of its colour) in
///   both images, so the pixel is a blend on the slope between two flat areas.
///
/// Pixels are premultiplied ARGB32 values (`a << 24 | r << 16 | g << 8 | b`), as cairo and
/// the PNG decoder make them.
enum PerceptualDifference {
    /// The largest YIQ difference two 8-bit colours can have (between some fully saturated
    /// colours): the scale `threshold` is measured on, so that 1 means "as different as
    /// colours get" and the threshold compares with `threshold² · maxDelta`.
    static let maxDelta = 35215.0

    /// The squared YIQ difference a `threshold` (0...1) allows.
    static func allowedDelta(threshold: Double) -> Double { maxDelta * threshold * threshold }

    /// The YIQ difference of two premultiplied pixels as seen on any background from black
    /// to white: the larger of the difference over black and over white. The difference is
    /// convex in the background grey, so these two ends bound every grey between; colour
    /// hidden under zero alpha never counts, and opacity lost or gained always does (opaque
    /// white turned transparent is invisible on white but not on black).
    @inline(__always)
    static func delta(_ a: UInt32, _ b: UInt32) -> Double {
        let da = Double(Int(a >> 24) - Int(b >> 24))
        let dr = Double(Int((a >> 16) & 0xFF) - Int((b >> 16) & 0xFF))
        let dg = Double(Int((a >> 8) & 0xFF) - Int((b >> 8) & 0xFF))
        let db = Double(Int(a & 0xFF) - Int(b & 0xFF))
        let overBlack = yiqDelta(dr, dg, db)
        guard da != 0 else { return overBlack }
        // Over white each channel gains 255 · (1 − alpha), so the difference loses `da`.
        return max(overBlack, yiqDelta(dr - da, dg - da, db - da))
    }

    /// Kotsarenko and Ramos's weighted sum for channel differences (dr, dg, db).
    @inline(__always)
    static func yiqDelta(_ dr: Double, _ dg: Double, _ db: Double) -> Double {
        let y = brightness(dr, dg, db)
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// The Y (brightness) component of channel differences.
    @inline(__always)
    static func brightness(_ dr: Double, _ dg: Double, _ db: Double) -> Double {
        dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    }

    /// How much brighter `a` is than `b`, as they look on white paper (signed Y difference).
    @inline(__always)
    static func brightnessDifference(_ a: UInt32, _ b: UInt32) -> Double {
        // Over white: channel + 255 − alpha, so each channel's difference loses the alpha's.
        let da = Int(a >> 24) - Int(b >> 24)
        return brightness(
            Double(Int((a >> 16) & 0xFF) - Int((b >> 16) & 0xFF) - da),
            Double(Int((a >> 8) & 0xFF) - Int((b >> 8) & 0xFF) - da),
            Double(Int(a & 0xFF) - Int(b & 0xFF) - da))
    }

    /// Read access to one image's pixels during a comparison (valid only inside the
    /// image's `withUnsafePixels`); alpha reads as opaque for RGB24 images.
    struct Pixels {
        let base: UnsafeRawPointer
        let stride: Int, width: Int, height: Int
        let opaque: UInt32

        @inline(__always) subscript(x: Int, y: Int) -> UInt32 {
            base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) | opaque
        }
    }

    /// True when the pixel at (x, y) of `image` is anti-aliased, by the detector above;
    /// `other` is the image it is compared with (the flat area must be flat in both).
    static func isAntialiased(_ image: Pixels, x: Int, y: Int, other: Pixels) -> Bool {
        let x0 = max(x - 1, 0), x1 = min(x + 1, image.width - 1)
        let y0 = max(y - 1, 0), y1 = min(y + 1, image.height - 1)
        let centre = image[x, y]
        // On the image's edge the missing neighbours are taken to continue it: one more of
        // the pixel's own colour.
        var sameColour = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkestAt = (0, 0), brightestAt = (0, 0)
        for nx in x0...x1 {
            for ny in y0...y1 where nx != x || ny != y {
                let difference = brightnessDifference(image[nx, ny], centre)
                if difference == 0 {
                    sameColour += 1
                    if sameColour > 2 { return false }  // in a flat area: not a blend
                } else if difference < darkest {
                    darkest = difference
                    darkestAt = (nx, ny)
                } else if difference > brightest {
                    brightest = difference
                    brightestAt = (nx, ny)
                }
            }
        }
        // A blend lies between something darker and something brighter.
        guard darkest != 0, brightest != 0 else { return false }
        return (isInFlatArea(image, darkestAt) && isInFlatArea(other, darkestAt))
            || (isInFlatArea(image, brightestAt) && isInFlatArea(other, brightestAt))
    }

    /// True when more than two of the pixel's neighbours have exactly its value (the edge
    /// counting as one, as above).
    static func isInFlatArea(_ image: Pixels, _ at: (Int, Int)) -> Bool {
        let (x, y) = at
        let x0 = max(x - 1, 0), x1 = min(x + 1, image.width - 1)
        let y0 = max(y - 1, 0), y1 = min(y + 1, image.height - 1)
        let centre = image[x, y]
        var sameColour = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        for nx in x0...x1 {
            for ny in y0...y1 where (nx != x || ny != y) && image[nx, ny] == centre {
                sameColour += 1
                if sameColour > 2 { return true }
            }
        }
        return false
    }
}
