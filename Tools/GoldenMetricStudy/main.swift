// The measurement behind the golden comparator's default (docs/golden-testing.md, "Choosing
// the default metric"): `swift run -c release GoldenMetricStudy [DOCUMENTS...]`.
//
// Each document (by default the samples in Assets/Samples) is rendered as its golden, then
// again with a change that a golden test should tolerate (what another cairo build or a
// different image filter does) or catch (what a person changing the document does), and
// each pair is judged with the channel metric's default and the perceptual one. The table
// shows the pixels each counts and its verdict; the right default passes the first kind and
// fails the second.
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselGolden
import EaselRender
import Foundation

/// A way to render a document differently from its golden.
struct Variant {
    var name: String
    /// True when a golden test should pass it.
    var benign: Bool
    var options: RenderOptions = RenderOptions()
    /// Moves the whole drawing by this much, in output pixels. The strip this uncovers at
    /// the top and left edges is ignored: another renderer would not uncover it.
    var shift: Double = 0
    /// Changes the scene (a person's edit).
    var edit: (inout Scene) -> Bool = { _ in true }
}

let variants: [Variant] = [
    Variant(name: "image filter best (golden: good)", benign: true, options: RenderOptions(imageFilter: .best)),
    Variant(name: "everything 0.25 px to the right and down", benign: true, shift: 0.25),
    Variant(name: "a 1 px hairline added (300 px, grey)", benign: false) { scene in
        var line = Path()
        line.move(to: Point(x: scene.canvasSize.width * 0.2, y: scene.canvasSize.height * 0.5 + 0.5))
        line.addLine(to: Point(x: scene.canvasSize.width * 0.2 + 300, y: scene.canvasSize.height * 0.5 + 0.5))
        scene.operations.append(
            .stroke(line, StrokeStyle(Stroke(color: Color(red: 0.5, green: 0.5, blue: 0.5), width: 1))))
        return true
    },
    Variant(name: "the last text moved 1 px right", benign: false) { scene in
        guard let index = scene.operations.lastIndex(where: { if case .text = $0 { return true } else { return false } }),
            case .text(var text) = scene.operations[index]
        else { return false }
        text.transform = text.transform.concatenating(.translation(x: 1, y: 0))
        scene.operations[index] = .text(text)
        return true
    },
    Variant(name: "the largest shape's colour off by 6/255", benign: false) { scene in nudgeLargestFill(&scene, by: 6) },
    Variant(name: "the largest shape's colour off by 24/255", benign: false) { scene in nudgeLargestFill(&scene, by: 24) },
]

/// Darkens the fill with the largest bounds by `levels` in every channel.
func nudgeLargestFill(_ scene: inout Scene, by levels: Double) -> Bool {
    var best: (index: Int, area: Double)?
    for (index, operation) in scene.operations.enumerated() {
        guard case .fill(let path, _) = operation, let bounds = path.controlPointBounds else { continue }
        let area = bounds.width * bounds.height
        if area < scene.canvasSize.width * scene.canvasSize.height * 0.9, area > (best?.area ?? 0) { best = (index, area) }
    }
    guard let index = best?.index, case .fill(let path, var color) = scene.operations[index] else { return false }
    let step = levels / 255
    color = Color(
        red: color.red > 0.5 ? color.red - step : color.red + step,
        green: color.green > 0.5 ? color.green - step : color.green + step,
        blue: color.blue > 0.5 ? color.blue - step : color.blue + step, alpha: color.alpha)
    scene.operations[index] = .fill(path, color)
    return true
}

func render(_ located: LocatedDocument, _ variant: Variant) throws -> RasterImage? {
    var scene = try DocumentRenderer.scene(for: located, background: nil)
    guard variant.edit(&scene) else { return nil }
    let pixels = try RenderOptions().size.pixelSize(for: scene.canvasSize)
    let image = try RasterImage(width: pixels.width, height: pixels.height)
    let context = try CairoContext(image: image)
    try context.concatenate(.translation(x: variant.shift, y: variant.shift))
    try context.concatenate(
        .scale(x: Double(pixels.width) / scene.canvasSize.width, y: Double(pixels.height) / scene.canvasSize.height))
    try CairoSceneRenderer.draw(scene, in: context, imageFilter: variant.options.imageFilter)
    return image
}

let paths = CommandLine.arguments.dropFirst().isEmpty ? sampleDocuments() : Array(CommandLine.arguments.dropFirst())

func sampleDocuments() -> [String] {
    let folder = "Assets/Samples"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".rwcard") || $0.hasSuffix(".drawing") }.sorted().map { "\(folder)/\($0)" }
}

let metrics: [(String, Tolerance)] = [
    ("channel default", .default), ("perceptual (pixelmatch 0.1)", .perceptual),
    ("perceptual 0.05, 4 pixels", Tolerance(perceptualThreshold: 0.05, maxPixels: .count(4))),
]
print("| document | change | should | " + metrics.map { "\($0.0): counted, verdict" }.joined(separator: " | ") + " |")
print("|---|---|---|" + metrics.map { _ in "---|" }.joined())
var right = [Int](repeating: 0, count: metrics.count), total = 0
for path in paths {
    let located = try DocumentRegistry.standard.open(URL(fileURLWithPath: path))
    let golden = try render(located, Variant(name: "golden", benign: true))!
    for variant in variants {
        guard let changed = try render(located, variant) else { continue }
        total += 1
        var cells: [String] = []
        for (index, (_, tolerance)) in metrics.enumerated() {
            let strip =
                variant.shift > 0
                ? [PixelRect(x: 0, y: 0, width: golden.width, height: 1), PixelRect(x: 0, y: 0, width: 1, height: golden.height)]
                : []
            let result = ImageComparator.compare(changed, golden, tolerance: tolerance, ignoring: strip)
            var counted = 0, antialiased = 0
            if case .different(let statistics, _) = result {
                counted = statistics.differingPixels
                antialiased = statistics.antialiasedPixels
            }
            if result.passed == variant.benign { right[index] += 1 }
            cells.append(
                "\(counted)\(antialiased > 0 ? " (+\(antialiased) AA)" : ""), "
                    + (result.passed ? "pass" : "FAIL") + (result.passed == variant.benign ? "" : " ✗"))
        }
        // A card named by its UUID by the end of it (…0001), a drawing by its name.
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = stem.count > 14 ? "…" + stem.suffix(4) : stem
        print(
            "| \(name) (\(golden.width)x\(golden.height)) | \(variant.name) | \(variant.benign ? "pass" : "fail") | "
                + cells.joined(separator: " | ") + " |")
    }
}
print("")
for (index, (name, _)) in metrics.enumerated() { print("\(name): \(right[index]) of \(total) verdicts right") }
