import EaselDocuments
import EaselGeometry
import EaselRender
import EaselServer
import Foundation

/// What CardStudio does with Easel: thumbnails of the Cards app's files, name badges drawn
/// in code, and a folder served to the browser editor.
public enum CardStudio {
    /// The PNG bytes of the card (or any document Easel opens) at `url`, at the Cards app's
    /// thumbnail size (260x400 for a card), and the warnings the render noticed.
    public static func thumbnail(of url: URL) throws -> (png: [UInt8], warnings: [DocumentWarning]) {
        let located = try DocumentRegistry.standard.open(url)
        let exported = try DocumentRenderer.export(located, options: RenderOptions(size: .thumbnail))
        return (exported.bytes, exported.warnings)
    }

    /// A name badge: a rounded card in `color` with the name in white and a star.
    public static func badge(for name: String, color: Color) -> Drawing {
        var drawing = Drawing(canvasSize: Size(width: 480, height: 200), background: .white)
        drawing.graphics = [
            Graphic(
                kind: .roundedRectangle(cornerRadius: 28),
                transform: GraphicTransform(center: Point(x: 240, y: 100), size: Size(width: 440, height: 160)), fill: color,
                stroke: Stroke(color: .black, width: 4)),
            Graphic(
                kind: .star(points: 5, innerRadiusRatio: 0.45),
                transform: GraphicTransform(center: Point(x: 90, y: 100), size: Size(width: 90, height: 90), rotationDegrees: -8),
                fill: Color(rgb: 0xFFD23F)),
            Graphic(
                kind: .text(TextContent(string: name, fontFamily: "Helvetica", fontSize: 44)),
                transform: GraphicTransform(center: Point(x: 290, y: 100), size: Size(width: 300, height: 70)), fill: .white),
        ]
        return drawing
    }

    /// A server for the documents in `folder` (the browser editor on `/`, the HTTP API under
    /// `/api`) on loopback; port 0 picks a free port.
    public static func server(for folder: URL, port: Int = 0) throws -> EaselServer {
        try EaselServer(configuration: ServerConfiguration(folder: folder, port: port))
    }
}
