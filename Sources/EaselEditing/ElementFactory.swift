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
        // By the names users type (`ShapeNames`: one per shape, the old spellings as aliases).
        let name = ShapeNames.drawingKind(named: request.kind) ?? request.kind
        var kind: GraphicKind
        switch name {
        case "path":
            let commands = try value(of: request, naming: "path commands")
            guard let path = Path(parsing: commands) else {
                throw EditError(
                    "the path \"\(commands)\" is not M/L/Q/C/Z commands starting with M, such as \"M 0 1 L 0.5 0 L 1 1 Z\".",
                    isInvalidRequest: true)
            }
            kind = .path(path)
        case "text":
            kind = .text(TextContent(string: try text(of: request)))
        case "image":
            let file = try value(of: request, naming: "PNG file")
            kind = .image(file: try ImageImport.intoDrawingFolder(URL(fileURLWithPath: file), folder: imageFolder))
        default:
            guard let shape = defaultKind(named: name) else {
                throw EditError(
                    "unknown kind \"\(request.kind)\"; use \(ShapeNames.drawingKindNames.joined(separator: ", ")).",
                    isInvalidRequest: true)
            }
            kind = shape
        }
        var graphic = Graphic(
            kind: kind,
            transform: GraphicTransform(
                center: Point(x: canvas.width / 2, y: canvas.height / 2), size: Size(width: 100, height: 100)))
        // A text's frame fits one line of it across most of the canvas.
        if case .text = kind {
            graphic.transform.size = Size(width: canvas.width * 0.8, height: (changes[.fontSize]?.number ?? 48) * 1.5)
        }
        // Something visible by default: lines get a stroke, text and shapes a fill.
        if changes[.fill] == nil && changes[.stroke] == nil {
            switch kind {
            case .line: graphic.stroke = Stroke(color: .black, width: 2)
            case .text: graphic.fill = .black
            case .image: break
            default: graphic.fill = defaultShapeFill
            }
        }
        return try graphic.applying(changes)
    }

    /// A new graphic's kind for a kind's shown name (`ShapeNames`), with its defaults: six
    /// sides, five points at half the radius, corners of 25, a line across the frame, an
    /// empty text, path or group; nil for a name that is no kind.
    public static func defaultKind(named name: String) -> GraphicKind? {
        switch name {
        case "rectangle": return .rectangle
        case "rounded-rectangle": return .roundedRectangle(cornerRadius: 25)
        case "ellipse": return .ellipse
        case "polygon": return .polygon(sides: 6)
        case "star": return .star(points: 5, innerRadiusRatio: 0.5)
        case "line": return .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5))
        case "path": return .path(Path())
        case "text": return .text(TextContent(string: ""))
        case "image": return .image(file: "")
        case "group": return .group([])
        default: return ShapeNames.libraryShape(named: name).map(GraphicKind.shape)
        }
    }

    /// A card element for `request`: an image (its PNG stored in `cardFolder` as the app
    /// stores photos, see `ImageImport.intoCardFolder`) or a text, in the app's default
    /// frame. Cards hold nothing else.
    public static func cardElement(for request: ElementRequest, cardFolder: URL) throws -> CardElement {
        let element: CardElement
        switch request.kind.lowercased() {
        case "image":
            // Checked before the photo is copied in: a refused edit leaves no file behind.
            _ = try CardElement.image(ImageElement(transform: .appDefault, imageFilename: nil)).applying(request.style)
            let name = try ImageImport.intoCardFolder(
                URL(fileURLWithPath: try value(of: request, naming: "PNG file")), folder: cardFolder)
            element = .image(ImageElement(transform: .appDefault, imageFilename: name))
        case "text":
            element = .text(
                TextElement(
                    transform: .appDefault, text: try text(of: request), textColor: .black, textFont: TextElement.appDefaultFont))
        default:
            let name = request.documentName
            throw EditError(
                "a card holds only images and texts, not a \(request.kind); use `add \(name) image FILE.png` or `add \(name) text \"...\"`"
            )
        }
        return try element.applying(request.style)
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
