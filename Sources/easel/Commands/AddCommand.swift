import ArgumentParser
import FoundationEssentials
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
            ones are the clip library's shapes; rect and rounded-rect are accepted too), and \
            sticker. A card takes image, sticker and text. A sticker is one of Easel's own, \
            stored as an image: \(StickerCatalog.themes.flatMap(\.stickers).map(\.id).joined(separator: ", ")).

            Examples:
              easel add art.drawing star --at 400,300 --size 200x200 --fill gold --stroke black
              easel add art.drawing line --from 10,10 --to 300,40 --stroke navy --stroke-width 4
              easel add art.drawing path "M 0 1 L 0.5 0 L 1 1 Z" --at 100,100 --size 80x80 --fill tomato
              easel add Card.rwcard sticker camping/fire --at 900,300
              easel add art.drawing text "Hello" --font "Gill Sans" --font-size 48 --at 400,80
              easel add Card.rwcard image photo.png --clip heart
              easel add Card.rwcard text "Happy birthday" --font Chalkduster --color appColor1

            Properties (each applies to the kinds that have it):
            \(ElementOptions.helpText)
            """
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String

    @Argument(
        help: "What to add; then, for text, the string, for image, the PNG file, for path, M/L/Q/C/Z commands in the unit square."
    )
    var kind: String

    @OptionGroup var element: ElementOptions

    /// For text: the string. For image: the PNG file. For path: M/L/Q/C/Z commands in the unit square.
    var value: String? { element.leadingValue }

    func validate() throws {
        _ = try element.changes(afterValue: true)
        if ["text", "image", "path"].contains(kind.lowercased()), value == nil {
            throw ValidationError(
                "`add \(kind)` needs its \(kind == "image" ? "PNG file" : kind == "text" ? "string" : "path commands") after the kind."
            )
        }
    }

    /// The request this command line describes.
    var request: ElementRequest {
        get throws { ElementRequest(kind: kind, value: value, style: try element.changes(afterValue: true), documentName: path) }
    }

    func apply(to editor: inout DocumentEditor) throws -> String {
        let added = try editor.add(try request)
        return "added \(added.kind) as element \(added.index) of \(path)"
    }
}
