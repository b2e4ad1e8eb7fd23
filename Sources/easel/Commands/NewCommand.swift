import ArgumentParser
import FoundationEssentials
import Glibc
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new drawing or card.",
        subcommands: [NewDrawing.self, NewCard.self]
    )

    struct NewDrawing: EaselCommand {
        static let configuration = CommandConfiguration(
            commandName: "drawing",
            abstract: "Create an empty drawing.",
            discussion: "Example: easel new drawing art.drawing --size 800x600 --background white"
        )

        @Argument(help: "The .drawing file to create.", completion: .file(extensions: ["drawing"]))
        var path: String

        @Option(
            parsing: .unconditional,
            // The default said as ArgumentParser says its own (a transform's value has none).
            help: ArgumentHelp("Canvas size WxH in units (default: 800x600).", valueName: "wxh"),
            transform: SizeArgument.parser(example: "800x600"))
        var size: SizeArgument = SizeArgument(Size(width: 800, height: 600))

        @Option(help: ArgumentHelp("Background colour, or none for transparent.", valueName: "color"))
        var background: String = "white"

        func validate() throws {
            guard path.lowercased().hasSuffix(".drawing") else {
                throw ValidationError("A drawing's file name must end in .drawing.")
            }
            guard size.size.width > 0, size.size.height > 0 else {
                throw ValidationError("--size must have a positive width and height.")
            }
            if background.lowercased() != "none", (try? Color(parsing: background)) == nil {
                throw ValidationError(ColorArgument.badColor("--background", background))
            }
        }

        func execute() throws {
            let drawing = Drawing(
                canvasSize: size.size, background: background.lowercased() == "none" ? nil : (try? Color(parsing: background)))
            _ = try DocumentEditor.create(drawing, at: URL(fileURLWithPath: path))
            Terminal.printLine("created drawing \(path) (\(size.size))")
        }
    }

    struct NewCard: EaselCommand {
        static let configuration = CommandConfiguration(
            commandName: "card",
            abstract: "Create an empty card, as the Cards app would.",
            discussion: """
                PATH is a .rwcard file, or a folder: then the card is created in it as <UUID>.rwcard, \
                the name the app gives its cards. A file name that is a UUID becomes the card's id.

                Example: easel new card ~/Documents --background random3
                """
        )

        @Argument(help: "The .rwcard file, or the folder, to create the card in.", completion: .file(extensions: ["rwcard"]))
        var path: String

        @Option(
            help: ArgumentHelp("Background colour (default: the app's yellow).", valueName: "color"),
            transform: ColorArgument.parser)
        var background: ColorArgument?

        func execute() throws {
            var card = Card(backgroundColor: background?.color ?? Card.defaultBackground)
            let url: URL
            if FileIO.isFolder(path) {
                url = URL(fileURLWithPath: path).appendingPathComponent(card.appFileName)
            } else {
                guard path.lowercased().hasSuffix(".rwcard") else {
                    throw ValidationError("A card's file name must end in .rwcard.")
                }
                url = URL(fileURLWithPath: path)
                card = card.copy(savedAt: url)
            }
            _ = try DocumentEditor.create(card, at: url)
            // As the folder was typed: relative stays relative.
            Terminal.printLine("created card \(url.relativePath)")
        }
    }
}
