import ArgumentParser
import FoundationEssentials
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

struct InfoCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a document: its canvas, background, and every element with its index.",
        discussion: """
            Every property the file holds is shown, named as `easel set` takes it (fill \
            #FF6347, at 400,300). The text leaves out what is as the file format's default (no \
            rotation, opacity 1, a solid stroke with butt caps and miter joins, centred text); \
            --json lists every value, by the keys of the edit API.

            Example: easel info Card.rwcard --json
            """
    )

    @Argument(help: "The document.", completion: .file(extensions: ["rwcard", "drawing"]))
    var path: String

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func execute() throws {
        let editor = try DocumentEditor.openExisting(path, forEditing: false)
        Terminal.write(Self.render(editor.description, json: json))
    }

    static func render(_ description: DocumentDescription, json: Bool) -> String {
        if json {
            return (try? JSONOutput.string(description)) ?? "{}"
        }
        var lines = [
            "\(description.path): \(description.type)\(description.id.map { ", id \($0)" } ?? ""), \(formatNumber(description.canvas[0]))x\(formatNumber(description.canvas[1])), background \(description.background ?? "transparent"), \(description.elements.count) element\(description.elements.count == 1 ? "" : "s")"
        ]
        for element in description.elements { lines.append("  " + element.summary) }
        for warning in description.warnings { lines.append("warning: \(warning)") }
        // Each line on its own: a text or name with control characters cannot break out of it.
        return lines.map(Terminal.safe).joined(separator: "\n")
    }
}
