import ArgumentParser
import Foundation
import EaselGeometry
import EaselDocuments
import EaselRender

struct AddCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a graphic to a drawing, or an image or text to a card.",
        discussion: """
        Kinds for a drawing: rect, rounded-rect, ellipse, polygon, star, line, path, text, image, \
        and the clip library's shapes (circle, heart, lens, chevron, cone, cloud, diamond, \
        hexagon, octagon). A card takes image and text.

        Examples:
          easel add art.drawing star --at 400,300 --size 200x200 --fill gold --stroke black
          easel add art.drawing line --from 10,10 --to 300,40 --stroke navy --stroke-width 4
          easel add art.drawing path "M 0 1 L 0.5 0 L 1 1 Z" --at 100,100 --size 80x80 --fill tomato
          easel add art.drawing text "Hello" --font "Gill Sans" --font-size 48 --at 400,80
          easel add Card.rwcard image photo.png --clip heart
          easel add Card.rwcard text "Happy birthday" --font Chalkduster --color appColor1
        """
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String

    @Argument(help: "What to add.")
    var kind: String

    @Argument(help: "For text: the string. For image: the PNG file. For path: M/L/Q/C/Z commands in the unit square.")
    var value: String?

    @OptionGroup var element: ElementOptions

    @Option(help: "Polygon sides.")
    var sides: Int = 6

    @Option(help: "Star points.")
    var points: Int = 5

    @Option(name: .customLong("inner-ratio"), help: "Star inner radius, as a fraction of the outer.")
    var innerRatio: Double = 0.5

    @Option(name: .customLong("corner-radius"), help: "Rounded rectangle corner radius.")
    var cornerRadius: Double = 25

    @Option(parsing: .unconditional, help: ArgumentHelp("Line start X,Y in canvas coordinates.", valueName: "x,y"))
    var from: PointArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp("Line end X,Y in canvas coordinates.", valueName: "x,y"))
    var to: PointArgument?

    func validate() throws {
        guard (3...DrawingLimits.maxPolygonSides).contains(sides) else { throw ValidationError("--sides must be from 3 to \(DrawingLimits.maxPolygonSides).") }
        guard (2...DrawingLimits.maxPolygonSides).contains(points) else { throw ValidationError("--points must be from 2 to \(DrawingLimits.maxPolygonSides).") }
        guard (0...1).contains(innerRatio) else { throw ValidationError("--inner-ratio must be from 0 to 1.") }
        guard cornerRadius >= 0, cornerRadius.isFinite else { throw ValidationError("--corner-radius must be zero or more.") }
        if ["text", "image", "path"].contains(kind.lowercased()), value == nil {
            throw ValidationError("`add \(kind)` needs its \(kind == "image" ? "PNG file" : kind == "text" ? "string" : "path commands") after the kind.")
        }
    }

    func apply(to editor: inout DocumentEditor) throws -> String {
        let url = editor.url
        var index = 0
        switch editor.document {
        case .card:
            let element = try cardElement(folder: url.deletingLastPathComponent())
            try editor.perform { document in
                switch element {
                case .image(let image): index = try document.add(image)
                case .text(let text): index = try document.add(text)
                }
            }
            return "added \(kind) as element \(index) of \(path)"
        case .drawing(let drawing):
            let graphic = try self.graphic(canvas: drawing.canvasSize, folder: Drawing.imageFolder(for: url))
            try editor.perform { document in index = try document.add(graphic) }
            return "added \(graphic.kind.name) as element \(index) of \(path)"
        }
    }

    private func cardElement(folder: URL) throws -> CardElement {
        var transform = ElementTransform.appDefault
        let changes = element.changes
        if let center = changes.center { transform.offset = Point(x: center.x - Card.canvasSize.width / 2, y: center.y - Card.canvasSize.height / 2) }
        if let size = changes.size { transform.size = size }
        if let rotation = changes.rotationDegrees { transform.rotationDegrees = rotation }
        if changes.strokeColor != nil || changes.strokeWidth != nil || changes.opacity != nil || changes.dash != nil {
            throw EditError("card elements have no stroke or opacity (the Cards app stores neither)")
        }
        switch kind.lowercased() {
        case "image":
            let name = try ImageImport.intoCardFolder(URL(fileURLWithPath: value!), folder: folder)
            return .image(ImageElement(transform: transform, imageFilename: name, clip: (changes.clip ?? nil)))
        case "text":
            return .text(TextElement(transform: transform, text: value!, textColor: (changes.fill ?? nil) ?? .black,
                                     textFont: element.font ?? "San Fransisco"))
        default:
            throw EditError("a card holds only images and texts, not a \(kind); use `add \(path) image FILE.png` or `add \(path) text \"...\"`")
        }
    }

    private func graphic(canvas: Size, folder: URL) throws -> Graphic {
        let changes = element.changes
        var transform = GraphicTransform(center: changes.center ?? Point(x: canvas.width / 2, y: canvas.height / 2),
                                         size: changes.size ?? Size(width: 100, height: 100),
                                         rotationDegrees: changes.rotationDegrees ?? 0)
        let graphicKind: GraphicKind
        switch kind.lowercased() {
        case "rect", "rectangle": graphicKind = .rectangle
        case "rounded-rect", "roundedrect", "roundedrectangle", "rounded-rectangle": graphicKind = .roundedRectangle(cornerRadius: cornerRadius)
        case "ellipse": graphicKind = .ellipse
        case "polygon": graphicKind = .polygon(sides: sides)
        case "star": graphicKind = .star(points: points, innerRadiusRatio: innerRatio)
        case "line":
            if let from = from?.point, let to = to?.point {
                // The frame spans the two points; the line runs between them in its unit square.
                let (dx, dy) = (to.x - from.x, to.y - from.y)
                transform = GraphicTransform(center: Point(x: (from.x + to.x) / 2, y: (from.y + to.y) / 2),
                                             size: Size(width: abs(dx), height: abs(dy)), rotationDegrees: 0)
                func unit(_ delta: Double) -> (Double, Double) { delta == 0 ? (0.5, 0.5) : (delta > 0 ? (0, 1) : (1, 0)) }
                let (x0, x1) = unit(dx), (y0, y1) = unit(dy)
                graphicKind = .line(from: Point(x: x0, y: y0), to: Point(x: x1, y: y1))
            } else {
                graphicKind = .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5))
            }
        case "path":
            guard let path = Path(parsing: value!) else {
                throw ValidationError("the path \"\(value!)\" is not M/L/Q/C/Z commands starting with M, such as \"M 0 1 L 0.5 0 L 1 1 Z\".")
            }
            graphicKind = .path(path)
        case "text":
            graphicKind = .text(TextContent(string: value!, fontFamily: element.font ?? "DejaVu Sans", fontSize: element.fontSize ?? 48,
                                            alignment: element.alignment ?? .center))
            if changes.size == nil { transform.size = Size(width: canvas.width * 0.8, height: (element.fontSize ?? 48) * 1.5) }
        case "image":
            graphicKind = .image(file: try ImageImport.intoDrawingFolder(URL(fileURLWithPath: value!), folder: folder))
        default:
            guard let shape = LibraryShape(name: kind) else {
                throw ValidationError("unknown kind \"\(kind)\"; use rect, rounded-rect, ellipse, polygon, star, line, path, text, image, or \(LibraryShape.allCases.map(\.name).joined(separator: ", ")).")
            }
            graphicKind = .shape(shape)
        }
        var graphic = Graphic(kind: graphicKind, transform: transform)
        var style = changes
        style.center = nil
        style.size = nil
        style.rotationDegrees = nil
        // Something visible by default: lines get a stroke, text and shapes a fill.
        if style.fill == nil && style.strokeColor == nil {
            switch graphicKind {
            case .line: style.strokeColor = .black; style.strokeWidth = style.strokeWidth ?? 2
            case .text: style.fill = .some(.black)
            case .image: break
            default: style.fill = .some(Color(hex: "#4682B4"))
            }
        }
        try style.validate()
        graphic = try graphic.applying(style)
        return graphic
    }
}
