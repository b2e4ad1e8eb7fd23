import EaselDocuments
import EaselGeometry
import EaselRender
import FoundationEssentials

/// A clip shape drawn on its own, as the Cards app's frame picker shows its shapes: a
/// square of `color` cut to the shape, on a clear ground.
public enum ClipSample {
    /// The sides a sample may be drawn at, in pixels.
    public static let sizes = 16...512

    /// The clip shape named `name` (`ShapeNames.clipNames`) as a PNG `size` pixels square.
    public static func png(named name: String, size: Int = 96, color: Color = Color(red: 0.04, green: 0.39, blue: 0.85))
        throws -> [UInt8]
    {
        guard let shape = ShapeNames.libraryShape(named: name) else {
            throw EditError("\"\(name)\" is not a clip shape: \(ShapeNames.clipNames.joined(separator: ", "))")
        }
        guard sizes.contains(size) else {
            throw EditError("a clip sample is from \(sizes.lowerBound) to \(sizes.upperBound) pixels square, not \(size)")
        }
        let side = Double(size), inset = side * 0.9
        let square = Graphic(
            kind: .rectangle,
            transform: GraphicTransform(center: Point(x: side / 2, y: side / 2), size: Size(width: inset, height: inset)),
            fill: color, clip: .library(shape))
        let drawing = Drawing(canvasSize: Size(width: side, height: side), background: nil, graphics: [square])
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/easel-clip-sample/\(name).drawing"))
        return try DocumentRenderer.export(located, options: RenderOptions(format: .png, size: .scale(1))).bytes
    }
}
