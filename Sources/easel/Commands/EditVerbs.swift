import ArgumentParser
import FoundationEssentials
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

struct SetCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change an element's properties.",
        discussion: """
            Example: easel set art.drawing 2 --fill tomato --rotation 15 --clip heart

            Properties (each applies to the elements that have it):
            \(ElementOptions.helpText)
            """
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(help: "The element's index (see `easel info`).")
    var index: Int
    @OptionGroup var element: ElementOptions

    func validate() throws {
        if try element.changes().isEmpty {
            throw ValidationError("Nothing to change: give at least one option, such as --fill or --at.")
        }
    }

    func apply(to editor: inout DocumentEditor) throws -> String {
        let changes = try element.changes()
        let changed = try editor.perform { try $0.apply(changes, at: index) }
        return changed ? "changed element \(index) of \(path)" : "element \(index) already was so; nothing changed"
    }
}

struct MoveCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move an element by a distance.",
        discussion: "Example: easel move art.drawing 0 --by 20,-10"
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(help: "The element's index.")
    var index: Int
    @Option(
        parsing: .unconditional, help: ArgumentHelp("The distance DX,DY in canvas units.", valueName: "dx,dy"),
        transform: PointArgument.parser(expected: "DX,DY, e.g. 20,0"))
    var by: PointArgument

    func apply(to editor: inout DocumentEditor) throws -> String {
        try editor.perform { try $0.move(index, by: by.point) }
        let center = try editor.document.center(of: index)
        return "moved element \(index) of \(path) to \(formatNumber(center.x)),\(formatNumber(center.y))"
    }
}

struct RemoveCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an element.",
        discussion: "Example: easel remove art.drawing 3")

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(help: "The element's index.")
    var index: Int

    func apply(to editor: inout DocumentEditor) throws -> String {
        try editor.perform { try $0.remove(index) }
        return "removed element \(index) of \(path)"
    }
}

struct OrderCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Move an element to the front or back, or one step forward or backward.",
        discussion:
            "On a card an element moves among its own kind: the app always draws images below texts.\nExample: easel order art.drawing 0 front"
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(help: "The element's index.")
    var index: Int
    @Argument(
        help: "front, back, forward or backward.", completion: Choice.completion(OrderDirection.self),
        transform: Choice.parser(example: OrderDirection.front))
    var direction: OrderDirection

    func apply(to editor: inout DocumentEditor) throws -> String {
        var target = index
        try editor.perform { target = try $0.reorder(index, direction) }
        return "element \(index) of \(path) is now element \(target)"
    }
}

struct AlignCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "align",
        abstract: "Line elements up on their left, right, top or bottom edges or their centres.",
        discussion: """
            Elements are measured by the box around their (rotated) frames; one element lines up \
            with the canvas.
            Example: easel align art.drawing left 0 2 3
            """
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(
        help: "left, center, right, top, middle or bottom.", completion: Choice.completion(AlignEdge.self),
        transform: Choice.parser(example: AlignEdge.left))
    var edge: AlignEdge
    @Argument(help: "The elements' indices.")
    var indices: [Int]

    func apply(to editor: inout DocumentEditor) throws -> String {
        let changed = try editor.perform { try $0.align(indices, edge) }
        return changed
            ? "aligned \(indices.count) element(s) of \(path) on the \(edge.rawValue)" : "already aligned; nothing changed"
    }
}

struct DistributeCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "distribute",
        abstract: "Space three or more elements evenly, left to right or top to bottom.",
        discussion:
            "The outermost stay; the gaps between neighbours become equal.\nExample: easel distribute art.drawing horizontal 0 1 2"
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(
        help: "horizontal or vertical.", completion: Choice.completion(DistributeAxis.self),
        transform: Choice.parser(example: DistributeAxis.horizontal))
    var axis: DistributeAxis
    @Argument(help: "The elements' indices (three or more).")
    var indices: [Int]

    func apply(to editor: inout DocumentEditor) throws -> String {
        let changed = try editor.perform { try $0.distribute(indices, axis) }
        return changed
            ? "distributed \(indices.count) elements of \(path) \(axis.rawValue)ly" : "already evenly spaced; nothing changed"
    }
}

struct BackgroundCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "background",
        abstract: "Set the background colour (none: transparent, drawings only).",
        discussion: "Example: easel background Card.rwcard random6"
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String
    @Argument(help: "A colour, or none.")
    var color: String

    func validate() throws {
        if color.lowercased() != "none", (try? Color(parsing: color)) == nil {
            throw ValidationError(ColorArgument.badColor("the colour", color))
        }
    }

    func apply(to editor: inout DocumentEditor) throws -> String {
        let value = color.lowercased() == "none" ? nil : (try? Color(parsing: color))
        try editor.perform { try $0.setBackground(value) }
        return "background of \(path) is \(value?.hex ?? "transparent")"
    }
}

struct UndoCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the last edit (the history is kept in Easel's state folder, \(DocumentEditor.maxUndoSteps) steps).",
        discussion: "Example: easel undo art.drawing"
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String

    func apply(to editor: inout DocumentEditor) throws -> String {
        try editor.undo() ? "undid the last edit of \(path)" : "nothing to undo in \(path)"
    }
}

struct RedoCommand: EditVerb {
    static let configuration = CommandConfiguration(
        commandName: "redo", abstract: "Redo the last undone edit.",
        discussion: "Example: easel redo art.drawing")

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String

    func apply(to editor: inout DocumentEditor) throws -> String {
        try editor.redo() ? "redid an edit of \(path)" : "nothing to redo in \(path)"
    }
}
