import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// `easel export DOC --out FILE` is run without swift-argument-parser (`SingleExport.plain`):
/// whatever it writes and says must be what the parsed command line does. `--format` naming
/// the output's own format changes nothing in an export but sends it through the parser, so
/// each pair below is one export made both ways.
@Suite("easel export DOC --out FILE: the same with the parser or without")
struct PlainExportLineTests {
    static func scratch() throws -> CLIScratch {
        let s = CLIScratch()
        try s.drawing(
            "d.drawing", 40, 30,
            graphics: [
                Graphic(
                    kind: .ellipse, transform: GraphicTransform(center: Point(x: 20, y: 15), size: Size(width: 30, height: 20)),
                    fill: Color(red: 1, green: 0, blue: 0))
            ])
        return s
    }

    @Test(arguments: ["png", "svg", "pdf"])
    func eachFormatIsWrittenAlikeBothWays(format: String) throws {
        let s = try Self.scratch()
        for plain in [
            ["d.drawing", "--out", "a.\(format)"], ["-o", "b.\(format)", "d.drawing"], ["d.drawing", "--out=c.\(format)"],
        ] {
            let output = plain.first { $0.hasSuffix(".\(format)") }!.replacingOccurrences(of: "--out=", with: "")
            let fast = try s.run(["export"] + plain)
            let parsed = try s.run(
                ["export"] + plain.map { $0.replacingOccurrences(of: output, with: "p-\(output)") } + ["--format", format])
            #expect(fast.status == 0 && parsed.status == 0, "\(plain): \(fast.stderr) \(parsed.stderr)")
            #expect(fast.stdout == "wrote \(output) (40x30)\n", "\(fast.stdout)")
            #expect(parsed.stdout == "wrote p-\(output) (40x30)\n", "\(parsed.stdout)")
            #expect(fast.stderr == parsed.stderr)
            let (mine, theirs) = (try s.bytes(output), try s.bytes("p-\(output)"))
            if format == "pdf" {
                #expect(mine.count == theirs.count && mine.starts(with: Array("%PDF".utf8)))
            } else {
                #expect(mine == theirs, "\(plain): the same bytes")
            }
        }
    }

    @Test func theUsersSettingsApplyBothWays() throws {
        let s = try Self.scratch()
        _ = try s.ok(["config", "set", "scale", "2"])
        let fast = try s.run(["export", "d.drawing", "--out", "a.png"])
        let parsed = try s.run(["export", "d.drawing", "--out", "b.png", "--format", "png"])
        #expect(
            fast.stdout == "wrote a.png (80x60)\n" && parsed.stdout == "wrote b.png (80x60)\n", "\(fast.stdout)\(fast.stderr)")
        #expect(try s.bytes("a.png") == s.bytes("b.png"))
    }

    @Test func failuresSayTheSameBothWays() throws {
        let s = try Self.scratch()
        // A document that is not there, and one that is not a document at all.
        try s.folder.write("{", to: "broken.drawing")
        for document in ["missing.drawing", "broken.drawing"] {
            let fast = try s.run(["export", document, "--out", "a.png"])
            let parsed = try s.run(["export", document, "--out", "a.png", "--format", "png"])
            #expect(fast.status == 1 && parsed.status == 1, "\(document): \(fast.stderr)")
            #expect(fast.stderr == parsed.stderr && fast.stderr.contains(document), "\(fast.stderr) / \(parsed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.folder.file("a.png").path))
        }
    }

    @Test func anOutputThatIsAFolderIsStillAFolderExport() throws {
        let s = try Self.scratch()
        // A folder named like a PNG: the document is written inside it, as the parser decides.
        try FileManager.default.createDirectory(at: s.folder.file("out.png"), withIntermediateDirectories: true)
        let result = try s.run(["export", "d.drawing", "--out", "out.png"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out.png/d.png").path), "\(result.stdout)")
    }
}
