import EaselCairo
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselSupport
import Foundation

/// The inputs of the "real cards" section, as the Cards app makes them: photos of 1000x750
/// saved as PNG the way `UIImage.pngData()` saves them (8-bit RGBA, zlib's default level,
/// adaptive filters), with camera-like content and sensor grain, each card its own files.
/// Photos take a while to make, so they are kept between runs in `out/bench-cache/` (a
/// photo's name says its size and seed: the same name is the same pixels).
struct RealCardInputs {
    let folder: URL
    let cacheFolder: URL
    /// The photos' size: the app's 1000x750, or a small one for a smoke run.
    let photoSize: (width: Int, height: Int)

    init(scratch: URL, smoke: Bool) throws {
        photoSize = smoke ? (200, 150) : (1000, 750)
        folder = scratch.appendingPathComponent("real-cards")
        cacheFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("out/bench-cache/real-cards-2")
        for url in [folder, cacheFolder] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    }

    /// A photo-like image: a sky that darkens upwards, a ground, a sun and soft hills, a
    /// vignette, and grain in each channel of each pixel, as a phone camera's sensor leaves it.
    static func cameraPhoto(width: Int, height: Int, seed: UInt32) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var state = seed &* 2_654_435_761 | 1
        let hue = Double(seed % 7) / 7
        let (w, h) = (Double(width), Double(height))
        let sun = (x: w * (0.2 + 0.6 * Double(seed % 5) / 5), y: h * 0.25, r: min(w, h) * 0.08)
        // What depends on the column or the row alone, worked out once.
        let columns = (0..<width).map { x -> (fx: Double, hill: Double, ground: Double) in
            let fx = Double(x) / w
            return (fx, 0.55 + 0.06 * sin(fx * 9 + hue * 6) + 0.03 * sin(fx * 23), 20 * sin(fx * 40))
        }
        image.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                let fy = Double(y) / h
                let rowShift = 0.02 * sin(Double(seed) + fy * 3)
                let dy = Double(y) - sun.y
                for x in 0..<width {
                    let column = columns[x]
                    let hill = column.hill + rowShift
                    var (r, g, b): (Double, Double, Double)
                    if fy < hill {
                        (r, g, b) = (90 + 80 * fy + 40 * hue, 140 + 70 * fy, 230 - 40 * fy)
                        let dx = Double(x) - sun.x
                        let d2 = (dx * dx + dy * dy) / (9 * sun.r * sun.r)
                        if d2 < 1 {
                            let glow = 1 - d2.squareRoot()
                            (r, g, b) = (r + (255 - r) * glow, g + (240 - g) * glow, b * (1 - glow))
                        }
                    } else {
                        let t = (fy - hill) / (1 - hill)
                        (r, g, b) = (70 + 60 * hue + 50 * t, 110 - 30 * t + column.ground, 50 + 20 * t)
                    }
                    let vignette = 1 - 0.35 * ((column.fx - 0.5) * (column.fx - 0.5) + (fy - 0.5) * (fy - 0.5))
                    // Grain: a different value in each channel, as a sensor's noise.
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    let grain = (Int(state & 15) - 8, Int(state >> 4 & 15) - 8, Int(state >> 8 & 15) - 8)
                    let red = UInt32(max(0, min(255, Int(r * vignette) + grain.0)))
                    let green = UInt32(max(0, min(255, Int(g * vignette) + grain.1)))
                    let blue = UInt32(max(0, min(255, Int(b * vignette) + grain.2)))
                    pixels.storeBytes(
                        of: 0xFF00_0000 | red << 16 | green << 8 | blue, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
                }
            }
        }
        return image
    }

    /// The file name of a photo, as the app names its files (a UUID, no extension).
    static func photoName(width: Int, height: Int, seed: Int, jpeg: Bool = false) -> String {
        String(format: "%08X-%04X-4000-8000-%012X", seed, width, height * (jpeg ? 2 : 1))
    }

    /// Makes the photos of `seeds` in the cache (those not there yet, on every core) and
    /// links them into `folder`.
    func photos(_ seeds: [Int], width: Int? = nil, height: Int? = nil, into folder: URL) throws -> [String] {
        let (width, height) = (width ?? photoSize.width, height ?? photoSize.height)
        let names = seeds.map { Self.photoName(width: width, height: height, seed: $0) }
        let missing = zip(seeds, names).filter {
            !FileManager.default.fileExists(atPath: cacheFolder.appendingPathComponent($0.1).path)
        }
        let failure = Locked<(any Error)?>(nil)
        let cache = cacheFolder
        Parallel.forEach(count: missing.count, workers: ProcessInfo.processInfo.activeProcessorCount) { index in
            do {
                let (seed, name) = missing[index]
                let photo = try Self.cameraPhoto(width: width, height: height, seed: UInt32(seed))
                let bytes = try PNGEncoder.encode(photo, options: .libpngDefaults)
                try AtomicFile.write(bytes, to: cache.appendingPathComponent(name).path)
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names { try link(name, into: folder) }
        return names
    }

    /// The photo of `seed` as a JPEG (quality 90, by libjpeg-turbo's `cjpeg`), or nil when
    /// cjpeg is not installed.
    func jpegPhoto(seed: Int, width: Int, height: Int, into folder: URL, cjpeg: URL?) throws -> String? {
        let name = Self.photoName(width: width, height: height, seed: seed, jpeg: true)
        let cached = cacheFolder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: cached.path) {
            guard let cjpeg else { return nil }
            let photo = try Self.cameraPhoto(width: width, height: height, seed: UInt32(seed))
            var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
            ppm.reserveCapacity(ppm.count + width * height * 3)
            photo.withUnsafePixels { pixels in
                for y in 0..<height {
                    for x in 0..<width {
                        let value = pixels.load(fromByteOffset: y * photo.stride + x * 4, as: UInt32.self)
                        ppm += [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
                    }
                }
            }
            let source = cacheFolder.appendingPathComponent(name + ".ppm")
            try Data(ppm).write(to: source)
            defer { try? FileManager.default.removeItem(at: source) }
            let process = try Process.run(cjpeg, arguments: ["-quality", "90", "-outfile", cached.path, source.path])
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
        }
        try link(name, into: folder)
        return name
    }

    private func link(_ name: String, into folder: URL) throws {
        let target = folder.appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: target.path) else { return }
        try FileManager.default.linkItem(at: cacheFolder.appendingPathComponent(name), to: target)
    }

    /// Saves `card` in `folder` (as `name.rwcard`) and returns its URL.
    static func save(_ card: Card, as name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name + ".rwcard")
        try AtomicFile.write(try CardEncoder.encode(card, file: url.lastPathComponent), to: url.path)
        return url
    }

    /// A photo's frame on a card: the app's 1000x750 photo shown in a frame of the same
    /// proportions, turned a little.
    static func photo(_ name: String, size: Size, at offset: Point, rotation: Double, clip: Int?) -> ImageElement {
        ImageElement(
            transform: ElementTransform(size: size, rotationDegrees: rotation, offset: offset), imageFilename: name,
            clip: clip.flatMap { LibraryShape(rawValue: $0) }.map(ClipShape.library))
    }

    /// The app's typical card: a background, three photos in frames, a title and a line.
    static func typicalCard(photos: [String], number: Int = 0) -> Card {
        let images = [
            photo(photos[0], size: Size(width: 800, height: 600), at: Point(x: -120, y: -560), rotation: -6, clip: 1),
            photo(photos[1], size: Size(width: 600, height: 450), at: Point(x: 260, y: -60), rotation: 8, clip: 3),
            photo(photos[2], size: Size(width: 640, height: 480), at: Point(x: -200, y: 380), rotation: -3, clip: nil),
        ]
        let texts = [
            TextElement(
                transform: ElementTransform(size: Size(width: 1100, height: 180), offset: Point(x: 0, y: 760)),
                text: "Summer in Lisbon \(number)", textColor: Color(red: 0.1, green: 0.1, blue: 0.3), textFont: "Gill Sans"),
            TextElement(
                transform: ElementTransform(size: Size(width: 900, height: 120), offset: Point(x: 0, y: 900)),
                text: "Wish you were here!", textFont: "ChalkboardSE-Regular"),
        ]
        return Card(
            id: UUID(), backgroundColor: Color(red: 0.98, green: 0.93, blue: 0.82), imageElements: images, textElements: texts)
    }

    /// A collage: twelve photos, each in a frame of its own (the clip library's eleven, and
    /// one without).
    static func collage(photos: [String]) -> Card {
        let images = photos.prefix(12).enumerated().map { index, name in
            photo(
                name, size: Size(width: 420, height: 315),
                at: Point(x: Double(index % 3 - 1) * 420, y: Double(index / 3) * 470 - 705),
                rotation: Double(index % 5) * 3 - 6, clip: index < 11 ? index : nil)
        }
        return Card(id: UUID(), backgroundColor: .white, imageElements: Array(images), textElements: [])
    }

    /// Twenty texts in the picker's fonts, with emoji and right-to-left scripts among them.
    static func textCard() -> Card {
        let lines = [
            "Happy birthday!", "Wish you were here 🌊", "Congratulations 🎉🎂", "مرحبا بالعالم", "שלום עולם",
            "Bon voyage ✈️", "With love ❤️", "Merry Christmas 🎄", "Thank you so much", "See you soon 👋",
            "عيد ميلاد سعيد", "מזל טוב 🎈", "Greetings from Paris", "Get well soon 🌻", "Happy new year 2027",
            "Best wishes", "You did it! 🏆", "Home sweet home 🏡", "Cheers 🥂", "Love from all of us",
        ]
        let fonts = ElementProperty.appFonts
        let texts = lines.enumerated().map { index, line in
            TextElement(
                transform: ElementTransform(
                    size: Size(width: 1100, height: 90), rotationDegrees: Double(index % 3) * 2 - 2,
                    offset: Point(x: 0, y: Double(index) * 96 - 912)),
                text: line, textColor: Color(red: Double(index % 4) / 4, green: 0.2, blue: 0.5),
                textFont: fonts[index % fonts.count])
        }
        return Card(id: UUID(), backgroundColor: Color(red: 0.9, green: 0.95, blue: 1), imageElements: [], textElements: texts)
    }

    /// One big photo filling most of the card.
    static func bigPhotoCard(photo name: String) -> Card {
        Card(
            id: UUID(), backgroundColor: .black,
            imageElements: [photo(name, size: Size(width: 1200, height: 900), at: Point(x: 0, y: -200), rotation: 0, clip: nil)],
            textElements: [
                TextElement(
                    transform: ElementTransform(size: Size(width: 1100, height: 160), offset: Point(x: 0, y: 700)),
                    text: "The view from the top", textColor: .white)
            ])
    }

    /// A drawing of `count` overlapping filled and stroked shapes, each at `opacity`.
    static func shapes(_ count: Int, opacity: Double) -> Drawing {
        let graphics = (0..<count).map { i -> Graphic in
            let center = Point(x: Double((i * 97) % 1100) + 100, y: Double((i * 61) % 1800) + 100)
            var graphic = Graphic(
                kind: i % 2 == 0 ? .ellipse : .star(points: 5, innerRadiusRatio: 0.5),
                transform: GraphicTransform(center: center, size: Size(width: 160, height: 160)),
                fill: Color(red: Double(i % 7) / 7, green: 0.4, blue: 0.6), stroke: Stroke(color: .black, width: 3))
            graphic.opacity = opacity
            return graphic
        }
        return Drawing(canvasSize: Size(width: 1300, height: 2000), background: .white, graphics: graphics)
    }
}
