import Testing
import Foundation
@testable import EaselRender
import EaselCairo
import EaselTestSupport

/// Runs the built `easel` binary as a subprocess, as users and scripts do.
@Suite("easel export")
struct ExportCommandTests {
    let easel = ProcessRunner.easelExecutable
    let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")

    @Test func exportsEverySampleCardAndPrintsEachFileWritten() throws {
        let out = TemporaryFolder()
        let result = try ProcessRunner.run(easel, ["export", samples.path, "--out", out.path, "--scale", "0.2", "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = result.stdout.split(separator: "\n").filter { $0.hasPrefix("wrote ") }
        #expect(written.count == 5, "four cards and the showcase drawing")
        let card = out.file("1A2B3C4D-0000-4000-8000-000000000002.png")
        #expect(result.stdout.contains(card.path))
        let image = try PNGDecoder.decode(Array(try Data(contentsOf: card)))
        #expect(image.width == 260 && image.height == 400)
        // The shapes card's background is the app's random6 (0.034, 0.688, 0.700), which
        // cairo stores through 16 bits as (8, 176, 179).
        #expect(image.pixel(x: 0, y: 0) == RGBA8(r: 8, g: 176, b: 179, a: 255))
        // The legacy card was upgraded, and its missing image was reported, on stderr.
        #expect(result.stderr.contains("legacy card"))
        #expect(result.stderr.contains("0BADF00D-0000-4000-8000-000000000000\" is missing"))
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
        // EASEL_TIMINGS=1 says where the time went, stage by stage.
        environment["EASEL_TIMINGS"] = "1"
        let timed = try ProcessRunner.run(
            easel, ["export", samples.appendingPathComponent(names[0]).path, "--out", out.file("t.png").path],
            environment: environment)
        for stage in ["arguments", "read", "check output", "lower", "rasterise", "encode", "write", "in all"] {
            #expect(timed.stderr.contains(stage), "\(stage): \(timed.stderr)")
        }
    }

    @Test func exportsOneCardAtAScale() throws {
        let out = TemporaryFolder()
        let target = out.file("card.png")
        let result = try ProcessRunner.run(
            easel,
            [
                "export", samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard").path,
                "--out", target.path, "--scale", "0.5",
            ])
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

    @Test func aBadScaleIsAUsageError() throws {
        let result = try ProcessRunner.run(easel, ["export", samples.path, "--out", "/tmp/never", "--scale=0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--scale must be a positive number"))
    }

    @Test func aNegativeNumberAfterASpaceGetsTheValuesMessageNotMissingValue() throws {
        let expected = [
            "--scale": "--scale must be a positive number", "--width": "--width must be a positive number of pixels",
            "--height": "--height must be a positive number of pixels", "--dpi": "--dpi must be more than 0",
        ]
        for (option, message) in expected {
            let result = try ProcessRunner.run(easel, ["export", samples.path, "--out", "/tmp/never", option, "-1"])
            #expect(result.status == 64, "\(option)")
            #expect(result.stderr.contains(message), "\(option): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(option)")
        }
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
}
