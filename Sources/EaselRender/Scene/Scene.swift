import EaselGeometry
import EaselDocuments

/// A display list: what to draw, as primitive operations in canvas coordinates, in order.
/// Cards and drawings are lowered to a scene; backends (cairo raster, SVG, PDF) only know
/// scenes. All layout decisions are already made here, so a scene can be tested and
/// printed (`description`) without rasterising.
public struct Scene {
    /// The canvas in units; the output image maps it onto its pixels.
    public var canvasSize: Size
    public var operations: [SceneOperation]
    /// What the lowering noticed but could draw around (a missing image, an empty frame).
    public var warnings: [DocumentWarning]

    public init(canvasSize: Size, operations: [SceneOperation] = [], warnings: [DocumentWarning] = []) {
        self.canvasSize = canvasSize
        self.operations = operations
        self.warnings = warnings
    }
}

public enum SceneOperation {
    /// Fills `path` (non-zero winding) with a colour.
    case fill(Path, Color)
    /// Draws an image: `transform` maps the image's pixel space (0...width, 0...height) to
    /// the canvas; `clip`, in canvas coordinates, limits it.
    case image(SceneImage, transform: Transform2D, clip: Path?)
}

/// A decoded image in a scene, with the name it was loaded by (for scene dumps).
public struct SceneImage {
    public var name: String
    public var raster: RasterImage

    public init(name: String, raster: RasterImage) {
        self.name = name
        self.raster = raster
    }
}

extension Scene: CustomStringConvertible {
    /// A stable text form, one operation per line, numbers rounded to 4 decimals.
    public var description: String {
        var lines = ["scene \(canvasSize)"]
        for operation in operations {
            switch operation {
            case .fill(let path, let color):
                lines.append("fill \(color) \(path)")
            case .image(let image, let transform, let clip):
                lines.append("image \(image.name) \(image.raster.width)x\(image.raster.height) \(transform)" + (clip.map { " clip \($0)" } ?? ""))
            }
        }
        return lines.joined(separator: "\n")
    }
}
