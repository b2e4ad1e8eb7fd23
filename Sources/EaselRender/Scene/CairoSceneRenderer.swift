import EaselGeometry

/// Draws a scene with cairo, onto any surface (raster, SVG, PDF). It knows nothing of cards
/// or drawings.
public enum CairoSceneRenderer {
    /// Draws `scene` into `context`, whose user space is already set up so that the
    /// scene's canvas units map onto the output.
    public static func draw(_ scene: Scene, in context: CairoContext, imageFilter: ImageFilter = .good) throws(RenderError) {
        var openGroups: [Double] = []
        for operation in scene.operations {
            switch operation {
            case .fill(let path, let color):
                try context.setSource(color)
                try context.fill(path)
            case .stroke(let path, let style):
                try context.stroke(path, style: style)
            case .image(let image, let transform, let clip):
                try context.withSavedState { () throws(RenderError) in
                    if let clip { try context.clip(clip) }
                    try context.concatenate(transform)
                    try context.drawImage(image.raster, filter: imageFilter)
                }
            case .text(let text):
                try context.drawText(text)
            case .beginGroup(let opacity, let clip):
                try context.save()
                if let clip { try context.clip(clip) }
                if opacity < 1 { try context.pushGroup() }
                openGroups.append(opacity)
            case .endGroup:
                guard let opacity = openGroups.popLast() else { throw .invalidSize("a scene ends a group it never began") }
                if opacity < 1 { try context.popGroupAndPaint(opacity: opacity) }
                try context.restore()
            }
        }
        guard openGroups.isEmpty else { throw .invalidSize("a scene leaves \(openGroups.count) group(s) open") }
    }

    /// Rasterises `scene` into a new image of `pixelWidth` x `pixelHeight`, stretching the
    /// canvas onto it (the caller keeps the aspect ratio when it wants to).
    public static func rasterize(_ scene: Scene, pixelWidth: Int, pixelHeight: Int,
                                 imageFilter: ImageFilter = .good) throws(RenderError) -> RasterImage {
        let image = try RasterImage(width: pixelWidth, height: pixelHeight)
        let context = try CairoContext(image: image)
        try context.concatenate(.scale(x: Double(pixelWidth) / scene.canvasSize.width,
                                       y: Double(pixelHeight) / scene.canvasSize.height))
        try draw(scene, in: context, imageFilter: imageFilter)
        return image
    }
}
