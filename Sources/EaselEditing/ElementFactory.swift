import EaselDocuments
import EaselGeometry
import EaselRender
import EaselSupport
import FoundationEssentials

/// Makes new elements from requests, with the defaults `easel add` documents: shapes
/// 100x100 at the canvas centre in steel blue, lines in black 2 units wide, text in black
/// DejaVu Sans at 48 units; on a card, at its centre, an image in a frame of its own
/// proportions within the app's default 800x800 and a text in a frame that fits its words.
/// A text's frame fits its words, an image's frame has the image's proportions (within
/// half the canvas in a drawing); a size given in the request wins.
public enum ElementFactory {
    /// The fill a shape gets when the request names neither fill nor stroke.
    public static let defaultShapeFill = Color(red: 70 / 255, green: 130 / 255, blue: 180 / 255)

    /// A drawing graphic for `request` on a canvas of `canvas`; an image file is brought
    /// into `imageFolder` (see `ImageImport.intoDrawingFolder`).
    public static func graphic(for request: ElementRequest, canvas: Size, imageFolder: URL) throws -> Graphic {
        let changes = request.style
        // By the names users type (`ShapeNames`: one per shape, the old spellings as aliases).
        let name = request.imageSource == .sticker ? "sticker" : ShapeNames.drawingKind(named: request.kind) ?? request.kind
        var kind: GraphicKind
        var imported: ImportedImage?
        switch name {
        case "path":
            let commands = try value(of: request, naming: "path commands")
            guard let path = Path(parsing: commands) else {
                throw EditError(
                    "the path \(commands.quotedForMessage) is not M/L/Q/C/Z commands starting with M, such as \"M 0 1 L 0.5 0 L 1 1 Z\".",
                    isInvalidRequest: true, property: "value")
            }
            kind = .path(path)
        case "text":
            kind = .text(TextContent(string: try text(of: request)))
        case "image":
            let file = try value(of: request, naming: "PNG file")
            imported = try ImageImport.intoDrawingFolder(URL(fileURLWithPath: file), folder: imageFolder)
            kind = .image(file: imported?.name ?? "")
        case "sticker":
            let sticker = try Self.sticker(of: request)
            imported = try ImageImport.intoDrawingFolder(
                bytes: try StickerCatalog.png(sticker), named: "sticker-\(sticker.name).png",
                from: "the sticker \(sticker.id)", folder: imageFolder)
            kind = .image(file: imported?.name ?? "")
        default:
            guard let shape = defaultKind(named: name) else {
                throw EditError(
                    "unknown kind \(request.kind.quotedForMessage); use \((ShapeNames.drawingKindNames + ["sticker"]).joined(separator: ", ")).",
                    isInvalidRequest: true, property: "kind")
            }
            kind = shape
        }
        var graphic = Graphic(
            kind: kind,
            transform: GraphicTransform(
                center: Point(x: canvas.width / 2, y: canvas.height / 2), size: Size(width: 100, height: 100)))
        switch kind {
        case .text(let content):
            let fontSize = changes[.fontSize]?.number ?? content.fontSize
            let font = changes[.font].flatMap { if case .text(let name) = $0 { name } else { nil } } ?? content.fontFamily
            graphic.transform.size = textFrame(for: content.string, font: font, fontSize: fontSize)
        case .image:
            if let imported {
                graphic.transform.size = fitted(
                    imported.pixelSize, within: Size(width: canvas.width / 2, height: canvas.height / 2))
            }
        default: break
        }
        // Something visible by default: lines get a stroke, text and shapes a fill.
        // (A sticker's kind is an image by now.)
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
        switch request.imageSource != nil ? "image" : request.kind.lowercased() {
        case "image":
            // Checked before the photo is copied in: a refused edit leaves no file behind.
            _ = try CardElement.image(ImageElement(transform: .appDefault, imageFilename: nil)).applying(request.style)
            let imported =
                request.imageSource == .sticker
                ? try ImageImport.intoCardFolder(
                    bytes: try StickerCatalog.png(try Self.sticker(of: request)), from: "the sticker", folder: cardFolder)
                : try ImageImport.intoCardFolder(
                    URL(fileURLWithPath: try value(of: request, naming: "PNG file")), folder: cardFolder)
            var frame = ElementTransform.appDefault
            frame.size = fitted(imported.pixelSize, within: frame.size)
            element = .image(ImageElement(transform: frame, imageFilename: imported.name))
        case "text":
            let string = try text(of: request)
            let font = request.style[.font].flatMap { if case .text(let name) = $0 { name } else { nil } }
            var frame = ElementTransform.appDefault
            // At the app's 200 units, within the card's width (the app shrinks it to fit).
            let natural = textFrame(for: string, font: font ?? TextElement.appDefaultFont, fontSize: 200)
            frame.size = natural.width > Card.canvasSize.width ? fitted(natural, within: Card.canvasSize) : natural
            element = .text(
                TextElement(transform: frame, text: string, textColor: .black, textFont: TextElement.appDefaultFont))
        default:
            let name = request.documentName
            throw EditError(
                "a card holds only images and texts, not a \(request.kind.quotedForMessage); use `add \(name) image FILE.png`, `add \(name) sticker THEME/NAME` or `add \(name) text \"...\"`",
                property: "kind")
        }
        return try element.applying(request.style)
    }

    /// `size` scaled (up or down) to fit inside `box`, keeping its proportions.
    public static func fitted(_ size: Size, within box: Size) -> Size {
        guard size.width > 0, size.height > 0 else { return box }
        let scale = min(box.width / size.width, box.height / size.height)
        return Size(width: size.width * scale, height: size.height * scale)
    }

    /// A frame that holds `text` on one line in `font` at `fontSize`, with a little room
    /// around it; a frame for one letter when the font cannot be loaded or the text is empty.
    static func textFrame(for text: String, font: String, fontSize: Double) -> Size {
        let line = TextMeasure.lineSize(of: text.isEmpty ? "M" : text, fontName: font, fontSize: fontSize)
        let height = max(line?.height ?? 0, fontSize * 1.2)
        let width = max(line?.width ?? 0, fontSize * 0.6) + height * 0.25
        return Size(width: (width * 100).rounded() / 100, height: (height * 100).rounded() / 100)
    }

    /// The sticker the request names (`camping/fire`).
    private static func sticker(of request: ElementRequest) throws -> Sticker {
        let id = try value(of: request, naming: "sticker (THEME/NAME, such as camping/fire)")
        guard let sticker = StickerCatalog.sticker(named: id) else {
            let all = StickerCatalog.themes.flatMap(\.stickers).map(\.id)
            throw EditError(
                "no sticker \(id.quotedForMessage); the stickers are \(all.joined(separator: ", "))", isInvalidRequest: true,
                property: "value")
        }
        return sticker
    }

    /// The request's value, which its kind needs.
    private static func value(of request: ElementRequest, naming what: String) throws(EditError) -> String {
        guard let value = request.value else {
            throw EditError("`add \(request.kind)` needs its \(what) after the kind.", isInvalidRequest: true, property: "value")
        }
        return value
    }

    /// The request's text, within `TextLimits`.
    private static func text(of request: ElementRequest) throws(EditError) -> String {
        let text = try value(of: request, naming: "string")
        if let problem = TextLimits.problem(with: text) { throw EditError(problem, property: "value") }
        return text
    }
}
