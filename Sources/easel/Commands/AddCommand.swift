import ArgumentParser
import Foundation
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo

struct AddCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a graphic to a drawing, or an image or text to a card.",
        discussion: """
            Kinds for a drawing: \(ShapeNames.drawingKindNames.joined(separator: ", ")) (the last \
            ones are the clip library's shapes; rect and rounded-rect are accepted too). A card \
            takes image and text.

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

    @Option(parsing: .unconditional, help: "Polygon sides.")
    var sides: Int = 6

    @Option(parsing: .unconditional, help: "Star points.")
    var points: Int = 5

    @Option(name: .customLong("inner-ratio"), parsing: .unconditional, help: "Star inner radius, as a fraction of the outer.")
    var innerRatio: Double = 0.5

    @Option(name: .customLong("corner-radius"), parsing: .unconditional, help: "Rounded rectangle corner radius.")
    var cornerRadius: Double = 25

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Line start X,Y in canvas coordinates.", valueName: "x,y"),
        transform: PointArgument.parser(expected: "X,Y, e.g. 10,10"))
    var from: PointArgument?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Line end X,Y in canvas coordinates.", valueName: "x,y"),
        transform: PointArgument.parser(expected: "X,Y, e.g. 300,40"))
    var to: PointArgument?

    func validate() throws {
        guard (3...DrawingLimits.maxPolygonSides).contains(sides) else {
            throw ValidationError("--sides must be from 3 to \(DrawingLimits.maxPolygonSides).")
        }
        guard (2...DrawingLimits.maxPolygonSides).contains(points) else {
            throw ValidationError("--points must be from 2 to \(DrawingLimits.maxPolygonSides).")
        }
        guard (0...1).contains(innerRatio) else { throw ValidationError("--inner-ratio must be from 0 to 1.") }
        guard cornerRadius >= 0, cornerRadius.isFinite else { throw ValidationError("--corner-radius must be zero or more.") }
        if ["text", "image", "path"].contains(kind.lowercased()), value == nil {
            throw ValidationError(
                "`add \(kind)` needs its \(kind == "image" ? "PNG file" : kind == "text" ? "string" : "path commands") after the kind."
            )
        }
    }

    /// The request this command line describes.
    var request: ElementRequest {
        var request = ElementRequest(kind: kind, value: value, style: element.changes, documentName: path)
        request.sides = sides
        request.points = points
        request.innerRatio = innerRatio
        request.cornerRadius = cornerRadius
        request.from = from?.point
        request.to = to?.point
        return request
    }

    func apply(to editor: inout DocumentEditor) throws -> String {
        let added = try editor.add(request)
        return "added \(added.kind) as element \(added.index) of \(path)"
    }
}
