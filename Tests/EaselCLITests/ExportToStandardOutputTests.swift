import EaselCairo
import EaselTestSupport
import Foundation
import Testing

/// `easel export a.drawing > a.png`, as rsvg-convert users type it: with no --out, one
/// document goes to standard output when that is not a terminal; on a terminal, or for
/// several documents, a usage error says what to give.
@Suite("Export without --out")
struct ExportToStandardOutputTests {
    @Test func oneDocumentGoesToAPipeAsTheFileWouldHoldIt() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "120x80", "--background", "gold"])
        try s.ok(["add", "d.drawing", "star", "--fill", "navy"])
        try s.ok(["export", "d.drawing", "--out", "file.png"])
        // Read as bytes: PNG is no text.
        let raw = try Self.rawStandardOutput(s, ["export", "d.drawing"])
        #expect(raw == (try s.bytes("file.png")), "the bytes --out file.png writes")
        #expect(try Self.rawStandardOutput(s, ["export", "d.drawing", "--out", "-"]) == (try s.bytes("file.png")))
        let svg = try s.run(["export", "d.drawing", "--format", "svg"])
        #expect(svg.status == 0 && svg.stdout.hasPrefix("<?xml"), "\(svg.stderr)")
    }

    @Test func aDocumentFromStandardInputTakesItsImagesFromBase() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing", 40, 30)
        let shell = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" export d.drawing --out - > piped.png", s.easel.path],
            environment: s.environment, currentDirectory: s.folder.url)
        #expect(shell.status == 0, "\(shell.stderr)")
        #expect(try s.image("piped.png").width == 40)
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("-").path), "- is not a file name")
        try s.folder.write(try PNGEncoder.encode(try RasterImage(width: 8, height: 8)), to: "photos/IMG")
        let card = """
            {"id":"00000000-0000-4000-8000-000000000001","backgroundColor":[1,1,1,1],"textElements":[],
             "imageElements":[{"transform":{"size":[400,400],"rotation":{"degrees":0},"offset":[0,0]},"imageFilename":"IMG"}]}
            """
        let fromStdin = try s.run(["export", "-", "--base", "photos", "--out", "card.png"], stdin: card)
        #expect(fromStdin.status == 0 && !fromStdin.stderr.contains("warning"), "\(fromStdin.stderr)")
        #expect(try s.image("card.png").width == 1300)
        let svg = try s.run(["export", "-", "--out", "-", "--format", "svg"], stdin: card)
        #expect(svg.stdout.hasPrefix("<?xml") && svg.stderr.contains("image file \"IMG\" is missing"), "no --base: \(svg.stderr)")
    }

    @Test func onATerminalItSaysToGiveOutOrRedirect() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "20x20"])
        guard let terminal = try s.onTerminal(["export", "d.drawing"]) else { return }
        let (status, shown) = (terminal.status, terminal.stdout)
        #expect(status == 64, "\(shown)")
        #expect(shown.contains("easel: error: give --out FILE (or -o), or redirect standard output"), "\(shown)")
        #expect(shown.contains("easel export d.drawing > d.png"), "the redirect to type: \(shown)")
        #expect(!shown.contains("\u{89}PNG"), "no image bytes on the terminal")
    }

    @Test func severalDocumentsOrAFolderNeedOut() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "20x20"])
        try s.ok(["new", "drawing", "Docs/b.drawing", "--size", "20x20"])
        for inputs in [["Docs"], ["Docs/a.drawing", "Docs/b.drawing"]] {
            let result = try s.run(["export"] + inputs)
            #expect(result.status == 64, "\(inputs): \(result.stderr)")
            #expect(result.stderr.hasPrefix("easel: error: ") && result.stderr.contains("--out"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// Standard output of `easel ARGUMENTS` as bytes.
    static func rawStandardOutput(_ s: CLIScratch, _ arguments: [String]) throws -> [UInt8] {
        let out = Pipe()
        let process = try s.launch(arguments, standardOutput: out)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "easel \(arguments.joined(separator: " "))")
        return Array(data)
    }
}
