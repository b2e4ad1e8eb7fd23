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
        discussion: """
            Every property the file holds is shown. The text leaves out what is as the file \
            format's default (no rotation, opacity 1, a solid stroke with butt caps and miter \
            joins, centred text); --json lists every value.

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
        for element in description.elements {
            var parts = [
                "[\(element.index)] \(element.kind)", "at \(formatNumber(element.center[0])),\(formatNumber(element.center[1]))",
                "size \(formatNumber(element.size[0]))x\(formatNumber(element.size[1]))",
            ]
            if element.rotation != 0 { parts.append("rotated \(formatNumber(element.rotation))°") }
            if let fill = element.fill { parts.append((element.kind == "text" ? "colour " : "fill ") + fill) }
            if let stroke = element.stroke { parts.append("stroke \(stroke) width \(formatNumber(element.strokeWidth ?? 1))") }
            if let dash = element.dash, !dash.isEmpty { parts.append("dash " + dash.map(formatNumber).joined(separator: ",")) }
            if let cap = element.cap, cap != Stroke.Cap.butt.rawValue { parts.append("cap \(cap)") }
            if let join = element.join, join != Stroke.Join.miter.rawValue { parts.append("join \(join)") }
            if let opacity = element.opacity, opacity != 1 { parts.append("opacity \(formatNumber(opacity))") }
            if let clip = element.clip { parts.append("clip \(clip)" + (element.clipPath.map { " \($0)" } ?? "")) }
            if let radius = element.cornerRadius { parts.append("corner radius \(formatNumber(radius))") }
            if let sides = element.sides { parts.append("\(sides) sides") }
            if let points = element.points { parts.append("\(points) points") }
            if let ratio = element.innerRadiusRatio { parts.append("inner ratio \(formatNumber(ratio))") }
            if let from = element.from, let to = element.to {
                parts.append(
                    "from \(formatNumber(from[0])),\(formatNumber(from[1])) to \(formatNumber(to[0])),\(formatNumber(to[1]))")
            }
            if let path = element.path { parts.append("path \(path)") }
            if let text = element.text { parts.append("\"\(text)\"") }
            if let font = element.font { parts.append("font \(font)" + (element.fontSize.map { " \(formatNumber($0))" } ?? "")) }
            if let alignment = element.alignment, alignment != TextContent.Alignment.center.rawValue {
                parts.append("aligned \(alignment)")
            }
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
