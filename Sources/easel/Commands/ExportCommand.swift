import ArgumentParser
import Foundation
import EaselDocuments
import EaselRender

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render a document, or every document in a folder, to PNG.",
        discussion: """
        A file is rendered to the file --out names. A folder is searched recursively for \
        documents (.rwcard cards), and each is written under --out with the same relative \
        path and a .png extension.

        Examples:
          easel export Card.rwcard --out card.png
          easel export Card.rwcard --out thumb.png --scale 0.2
          easel export ~/Documents --out pngs/
        """
    )

    @Argument(help: "A document file, or a folder of documents.", completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "The PNG file to write (for a document) or the folder to write into (for a folder).")
    var out: String

    @Option(help: "Multiply the canvas size by this factor (1 = 1300x2000 for a card).")
    var scale: Double = 1

    func validate() throws {
        guard scale.isFinite, scale > 0 else { throw ValidationError("--scale must be a positive number.") }
    }

    func run() throws {
        let inputURL = URL(fileURLWithPath: input)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else {
            Terminal.printError("easel: \(input): no such file or folder")
            throw ExitCode.documentFailure
        }
        let options = RenderOptions(size: .scale(scale))
        if isFolder.boolValue {
            try exportFolder(inputURL, to: URL(fileURLWithPath: out), options: options)
        } else {
            guard exportOne(inputURL, to: URL(fileURLWithPath: out), options: options) else { throw ExitCode.documentFailure }
        }
    }

    /// Renders one document; prints what was written, or the error. Returns success.
    private func exportOne(_ input: URL, to output: URL, options: RenderOptions) -> Bool {
        do {
            var warnings: [DocumentWarning] = []
            let document = try DocumentRegistry.standard.open(input, warnings: &warnings)
            let rendered = try DocumentRenderer.render(document, at: input, options: options)
            try rendered.image.writePNG(to: output.path, options: options.png)
            for warning in warnings + rendered.warnings { Terminal.printError("easel: warning: \(warning)") }
            print("wrote \(output.path) (\(rendered.image.width)x\(rendered.image.height))")
            return true
        } catch {
            Terminal.printError("easel: \(error)")
            return false
        }
    }

    private func exportFolder(_ folder: URL, to outputFolder: URL, options: RenderOptions) throws {
        let registry = DocumentRegistry.standard
        let documents = DocumentScanner.documents(in: folder, registry: registry)
        var failures = 0
        for relative in documents {
            let output = outputFolder.appendingPathComponent(relative).deletingPathExtension().appendingPathExtension("png")
            do {
                try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                Terminal.printError("easel: \(output.deletingLastPathComponent().path): cannot create the folder: \(error.localizedDescription)")
                failures += 1
                continue
            }
            if !exportOne(folder.appendingPathComponent(relative), to: output, options: options) { failures += 1 }
        }
        Terminal.printError("easel: \(documents.count - failures) of \(documents.count) documents exported to \(outputFolder.path)")
        if failures > 0 { throw ExitCode.documentFailure }
    }
}
