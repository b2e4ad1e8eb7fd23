import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo

/// The picture of a failure: `expected | difference | actual` side by side, under labels.
/// In the difference panel unchanged pixels are the expected image faded to a light grey;
/// changed pixels are coloured by what changed:
/// - green: the actual image has more ink there (darker or more opaque) — something added;
/// - red: less ink — something removed;
/// - yellow: an anti-aliased pixel (perceptual metric), not counted;
/// - pale yellow: a difference within the noise floor or threshold (tolerated);
/// - hatched grey: an ignored region;
/// and every cluster of counted changes is boxed in blue, in all three panels. The colours
/// come from the same judgement as the verdict (`DifferenceMap`), so they always agree.
public enum DifferenceComposite {
    /// Green, 8-bit RGB: pixels where the actual image has more ink than the expected one.
    public static let added = (r: UInt8(0), g: UInt8(170), b: UInt8(60))
    /// Red, 8-bit RGB: pixels with less ink, and areas only one of the images covers.
    public static let removed = (r: UInt8(220), g: UInt8(30), b: UInt8(30))
    /// Yellow, 8-bit RGB: anti-aliased pixels (perceptual metric), not counted.
    public static let antialiased = (r: UInt8(240), g: UInt8(200), b: UInt8(0))
    /// Pale yellow, 8-bit RGB: pixels that differ within the noise floor or threshold.
    public static let tolerated = (r: UInt8(250), g: UInt8(232), b: UInt8(150))
    /// The grey of the hatching over ignored regions.
    public static let hatch = Color(red: 0.45, green: 0.45, blue: 0.5, alpha: 0.8)
    /// The blue of the outlines drawn around each cluster of changes.
    public static let box = Color(red: 0.1, green: 0.35, blue: 1)
    static let gap = 8
    static let labelHeight = 22

    /// The most pixels a composite has; a larger one is drawn scaled down to fit, so images
    /// of any size get a picture (the verdict never depends on it).
    public static let maxPixels = 24_000_000

    /// The composite for two images of any sizes, judged with `tolerance` and `ignoring`
    /// as the verdict was; `statistics` supplies the cluster boxes (nil: none drawn).
    /// Throws a `CairoError` when the image cannot be made.
    public static func make(
        expected: RasterImage, actual: RasterImage, statistics: DifferenceStatistics?, tolerance: Tolerance,
        ignoring: [PixelRect] = [], maxPixels: Int = DifferenceComposite.maxPixels
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
        let difference = try differencePanel(expected: expected, actual: actual, tolerance: tolerance, ignoring: ignoring)
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
            for region in ignoring {
                try drawHatching(
                    Rect(
                        x: left + Double(region.x), y: top + Double(region.y), width: Double(region.width),
                        height: Double(region.height)),
                    clippedTo: Rect(x: left, y: top, width: Double(image.width), height: Double(image.height)),
                    context: context)
            }
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
    static func differencePanel(
        expected: RasterImage, actual: RasterImage, tolerance: Tolerance, ignoring: [PixelRect] = []
    ) throws -> RasterImage {
        let width = min(expected.width, actual.width), height = min(expected.height, actual.height)
        let panel = try RasterImage(width: max(expected.width, actual.width), height: max(expected.height, actual.height))
        // Images of different sizes are judged by channel difference where they overlap.
        let map =
            expected.width == actual.width && expected.height == actual.height
            ? ImageComparator.differenceMap(actual, expected, tolerance: tolerance, ignoring: ignoring) : nil
        for y in 0..<panel.height {
            for x in 0..<panel.width {
                let out: RGBA8
                if x >= width || y >= height {
                    out = RGBA8(r: removed.r, g: removed.g, b: removed.b, a: 255)  // outside one of the images
                } else {
                    let e = expected.premultipliedPixel(x: x, y: y), a = actual.premultipliedPixel(x: x, y: y)
                    let delta = e.maxChannelDifference(to: a)
                    let judgement = map?[x, y] ?? (delta == 0 ? .same : .counted)
                    if judgement == .same || judgement == .ignored {
                        // Faded: the expected pixel's grey level, lightened towards white.
                        let grey = 255 - Int(Double(255 - luminance(e)) * 0.25)
                        out = RGBA8(r: UInt8(grey), g: UInt8(grey), b: UInt8(grey), a: 255)
                    } else if judgement == .tolerated {
                        out = RGBA8(r: tolerated.r, g: tolerated.g, b: tolerated.b, a: 255)
                    } else if judgement == .antialiased {
                        out = RGBA8(r: antialiased.r, g: antialiased.g, b: antialiased.b, a: 255)
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

    /// Diagonal stripes over `rect` (an ignored region), within `bounds` (its panel).
    static func drawHatching(_ rect: Rect, clippedTo bounds: Rect, context: CairoContext) throws(CairoError) {
        let x0 = max(rect.minX, bounds.minX), y0 = max(rect.minY, bounds.minY)
        let x1 = min(rect.maxX, bounds.maxX), y1 = min(rect.maxY, bounds.maxY)
        guard x1 > x0, y1 > y0 else { return }
        let area = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        var outline = Path()
        outline.addRect(area)
        var stripes = Path()
        let spacing = 6.0
        var offset = -area.height
        while offset < area.width {
            stripes.move(to: Point(x: area.minX + offset, y: area.maxY))
            stripes.addLine(to: Point(x: area.minX + offset + area.height, y: area.minY))
            offset += spacing
        }
        try context.withSavedState { () throws(CairoError) in
            try context.clip(outline)
            try context.stroke(stripes, color: hatch, width: 1.5)
        }
        try context.stroke(outline, color: hatch, width: 1)
    }

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
