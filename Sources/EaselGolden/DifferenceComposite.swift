import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo

/// The picture of a failure: `expected | difference | actual` side by side, under labels.
/// In the difference panel unchanged pixels are the expected image faded to a light grey;
/// changed pixels are coloured by what changed:
/// - green: the actual image has more ink there (darker or more opaque) — something added;
/// - red: less ink — something removed;
/// - yellow: a difference at or below the noise floor (tolerated);
/// and every cluster of changes is boxed in blue, in all three panels.
public enum DifferenceComposite {
    /// Green, 8-bit RGB: pixels where the actual image has more ink than the expected one.
    public static let added = (r: UInt8(0), g: UInt8(170), b: UInt8(60))
    /// Red, 8-bit RGB: pixels with less ink, and areas only one of the images covers.
    public static let removed = (r: UInt8(220), g: UInt8(30), b: UInt8(30))
    /// Yellow, 8-bit RGB: pixels that differ by no more than the noise floor.
    public static let tolerated = (r: UInt8(240), g: UInt8(200), b: UInt8(0))
    /// The blue of the outlines drawn around each cluster of changes.
    public static let box = Color(red: 0.1, green: 0.35, blue: 1)
    static let gap = 8
    static let labelHeight = 22

    /// The most pixels a composite has; a larger one is drawn scaled down to fit, so images
    /// of any size get a picture (the verdict never depends on it).
    public static let maxPixels = 24_000_000

    /// The composite for two images of any sizes; `statistics` supplies the cluster boxes
    /// (nil: none drawn). Throws a `CairoError` when the image cannot be made.
    public static func make(
        expected: RasterImage, actual: RasterImage, statistics: DifferenceStatistics?, noiseFloor: Int,
        maxPixels: Int = DifferenceComposite.maxPixels
    ) throws -> RasterImage {
        let width = max(expected.width, actual.width), height = max(expected.height, actual.height)
        let fullWidth = width * 3 + gap * 4, fullHeight = height + labelHeight + gap * 2
        let scale = min(1, (Double(maxPixels) / (Double(fullWidth) * Double(fullHeight))).squareRoot())
        let composite = try RasterImage(
            width: max(1, Int(Double(fullWidth) * scale)), height: max(1, Int(Double(fullHeight) * scale)))
        let context = try CairoContext(image: composite)
        if scale < 1 { try context.concatenate(.scale(x: scale, y: scale)) }
        try context.setSource(Color(red: 0.93, green: 0.93, blue: 0.93))
        try context.paint()
        let difference = try differencePanel(expected: expected, actual: actual, noiseFloor: noiseFloor)
        let panels: [(String, RasterImage)] = [("expected", expected), ("difference", difference), ("actual", actual)]
        let top = Double(labelHeight + gap)
        for (i, (label, image)) in panels.enumerated() {
            let left = Double(gap + i * (width + gap))
            try drawChecker(in: Rect(x: left, y: top, width: Double(image.width), height: Double(image.height)), context: context)
            try context.withSavedState { () throws(CairoError) in
                try context.concatenate(.translation(x: left, y: top))
                try context.drawImage(image, filter: .nearest)
            }
            try drawLabel(label, x: left, context: context)
            for cluster in statistics?.clusters ?? [] {
                var outline = Path()
                outline.addRect(
                    Rect(
                        x: left + Double(cluster.x) - 1.5, y: top + Double(cluster.y) - 1.5,
                        width: Double(cluster.width) + 3, height: Double(cluster.height) + 3))
                try context.stroke(outline, color: box, width: 1)
            }
        }
        return composite
    }

    /// The difference panel, pixel by pixel.
    static func differencePanel(expected: RasterImage, actual: RasterImage, noiseFloor: Int) throws -> RasterImage {
        let width = min(expected.width, actual.width), height = min(expected.height, actual.height)
        let panel = try RasterImage(width: max(expected.width, actual.width), height: max(expected.height, actual.height))
        for y in 0..<panel.height {
            for x in 0..<panel.width {
                let out: RGBA8
                if x >= width || y >= height {
                    out = RGBA8(r: removed.r, g: removed.g, b: removed.b, a: 255)  // outside one of the images
                } else {
                    let e = expected.premultipliedPixel(x: x, y: y), a = actual.premultipliedPixel(x: x, y: y)
                    let delta = e.maxChannelDifference(to: a)
                    if delta == 0 {
                        // Faded: the expected pixel's grey level, lightened towards white.
                        let grey = 255 - Int(Double(255 - luminance(e)) * 0.25)
                        out = RGBA8(r: UInt8(grey), g: UInt8(grey), b: UInt8(grey), a: 255)
                    } else if delta <= noiseFloor {
                        out = RGBA8(r: tolerated.r, g: tolerated.g, b: tolerated.b, a: 255)
                    } else if ink(a) > ink(e) || (ink(a) == ink(e) && a.a >= e.a) {
                        // More ink, or as much ink and at least as opaque: added. (Opaque
                        // white turned transparent has the same ink over white paper, and is
                        // lost opacity: removed, below.)
                        out = RGBA8(r: added.r, g: added.g, b: added.b, a: 255)
                    } else {
                        out = RGBA8(r: removed.r, g: removed.g, b: removed.b, a: 255)
                    }
                }
                panel.withUnsafeMutablePixels { pixels in
                    let argb = UInt32(out.a) << 24 | UInt32(out.r) << 16 | UInt32(out.g) << 8 | UInt32(out.b)
                    pixels.storeBytes(of: argb, toByteOffset: y * panel.stride + x * 4, as: UInt32.self)
                }
            }
        }
        return panel
    }

    /// Luminance of a premultiplied pixel composited over white.
    static func luminance(_ p: RGBA8) -> Int {
        let white = 255 - Int(p.a)
        let r = Int(p.r) + white, g = Int(p.g) + white, b = Int(p.b) + white
        return (r * 299 + g * 587 + b * 114) / 1000
    }

    /// How much a pixel darkens white paper: more opaque or darker is more ink.
    static func ink(_ p: RGBA8) -> Int { 255 - luminance(p) }

    static func drawChecker(in rect: Rect, context: CairoContext) throws(CairoError) {
        var light = Path()
        light.addRect(rect)
        try context.setSource(.white)
        try context.fill(light)
        var dark = Path()
        let cell = 8.0
        var y = rect.minY
        var row = 0
        while y < rect.maxY {
            var x = rect.minX + (row % 2 == 0 ? 0 : cell)
            while x < rect.maxX {
                dark.addRect(Rect(x: x, y: y, width: min(cell, rect.maxX - x), height: min(cell, rect.maxY - y)))
                x += cell * 2
            }
            y += cell
            row += 1
        }
        try context.setSource(Color(red: 0.85, green: 0.85, blue: 0.85))
        try context.fill(dark)
    }

    static func drawLabel(_ text: String, x: Double, context: CairoContext) throws(CairoError) {
        guard let face = try? FontLibrary.shared.face(for: FontMap.defaultSans) else { return }
        let line = TextLine.layout(text, primary: face, fallbacks: [])
        let size = 14.0
        let runs = line.runs.map { (face: face, glyphs: $0.glyphs) }  // one face: no fallbacks were asked for
        try context.showGlyphs(
            runs, size: size, color: Color(red: 0.2, green: 0.2, blue: 0.2),
            transform: .translation(x: x, y: Double(labelHeight + gap) - 9))
    }
}
