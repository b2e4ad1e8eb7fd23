import Foundation
import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo

/// The generated inputs, of known shape, in a scratch folder.
struct Inputs {
    let folder: URL
    let imageNames = ["PHOTO-A", "PHOTO-B", "PHOTO-C"]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("easel-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (i, name) in imageNames.enumerated() {
            try Self.photo(seed: UInt32(i + 1)).writePNG(to: folder.appendingPathComponent(name).path)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A photo-like 600x400 image: smooth gradients with per-pixel grain, as a phone photo
    /// shrunk by the app (flat colours would flatter every PNG encoder).
    static func photo(seed: UInt32) throws -> RasterImage {
        let image = try RasterImage(width: 600, height: 400)
        var state = seed &* 2_654_435_761
        image.withUnsafeMutablePixels { pixels in
            for y in 0..<400 {
                for x in 0..<600 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let grain = Int(state >> 28) - 8
                    let r = min(255, max(0, 90 + x / 5 + Int(seed) * 20 + grain))
                    let g = min(255, max(0, 60 + y / 3 + grain))
                    let b = min(255, max(0, 220 - (x + y) / 6 + grain))
                    pixels.storeBytes(
                        of: 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b), toByteOffset: y * image.stride + x * 4,
                        as: UInt32.self)
                }
            }
        }
        return image
    }

    /// The typical card, as a 1300x2000 drawing: a background, three 600x400 photos
    /// rotated and clipped, twenty filled and stroked shapes, two lines of text.
    func typicalCard() -> Drawing {
        func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double = 0) -> GraphicTransform {
            GraphicTransform(center: Point(x: x, y: y), size: Size(width: w, height: h), rotationDegrees: r)
        }
        var graphics: [Graphic] = [
            Graphic(
                kind: .image(file: imageNames[0]), transform: frame(650, 420, 900, 600, -6), clip: .library(.roundedRectangle)),
            Graphic(kind: .image(file: imageNames[1]), transform: frame(380, 1000, 600, 400, 12), clip: .library(.heart)),
            Graphic(kind: .image(file: imageNames[2]), transform: frame(930, 1050, 600, 400, -20), clip: .library(.cloud)),
        ]
        let kinds: [GraphicKind] = [
            .rectangle, .ellipse, .star(points: 5, innerRadiusRatio: 0.45), .polygon(sides: 6), .libraryShape(.diamond),
        ]
        for i in 0..<20 {
            let x = Double(i % 5) * 240 + 170, y = Double(i / 5) * 110 + 1350
            let shade = Double(i) / 20
            let fill = Color(red: shade, green: 0.5, blue: 1 - shade)
            graphics.append(
                Graphic(
                    kind: kinds[i % kinds.count], transform: frame(x, y, 150, 90, Double(i) * 9),
                    fill: fill, stroke: Stroke(color: .black, width: 4, join: .round)))
        }
        graphics.append(
            Graphic(
                kind: .text(TextContent(string: "Greetings from the benchmark", fontFamily: "Gill Sans", fontSize: 80)),
                transform: frame(650, 1830, 1200, 100), fill: .black))
        graphics.append(
            Graphic(
                kind: .text(TextContent(string: "Wish you were here ✓", fontFamily: "ChalkboardSE-Regular", fontSize: 64)),
                transform: frame(650, 1930, 1200, 90), fill: Color(red: 0.2, green: 0.2, blue: 0.6)))
        return Drawing(
            canvasSize: Size(width: 1300, height: 2000), background: Color(red: 0.98, green: 0.95, blue: 0.88), graphics: graphics
        )
    }

    /// A drawing of `count` filled and stroked shapes, every one 80x80 whatever the count
    /// (they overlap when there are many), on a 1300x2000 canvas: the cost per shape
    /// should then not depend on how many there are.
    func shapes(_ count: Int) -> Drawing {
        let graphics = (0..<count).map { i -> Graphic in
            let center = Point(x: Double((i * 97) % 1220) + 40, y: Double((i * 61) % 1920) + 40)
            let kind: GraphicKind = i % 2 == 0 ? .ellipse : .star(points: 5, innerRadiusRatio: 0.5)
            let fill = Color(red: Double(i % 7) / 7, green: 0.4, blue: 0.6)
            return Graphic(
                kind: kind, transform: GraphicTransform(center: center, size: Size(width: 80, height: 80)),
                fill: fill, stroke: Stroke(color: .black, width: 1))
        }
        return Drawing(canvasSize: Size(width: 1300, height: 2000), background: .white, graphics: graphics)
    }

    /// A real card: background, three photos rotated and clipped, two texts.
    func card(_ i: Int) -> Card {
        var images: [ImageElement] = []
        for j in 0..<3 {
            let rotation = Double((i + j * 7) % 40) - 20
            let offset = Point(x: Double(j - 1) * 250, y: Double(j) * 500 - 700)
            let clip = LibraryShape(rawValue: (i + j) % 11).map(ClipShape.library)
            images.append(
                ImageElement(
                    transform: ElementTransform(size: Size(width: 600, height: 400), rotationDegrees: rotation, offset: offset),
                    imageFilename: imageNames[j], clip: clip))
        }
        let title = TextElement(
            transform: ElementTransform(size: Size(width: 1100, height: 200), offset: Point(x: 0, y: 650)),
            text: "Card \(i)", textFont: "Gill Sans")
        let subtitle = TextElement(
            transform: ElementTransform(size: Size(width: 1100, height: 150), offset: Point(x: 0, y: 850)),
            text: "A second line of text", textFont: "Avenir-Heavy")
        return Card(
            id: UUID(), backgroundColor: Color(red: 0.816, green: 0.722, blue: 0.942), imageElements: images,
            textElements: [title, subtitle])
    }

    /// A folder of `count` cards sharing the three photos, as the app lays them out.
    func cardFolder(_ count: Int) throws -> URL {
        let cards = folder.appendingPathComponent("cards-\(count)")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        for name in imageNames {
            try? FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: cards.appendingPathComponent(name))
        }
        for i in 0..<count {
            let card = self.card(i)
            try AtomicFile.write(
                try CardEncoder.encode(card, file: card.appFileName), to: cards.appendingPathComponent(card.appFileName).path)
        }
        return cards
    }

    /// Saves a drawing in the scratch folder (next to the photos) and returns its URL.
    func save(_ drawing: Drawing, as name: String) throws -> URL {
        let url = folder.appendingPathComponent(name + ".drawing")
        try AtomicFile.write(DrawingEncoder.encode(drawing), to: url.path)
        return url
    }
}
