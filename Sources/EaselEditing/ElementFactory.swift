import EaselDocuments
import EaselGeometry
import Foundation

/// Makes new elements from requests, with the defaults `easel add` documents: shapes
/// 100x100 at the canvas centre in steel blue, lines in black 2 units wide, text in black
/// DejaVu Sans at 48 units, card elements in the app's default frame.
public enum ElementFactory {
    /// The fill a shape gets when the request names neither fill nor stroke.
    public static let defaultShapeFill = Color(red: 70 / 255, green: 130 / 255, blue: 180 / 255)

    /// A drawing graphic for `request` on a canvas of `canvas`; an image file is brought
    /// into `imageFolder` (see `ImageImport.intoDrawingFolder`).
    public static func graphic(for request: ElementRequest, canvas: Size, imageFolder: URL) throws -> Graphic {
        let changes = request.style
        var transform = GraphicTransform(
            center: changes.center ?? Point(x: canvas.width / 2, y: canvas.height / 2),
            size: changes.size ?? Size(width: 100, height: 100),
            rotationDegrees: changes.rotationDegrees ?? 0)
        let graphicKind: GraphicKind
        // By the names users type (`ShapeNames`: one per shape, the old spellings as aliases).
        switch ShapeNames.drawingKind(named: request.kind) ?? request.kind {
        case "rectangle": graphicKind = .rectangle
        case "rounded-rectangle": graphicKind = .roundedRectangle(cornerRadius: request.cornerRadius)
        case "ellipse": graphicKind = .ellipse
        case "polygon": graphicKind = .polygon(sides: request.sides)
        case "star": graphicKind = .star(points: request.points, innerRadiusRatio: request.innerRatio)
        case "line":
            if let from = request.from, let to = request.to {
                // The frame spans the two points; the line runs between them in its unit square.
                let (dx, dy) = (to.x - from.x, to.y - from.y)
                transform = GraphicTransform(
                    center: Point(x: (from.x + to.x) / 2, y: (from.y + to.y) / 2),
                    size: Size(width: abs(dx), height: abs(dy)), rotationDegrees: 0)
                func unit(_ delta: Double) -> (Double, Double) { delta == 0 ? (0.5, 0.5) : (delta > 0 ? (0, 1) : (1, 0)) }
                let (x0, x1) = unit(dx), (y0, y1) = unit(dy)
                graphicKind = .line(from: Point(x: x0, y: y0), to: Point(x: x1, y: y1))
            } else {
                graphicKind = .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5))
            }
        case "path":
            let commands = try value(of: request, naming: "path commands")
            guard let path = Path(parsing: commands) else {
                throw EditError(
                    "the path \"\(commands)\" is not M/L/Q/C/Z commands starting with M, such as \"M 0 1 L 0.5 0 L 1 1 Z\".",
                    isInvalidRequest: true)
            }
            graphicKind = .path(path)
        case "text":
            let fontSize = changes.fontSize ?? 48
            graphicKind = .text(
                TextContent(
                    string: try text(of: request), fontFamily: changes.font ?? "DejaVu Sans",
                    fontSize: fontSize, alignment: changes.alignment ?? .center))
            if changes.size == nil { transform.size = Size(width: canvas.width * 0.8, height: fontSize * 1.5) }
        case "image":
            let file = try value(of: request, naming: "PNG file")
            graphicKind = .image(file: try ImageImport.intoDrawingFolder(URL(fileURLWithPath: file), folder: imageFolder))
        default:
            guard let shape = ShapeNames.libraryShape(named: request.kind) else {
                throw EditError(
                    "unknown kind \"\(request.kind)\"; use \(ShapeNames.drawingKindNames.joined(separator: ", ")).",
                    isInvalidRequest: true)
            }
            graphicKind = .shape(shape)
        }
        var style = changes
        style.center = nil
        style.size = nil
        style.rotationDegrees = nil
        // Something visible by default: lines get a stroke, text and shapes a fill.
        if style.fill == nil && style.strokeColor == nil {
            switch graphicKind {
            case .line:
                style.strokeColor = .black
                style.strokeWidth = style.strokeWidth ?? 2
            case .text: style.fill = .some(.black)
            case .image: break
            default: style.fill = .some(defaultShapeFill)
            }
        }
        try style.validate()
        return try Graphic(kind: graphicKind, transform: transform).applying(style)
    }

    /// A card element for `request`: an image (its PNG stored in `cardFolder` as the app
    /// stores photos, see `ImageImport.intoCardFolder`) or a text. Cards hold nothing else.
    public static func cardElement(for request: ElementRequest, cardFolder: URL) throws -> CardElement {
        var transform = ElementTransform.appDefault
        let changes = request.style
        if let center = changes.center {
            transform.offset = Point(x: center.x - Card.canvasSize.width / 2, y: center.y - Card.canvasSize.height / 2)
        }
        if let size = changes.size { transform.size = size }
        if let rotation = changes.rotationDegrees { transform.rotationDegrees = rotation }
        if changes.strokeColor != nil || changes.strokeWidth != nil || changes.opacity != nil || changes.dash != nil {
            throw EditError("card elements have no stroke or opacity (the Cards app stores neither)")
        }
        if changes.fontSize != nil || changes.alignment != nil {
            throw EditError(Card.textSizeMessage)
        }
        switch request.kind.lowercased() {
        case "image":
            let name = try ImageImport.intoCardFolder(
                URL(fileURLWithPath: try value(of: request, naming: "PNG file")), folder: cardFolder)
            return .image(ImageElement(transform: transform, imageFilename: name, clip: (changes.clip ?? nil)))
        case "text":
            return .text(
                TextElement(
                    transform: transform, text: try text(of: request),
                    textColor: (changes.fill ?? nil) ?? .black, textFont: changes.font ?? TextElement.appDefaultFont))
        default:
            let name = request.documentName
            throw EditError(
                "a card holds only images and texts, not a \(request.kind); use `add \(name) image FILE.png` or `add \(name) text \"...\"`"
            )
        }
    }

    /// The request's value, which its kind needs.
    private static func value(of request: ElementRequest, naming what: String) throws(EditError) -> String {
        guard let value = request.value else {
            throw EditError("`add \(request.kind)` needs its \(what) after the kind.", isInvalidRequest: true)
        }
        return value
    }

    /// The request's text, within `TextLimits`.
    private static func text(of request: ElementRequest) throws(EditError) -> String {
        let text = try value(of: request, naming: "string")
        if let problem = TextLimits.problem(with: text) { throw EditError(problem) }
        return text
    }
}
