// Writes Easel's sample documents into a folder (Assets/Samples in the repo), laid out
// as the Cards app lays out its documents folder: `<UUID>.rwcard` cards and their images
// as extension-less PNG files named by upper-case UUIDs. Deterministic: the same files
// every run. Run with `swift run SampleMaker Assets/Samples`.
import Foundation
import EaselGeometry
import EaselDocuments
import EaselRender
import EaselCairo

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SampleMaker OUTPUT-FOLDER\n".utf8))
    exit(64)
}
let folder = URL(fileURLWithPath: arguments[1])
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

func write(_ bytes: [UInt8], _ name: String) throws {
    try AtomicFile.write(bytes, to: folder.appendingPathComponent(name).path)
    print("wrote \(folder.appendingPathComponent(name).path)")
}

// MARK: Images, drawn with Easel's own cairo wrapper

/// A 600x400 landscape: sky bands, a sun, two hills.
func landscape() throws -> RasterImage {
    let image = try RasterImage(width: 600, height: 400)
    let context = try CairoContext(image: image)
    for band in 0..<8 {
        var path = Path()
        path.addRect(Rect(x: 0, y: Double(band) * 35, width: 600, height: 36))
        let t = Double(band) / 7
        try context.setSource(Color(red: 0.25 + 0.7 * t, green: 0.45 + 0.3 * t, blue: 0.9 - 0.4 * t))
        try context.fill(path)
    }
    var sun = Path()
    sun.addEllipse(in: Rect(center: Point(x: 420, y: 150), size: Size(width: 110, height: 110)))
    try context.setSource(Color(red: 1, green: 0.85, blue: 0.2))
    try context.fill(sun)
    for (peak, color) in [
        (Point(x: 180, y: 170), Color(red: 0.2, green: 0.55, blue: 0.25)),
        (Point(x: 470, y: 230), Color(red: 0.1, green: 0.4, blue: 0.2)),
    ] {
        var hill = Path()
        hill.move(to: Point(x: peak.x - 330, y: 400))
        hill.addQuadCurve(to: Point(x: peak.x + 330, y: 400), control: Point(x: peak.x, y: peak.y - 120))
        hill.closeSubpath()
        try context.setSource(color)
        try context.fill(hill)
    }
    return image
}

/// A 300x450 portrait of coloured stripes.
func stripes() throws -> RasterImage {
    let image = try RasterImage(width: 300, height: 450)
    let context = try CairoContext(image: image)
    let colors = [
        Color(red: 0.9, green: 0.3, blue: 0.3), Color(red: 0.95, green: 0.95, blue: 0.9),
        Color(red: 0.2, green: 0.4, blue: 0.8),
    ]
    for stripe in 0..<9 {
        var path = Path()
        path.addRect(Rect(x: 0, y: Double(stripe) * 50, width: 300, height: 50))
        try context.setSource(colors[stripe % 3])
        try context.fill(path)
    }
    return image
}

/// A 16x16 pixel-art checkerboard, much smaller than the frames it is drawn in.
func checkerboard() throws -> RasterImage {
    let image = try RasterImage(width: 16, height: 16)
    let context = try CairoContext(image: image)
    for y in 0..<4 {
        for x in 0..<4 {
            var path = Path()
            path.addRect(Rect(x: Double(x * 4), y: Double(y * 4), width: 4, height: 4))
            try context.setSource(
                (x + y) % 2 == 0 ? Color(red: 0.1, green: 0.1, blue: 0.1) : Color(red: 0.3, green: 0.85, blue: 0.9))
            try context.fill(path)
        }
    }
    return image
}

/// A 400x400 red disc on a transparent background, half transparent at its rim.
func translucentDisc() throws -> RasterImage {
    let image = try RasterImage(width: 400, height: 400)
    let context = try CairoContext(image: image)
    var outer = Path()
    outer.addEllipse(in: Rect(x: 20, y: 20, width: 360, height: 360))
    try context.setSource(Color(red: 0.85, green: 0.1, blue: 0.2, alpha: 0.5))
    try context.fill(outer)
    var inner = Path()
    inner.addEllipse(in: Rect(x: 100, y: 100, width: 200, height: 200))
    try context.setSource(Color(red: 0.85, green: 0.1, blue: 0.2))
    try context.fill(inner)
    return image
}

let landscapeName = "8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11"
let stripesName = "5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22"
let checkerName = "C0FFEE00-1234-4ABC-8DEF-567890ABCDEF"
let discName = "D15C0000-AAAA-4BBB-8CCC-DDDDEEEEFFFF"
try write(try PNGEncoder.encode(landscape()), landscapeName)
try write(try PNGEncoder.encode(stripes()), stripesName)
try write(try PNGEncoder.encode(checkerboard()), checkerName)
try write(try PNGEncoder.encode(translucentDisc()), discName)

// MARK: Cards

/// Edition 2 (frameIndex): three images, rotated and clipped, over random1, with text.
let postcard = Card(
    id: UUID(uuidString: "1A2B3C4D-0000-4000-8000-000000000001")!,
    backgroundColor: Color(red: 0.816, green: 0.722, blue: 0.942),
    imageElements: [
        ImageElement(
            transform: ElementTransform(size: Size(width: 900, height: 600), rotationDegrees: -8, offset: Point(x: 0, y: -450)),
            imageFilename: landscapeName, clip: .library(.roundedRectangle)),
        ImageElement(
            transform: ElementTransform(size: Size(width: 500, height: 500), rotationDegrees: 12, offset: Point(x: -280, y: 250)),
            imageFilename: stripesName, clip: .library(.heart)),
        ImageElement(
            transform: ElementTransform(size: Size(width: 420, height: 420), rotationDegrees: 0, offset: Point(x: 300, y: 300)),
            imageFilename: checkerName, clip: .library(.circle)),
        ImageElement(
            transform: ElementTransform(size: Size(width: 300, height: 300), rotationDegrees: 0, offset: Point(x: 350, y: 720)),
            imageFilename: discName),
    ],
    textElements: [
        TextElement(
            transform: ElementTransform(size: Size(width: 1000, height: 200), offset: Point(x: 0, y: 800)),
            text: "Greetings from Easel", textColor: Color(red: 0.187, green: 0.151, blue: 0.907), textFont: "Gill Sans")
    ])
try write(try CardEncoder.encode(postcard, file: postcard.appFileName), postcard.appFileName)

/// Every clip shape of the library, on the landscape image, in a 3x4 grid.
let shapes = Card(
    id: UUID(uuidString: "1A2B3C4D-0000-4000-8000-000000000002")!,
    backgroundColor: Color(red: 0.034, green: 0.688, blue: 0.700),
    imageElements: LibraryShape.allCases.map { shape in
        let column = Double(shape.rawValue % 3), row = Double(shape.rawValue / 3)
        return ImageElement(
            transform: ElementTransform(
                size: Size(width: 380, height: 380),
                offset: Point(x: (column - 1) * 420, y: (row - 1.5) * 460)),
            imageFilename: landscapeName, clip: .library(shape))
    })
try write(try CardEncoder.encode(shapes, file: shapes.appFileName), shapes.appFileName)

/// Edition 1 of the app: `frame` instead of `frameIndex`, integer numbers, escaped slashes.
let editionOne = """
    {"textElements":[{"text":"Edition 1 \\/ frame","textColor":[0,0,0,1],"textFont":"ChalkboardSE-Regular","transform":{"offset":[0,700],"rotation":{"degrees":0},"size":[1000,200]}}],
     "backgroundColor":[0.98499999999999999,0.71099999999999997,0.152,1],"id":"1A2B3C4D-0000-4000-8000-000000000003",
     "imageElements":[{"frame":6,"imageFilename":"\(stripesName)","transform":{"offset":[-6.0000000000000009,-150],"rotation":{"degrees":30},"size":[700,700]}},
                      {"imageFilename":"none","transform":{"offset":[0,-700],"rotation":{"degrees":0},"size":[300,300]}}]}
    """
try write(Array(editionOne.utf8), "1A2B3C4D-0000-4000-8000-000000000003.rwcard")

/// A legacy card from before the app saved text and colours, and a missing image.
let legacy = """
    {
      "id" : "1A2B3C4D-0000-4000-8000-000000000004",
      "imageElements" : [
        { "transform" : { "size" : [800, 550], "rotation" : { "degrees" : -15 }, "offset" : [0, -300] }, "imageFilename" : "\(landscapeName)" },
        { "transform" : { "size" : [500, 500], "rotation" : { "degrees" : 0 }, "offset" : [0, 450] }, "imageFilename" : "0BADF00D-0000-4000-8000-000000000000" }
      ]
    }
    """
try write(Array(legacy.utf8), "1A2B3C4D-0000-4000-8000-000000000004.rwcard")

// MARK: A drawing with every kind of graphic

func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rotation: Double = 0) -> GraphicTransform {
    GraphicTransform(center: Point(x: x, y: y), size: Size(width: w, height: h), rotationDegrees: rotation)
}
let ink = Color(rgb: 0x1B1B1E)
var wave = Path()
wave.move(to: Point(x: 0, y: 1))
wave.addQuadCurve(to: Point(x: 0.5, y: 0.6), control: Point(x: 0.25, y: 0))
wave.addCurve(to: Point(x: 1, y: 1), control1: Point(x: 0.6, y: 1), control2: Point(x: 0.9, y: 0.2))
wave.closeSubpath()
var triangle = Path()
triangle.addPolygon([Point(x: 0.5, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
let showcase = Drawing(
    canvasSize: Size(width: 800, height: 600), background: Color(rgb: 0xF4F1E8),
    graphics: [
        Graphic(
            kind: .rectangle, transform: frame(400, 150, 800, 300), fill: Color(red: 0.55, green: 0.75, blue: 0.95), name: "sky"),
        Graphic(
            kind: .ellipse, transform: frame(620, 110, 120, 120), fill: Color(rgb: 0xFFD23F),
            stroke: Stroke(color: Color(rgb: 0xE0A000), width: 6)),
        Graphic(
            kind: .libraryShape(.cloud), transform: frame(250, 100, 200, 120), fill: Color(red: 1, green: 1, blue: 1, alpha: 0.9)),
        Graphic(kind: .image(file: landscapeName), transform: frame(110, 190, 170, 170, 8), clip: .library(.heart)),
        Graphic(
            kind: .roundedRectangle(cornerRadius: 24), transform: frame(200, 420, 240, 150, -6), fill: Color(rgb: 0x2E86AB),
            opacity: 0.85),
        Graphic(
            kind: .polygon(sides: 6), transform: frame(420, 420, 140, 140, 15), fill: Color(rgb: 0x8AC926),
            stroke: Stroke(color: ink, width: 3, join: .bevel)),
        Graphic(
            kind: .star(points: 5, innerRadiusRatio: 0.45), transform: frame(600, 420, 150, 150), fill: Color(rgb: 0xFF595E),
            stroke: Stroke(color: ink, width: 3, join: .round)),
        Graphic(
            kind: .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5)), transform: frame(400, 305, 720, 0),
            stroke: Stroke(color: Color(rgb: 0x333333), width: 5, dash: [18, 10], cap: .round)),
        Graphic(kind: .path(wave), transform: frame(400, 545, 800, 110), fill: Color(rgb: 0x6A4C93)),
        Graphic(
            kind: .text(TextContent(string: "Hello, Easel ✓ 世界", fontFamily: "Gill Sans", fontSize: 44)),
            transform: frame(400, 250, 600, 70), fill: ink),
        Graphic(
            kind: .group([
                Graphic(kind: .rectangle, transform: frame(30, 60, 60, 120), fill: .white),
                Graphic(kind: .rectangle, transform: frame(90, 60, 60, 120), fill: Color(rgb: 0xD62828)),
                Graphic(kind: .libraryShape(.diamond), transform: frame(60, 60, 70, 70), fill: Color(rgb: 0x003049)),
            ]), transform: frame(730, 280, 110, 110, 45), opacity: 0.9, clip: .library(.circle)),
        Graphic(kind: .rectangle, transform: frame(60, 560, 80, 60), fill: ink, clip: .custom(triangle)),
        Graphic(
            kind: .libraryShape(.octagon), transform: frame(740, 560, 70, 70), fill: nil,
            stroke: Stroke(color: Color(rgb: 0xD62828), width: 4)),
    ])
try write(DrawingEncoder.encode(showcase), "Showcase.drawing")
