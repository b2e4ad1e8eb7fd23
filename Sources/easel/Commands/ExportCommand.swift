import ArgumentParser
import Foundation
import EaselDocuments
import EaselRender

struct ExportCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render a document, or every document in a folder, to PNG, SVG or PDF.",
        discussion: """
        A file is rendered to the file --out names. A folder is searched recursively for \
        documents (.rwcard cards and .drawing drawings), and each is written under --out \
        with the same relative path and the format's extension.

        Examples:
          easel export Card.rwcard --out card.png
          easel export Card.rwcard --out thumb.png --preset thumbnail
          easel export art.drawing --out art.svg
          easel export art.drawing --out art.pdf --width 2000
          easel export ~/Documents --out pngs/
        """
    )

    @Argument(help: "A document file, or a folder of documents.", completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "The file to write (for a document) or the folder to write into (for a folder).")
    var out: String

    @OptionGroup var render: RenderOptionGroup

    func execute() throws {
        let inputURL = URL(fileURLWithPath: input)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else {
            Terminal.printError("easel: \(input): no such file or folder")
            throw ExitCode.documentFailure
        }
        // A drawing package is a folder, but it is one document.
        if isFolder.boolValue && !DocumentRegistry.standard.isDocument(inputURL) {
            try exportFolder(inputURL, to: URL(fileURLWithPath: out), options: render.renderOptions(outputPath: nil))
        } else {
            guard exportOne(inputURL, to: URL(fileURLWithPath: out), options: render.renderOptions(outputPath: out)) else {
                throw ExitCode.documentFailure
            }
        }
    }

    /// Renders one document; prints what was written, or the error. Returns success.
    private func exportOne(_ input: URL, to output: URL, options: RenderOptions) -> Bool {
        do {
            var warnings: [DocumentWarning] = []
            let document = try DocumentRegistry.standard.open(input, warnings: &warnings)
            let file = try DocumentRenderer.export(document, at: input, options: options)
            try file.write(to: output.path)
            for warning in warnings + file.warnings { Terminal.printError("easel: warning: \(warning)") }
            print("wrote \(output.path) (\(file.width)x\(file.height))")
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
            let output = outputFolder.appendingPathComponent(relative).deletingPathExtension().appendingPathExtension(options.format.fileExtension)
            do {
                try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                Terminal.printError("easel: \(output.deletingLastPathComponent().path): cannot create the folder: \(error.localizedDescription)")
                failures += 1
                continue
            }
            if !exportOne(folder.appendingPathComponent(relative), to: output, options: options) { failures += 1 }
        }
        let peak = ProcessMemory.peakResidentBytes.map { ", peak memory \($0 >> 20) MiB" } ?? ""
        Terminal.printError("easel: \(documents.count - failures) of \(documents.count) documents exported to \(outputFolder.path)\(peak)")
        if failures > 0 { throw ExitCode.documentFailure }
    }
}
