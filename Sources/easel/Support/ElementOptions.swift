import ArgumentParser
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

/// The element properties `add` and `set` take.
struct ElementOptions: ParsableArguments {
    @Option(
        name: .customLong("at"), parsing: .unconditional,
        help: ArgumentHelp("Centre position X,Y in canvas coordinates.", valueName: "x,y"),
        transform: PointArgument.parser(expected: "X,Y, e.g. 400,300"))
    var center: PointArgument?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Frame size WxH in canvas units.", valueName: "wxh"),
        transform: SizeArgument.parser(example: "200x100"))
    var size: SizeArgument?

    @Option(parsing: .unconditional, help: "Rotation in degrees, clockwise (negative: anticlockwise).")
    var rotation: Double?

    @Option(
        help: ArgumentHelp(
            "Fill colour: #RRGGBB[AA], a CSS name, r,g,b[,a] (0-1), an app palette name, or none.", valueName: "color"))
    var fill: String?

    @Option(
        name: .customLong("color"), help: ArgumentHelp("Text colour (the same as --fill for a text).", valueName: "color"),
        transform: ColorArgument.parser)
    var textColor: ColorArgument?

    @Option(help: ArgumentHelp("Stroke colour, or none to remove the stroke.", valueName: "color"))
    var stroke: String?

    @Option(name: .customLong("stroke-width"), parsing: .unconditional, help: "Stroke width in canvas units.")
    var strokeWidth: Double?

    @Option(
        help: ArgumentHelp("Dash pattern: on,off[,on,off...] lengths, or none.", valueName: "lengths"),
        transform: DashArgument.parser)
    var dash: DashArgument?

    @Option(
        help: "Line cap: butt, round or square.", completion: Choice.completion(Stroke.Cap.self),
        transform: Choice.parser(example: Stroke.Cap.round))
    var cap: Stroke.Cap?

    @Option(
        help: "Line join: miter, round or bevel.", completion: Choice.completion(Stroke.Join.self),
        transform: Choice.parser(example: Stroke.Join.round))
    var join: Stroke.Join?

    @Option(parsing: .unconditional, help: "Opacity from 0 (invisible) to 1.")
    var opacity: Double?

    @Option(
        help: ArgumentHelp(
            "Clip shape: \(ShapeNames.clipNames.joined(separator: ", ")), or none.",
            valueName: "shape"),
        completion: .list(ClipArgument.names), transform: ClipArgument.parser)
    var clip: ClipArgument?

    @Option(help: "Replace a text's string.")
    var text: String?

    @Option(
        help:
            "Font name (an Apple name such as \"Gill Sans\", or an installed family); a new card text gets \"Gill Sans\", as the app gives it."
    )
    var font: String?

    @Option(
        name: .customLong("font-size"), parsing: .unconditional,
        help: "Font size in canvas units (drawings; a card's text size follows its frame).")
    var fontSize: Double?

    @Option(
        name: .customLong("align"), help: "Text alignment: left, center or right.",
        completion: Choice.completion(TextContent.Alignment.self), transform: Choice.parser(example: TextContent.Alignment.left))
    var alignment: TextContent.Alignment?

    @Option(help: "A label for the graphic (drawings).")
    var name: String?

    func validate() throws {
        if let fill, fill.lowercased() != "none", (try? Color(parsing: fill)) == nil {
            throw ValidationError(Self.badColor("--fill", fill))
        }
        if let stroke, stroke.lowercased() != "none", (try? Color(parsing: stroke)) == nil {
            throw ValidationError(Self.badColor("--stroke", stroke))
        }
        if let opacity, !(0...1).contains(opacity) { throw ValidationError("--opacity must be from 0 to 1.") }
        if let strokeWidth, !(strokeWidth >= 0 && strokeWidth.isFinite) {
            throw ValidationError("--stroke-width must be zero or more.")
        }
        if let fontSize, !(fontSize > 0 && fontSize.isFinite) { throw ValidationError("--font-size must be a positive number.") }
        if let rotation, !rotation.isFinite { throw ValidationError("--rotation must be a number of degrees.") }
    }

    static func badColor(_ option: String, _ value: String) -> String {
        "\(option) must be a colour (#RRGGBB, #RRGGBBAA, a CSS name such as tomato, r,g,b[,a] from 0 to 1, random1-8, appColor1-7) or none, not \"\(value)\"."
    }

    /// The changes these options make.
    var changes: ElementChanges {
        var changes = ElementChanges()
        changes.center = center?.point
        changes.size = size?.size
        changes.rotationDegrees = rotation
        if let fill { changes.fill = .some(fill.lowercased() == "none" ? nil : (try? Color(parsing: fill))) }
        if let textColor { changes.fill = .some(textColor.color) }
        if let stroke {
            if stroke.lowercased() == "none" {
                changes.removeStroke = true
            } else {
                changes.strokeColor = (try? Color(parsing: stroke))
            }
        }
        changes.strokeWidth = strokeWidth
        changes.dash = dash?.lengths
        changes.cap = cap
        changes.join = join
        changes.opacity = opacity
        if let clip { changes.clip = .some(clip.shape.map(ClipShape.library)) }
        changes.text = text
        changes.font = font
        changes.fontSize = fontSize
        changes.alignment = alignment
        changes.name = name
        return changes
    }
}
