import Testing
import Foundation
import EaselDocuments
import EaselGeometry
import EaselRender
import EaselCairo
import EaselTestSupport

/// `easel export` of one document, as users and scripts run it: what it prints on which
/// stream, its exit status, and that a failure names the file and leaves the output as it
/// was. (What the export draws and which outputs it may replace are tested in process, in
/// EaselRenderTests and EaselBatchTests.)
@Suite("easel export: what an export writes and says")
struct ExportCommandTests {
    let easel = ProcessRunner.easelExecutable
    let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")

    @Test func eachFileWrittenIsALineAndWarningsGoToStandardError() throws {
        let out = TemporaryFolder()
        let result = try ProcessRunner.run(easel, ["export", samples.path, "--out", out.path, "--scale", "0.2", "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = result.stdout.split(separator: "\n").filter { $0.hasPrefix("wrote ") }
        #expect(written.count == 5, "four cards and the showcase drawing")
        #expect(result.stdout.contains(out.file("1A2B3C4D-0000-4000-8000-000000000002.png").path))
        // The legacy card was upgraded, and its missing image was reported, on stderr.
        #expect(result.stderr.contains("legacy card"))
        #expect(result.stderr.contains("0BADF00D-0000-4000-8000-000000000000\" is missing"))
    }

    @Test func oneDocumentSaysWhatItWroteAndItsSize() throws {
        let out = TemporaryFolder()
        let target = out.file("card.png")
        let card = samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard").path
        let result = try ProcessRunner.run(easel, ["export", card, "--out", target.path, "--scale", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote \(target.path) (650x1000)\n")
        let image = try PNGDecoder.decode(Array(try Data(contentsOf: target)))
        #expect(image.width == 650 && image.height == 1000)
    }

    @Test func aMissingInputFailsWithOneClearLine() throws {
        let result = try ProcessRunner.run(easel, ["export", "/nonexistent/card.rwcard", "--out", "/tmp/x.png"])
        #expect(result.status == 1)
        #expect(result.stderr == "easel: error: /nonexistent/card.rwcard: no such file or folder\n")
    }

    @Test func anInputThatIsNeitherADocumentNorAFolderIsRefusedAndNothingIsMade() throws {
        let folder = TemporaryFolder()
        let card = try Data(contentsOf: samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard"))
        try card.write(to: folder.file("card.rwcrad"))  // a typo in the extension
        try Data("notes".utf8).write(to: folder.file("notes.txt"))
        for (input, ext) in [("card.rwcrad", "rwcrad"), ("notes.txt", "txt")] {
            for out in ["d.png", "-", "out/"] {
                let result = try ProcessRunner.run(
                    easel, ["export", folder.file(input).path, "--out", out == "-" ? "-" : folder.file(out).path])
                #expect(result.status == 1, "\(input) → \(out): \(result.stderr)")
                #expect(result.stderr.contains("\(folder.file(input).path)"), "\(result.stderr)")
                #expect(result.stderr.contains(".\(ext)") && result.stderr.contains("rwcard"), "\(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["card.rwcrad", "notes.txt"],
            "no output file or folder was made")
    }

    @Test func aCorruptCardNamesTheFileAndTheKeyPath() throws {
        let folder = TemporaryFolder()
        let card = try folder.write(
            """
            {"id": "1A2B3C4D-0000-4000-8000-000000000009", "backgroundColor": [1, 1, 1, 1], "textElements": [],
             "imageElements": [{"transform": {"size": "big", "rotation": {"degrees": 0}, "offset": [0, 0]}}]}
            """, to: "bad.rwcard")
        let result = try ProcessRunner.run(easel, ["export", card.path, "--out", folder.file("bad.png").path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(card.path): imageElements[0].transform.size: expected an array of 2 numbers (width, height), found the string \"big\""
            ))
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad.png").path))
    }

    @Test func anOutputThatMayNotBeReplacedFailsSayingWhyAndStaysAsItWas() throws {
        let s = CLIScratch()
        try s.drawing("a.drawing", 40, 30)
        try s.folder.write("my notes", to: "notes.png")
        let before = try s.bytes("a.drawing")
        let own = try s.run(["export", "a.drawing", "--out", "a.drawing", "--format", "png"])
        #expect(own.status == 1)
        #expect(
            own.stderr.hasPrefix("easel: error: ")
                && own.stderr.contains("would replace an existing file, and it is a document or a file a document uses"),
            "\(own.stderr)")
        #expect(try s.bytes("a.drawing") == before)
        let notes = try s.run(["export", "a.drawing", "--out", "notes.png"])
        #expect(notes.status == 1 && notes.stderr.contains("it is not an earlier PNG output of Easel"), "\(notes.stderr)")
        #expect(try String(contentsOf: s.folder.file("notes.png"), encoding: .utf8) == "my notes")
    }

    @Test func aFailedWriteLeavesThePreviousPNGIntact() throws {
        let out = TemporaryFolder()
        let target = try out.write("previous export", to: "card.png")
        // A 1-block file-size limit makes the write fail (EFBIG) even for root; SIGXFSZ is
        // ignored by the shell, and ignored signals stay ignored across exec.
        let card = samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard").path
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" export \"$1\" --out \"$2\"", easel.path, card, target.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(target.path))
        #expect(try String(contentsOf: target, encoding: .utf8) == "previous export")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["card.png"], "no temporary file is left behind")
    }

    @Test func aDocumentPastTheTimeoutFailsAtItsDeadlineNamingIt() throws {
        let s = CLIScratch()
        try s.folder.write(Self.slowDrawing, to: "in/slow.drawing")
        let started = Date()
        let single = try s.run(["export", "in/slow.drawing", "--out", "slow.png", "--timeout", "0.5"])
        #expect(Date().timeIntervalSince(started) < 10, "stopped at its deadline, not drawn to the end")
        #expect(single.status == 1)
        #expect(single.stderr.contains("in/slow.drawing: drawing took longer than the time allowed"), "\(single.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("slow.png").path))
    }

    static let slowDrawing = SlowDrawing.json

    /// `--area N` is element N's bounds, as `easel info` lists them (the CLI finds them).
    @Test func anElementsAreaIsExported() throws {
        let s = CLIScratch()
        try s.drawing(
            "d.drawing", 200, 100, background: .black,
            graphics: [
                Graphic(
                    kind: .rectangle,
                    transform: GraphicTransform(center: Point(x: 150, y: 50), size: Size(width: 40, height: 20)),
                    fill: Color(red: 1, green: 0, blue: 0))
            ])
        try s.ok(["export", "d.drawing", "--out", "area.png", "--area", "0", "--scale", "2"])
        let area = try s.image("area.png")
        #expect(area.width == 80 && area.height == 40 && area.pixel(x: 40, y: 20).r == 255, "element 0's bounds")
        let none = try s.run(["export", "d.drawing", "--out", "a.png", "--area", "7"])
        #expect(none.status == 64 && none.stderr.contains("has 1 element, numbered 0 to 0"), "\(none.stderr)")
    }

    /// A single export opens its document while the arguments are parsed (on two cores or
    /// more): whatever the order of the arguments, the file and the messages must be those of
    /// an export that opens it afterwards (`EASEL_THREADS=1` never opens early).
    @Test func openingTheDocumentEarlyChangesNothing() throws {
        let out = TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["EASEL_THREADS"] = "1"
        let names = (try FileManager.default.contentsOfDirectory(atPath: samples.path)).filter {
            $0.hasSuffix(".rwcard") || $0.hasSuffix(".drawing")
        }
        #expect(names.count == 5)
        for name in names {
            let document = samples.appendingPathComponent(name).path
            let late = try ProcessRunner.run(
                easel, ["export", document, "--out", out.file("late.png").path], environment: environment)
            let early = try ProcessRunner.run(easel, ["export", document, "--out", out.file("early.png").path])
            let reordered = try ProcessRunner.run(easel, ["export", "--out", out.file("reordered.png").path, document])
            #expect(late.status == 0 && early.status == 0 && reordered.status == 0, "\(name): \(early.stderr)")
            let expected = try Data(contentsOf: out.file("late.png"))
            for other in ["early.png", "reordered.png"] {
                let got = try Data(contentsOf: out.file(other))
                if got != expected {
                    // Said plainly: whether the pixels differ or only the compressed bytes.
                    let a = try PNGDecoder.decode(Array(got)), b = try PNGDecoder.decode(Array(expected))
                    var differing = 0
                    for y in 0..<a.height {
                        for x in 0..<a.width where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) {
                            differing += 1
                        }
                    }
                    let offset = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
                    Issue.record(
                        "\(name) \(other): \(got.count) vs \(expected.count) bytes, first differing byte \(offset), \(differing) pixels differ"
                    )
                }
            }
            #expect(early.stderr == late.stderr && reordered.stderr == late.stderr, "\(name): \(early.stderr)")
        }
        // A document that is not there: the same one line either way.
        let missing = try ProcessRunner.run(easel, ["export", "nowhere.rwcard", "--out", out.file("x.png").path])
        let missingLate = try ProcessRunner.run(
            easel, ["export", "nowhere.rwcard", "--out", out.file("x.png").path], environment: environment)
        #expect(missing.status == 1 && missing.stderr == missingLate.stderr, "\(missing.stderr)")
        // Another background, however written, is still the one drawn, though the document
        // was lowered early with its own.
        let s = CLIScratch()
        try s.drawing("d.drawing", background: .black)
        try s.ok(["export", "d.drawing", "--out", "green.png", "--background=#00FF00"])
        #expect(try s.image("green.png").pixel(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        try s.ok(["export", "d.drawing", "--out", "own.png"])
        #expect(try s.image("own.png").pixel(x: 5, y: 5) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        // EASEL_TIMINGS=1 says where the time went, stage by stage.
        environment["EASEL_TIMINGS"] = "1"
        let timed = try ProcessRunner.run(
            easel, ["export", samples.appendingPathComponent(names[0]).path, "--out", out.file("t.png").path],
            environment: environment)
        for stage in ["arguments", "read", "check output", "lower", "rasterise", "encode", "write", "in all"] {
            #expect(timed.stderr.contains(stage), "\(stage): \(timed.stderr)")
        }
    }
}
