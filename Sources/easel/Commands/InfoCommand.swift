import ArgumentParser
import Foundation
import EaselGeometry
import EaselDocuments
import EaselEditing
import EaselBatch

struct InfoCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a document: its canvas, background, and every element with its index.",
        discussion: "Example: easel info Card.rwcard --json"
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
            "\(description.path): \(description.type), \(formatNumber(description.canvas[0]))x\(formatNumber(description.canvas[1])), background \(description.background ?? "transparent"), \(description.elements.count) element\(description.elements.count == 1 ? "" : "s")"
        ]
        for element in description.elements {
            var parts = [
                "[\(element.index)] \(element.kind)", "at \(formatNumber(element.center[0])),\(formatNumber(element.center[1]))",
                "size \(formatNumber(element.size[0]))x\(formatNumber(element.size[1]))",
            ]
            if element.rotation != 0 { parts.append("rotated \(formatNumber(element.rotation))°") }
            if let fill = element.fill { parts.append((element.kind == "text" ? "colour " : "fill ") + fill) }
            if let stroke = element.stroke { parts.append("stroke \(stroke) width \(formatNumber(element.strokeWidth ?? 1))") }
            if let opacity = element.opacity, opacity != 1 { parts.append("opacity \(formatNumber(opacity))") }
            if let clip = element.clip { parts.append("clip \(clip)") }
            if let text = element.text { parts.append("\"\(text)\"") }
            if let font = element.font { parts.append("font \(font)" + (element.fontSize.map { " \(formatNumber($0))" } ?? "")) }
            if let image = element.image {
                parts.append("image \(image) (\(element.imageStatus == "ok" ? "found" : "not found"))")
            }
            if let children = element.children { parts.append("\(children) children") }
            if let name = element.name { parts.append("named \(name)") }
            lines.append("  " + parts.joined(separator: ", "))
        }
        for warning in description.warnings { lines.append("warning: \(warning)") }
        // Each line on its own: a text or name with control characters cannot break out of it.
        return lines.map(Terminal.safe).joined(separator: "\n")
    }
}
