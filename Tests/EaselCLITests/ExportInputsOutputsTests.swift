import Testing
import Foundation
import EaselCairo
import EaselTestSupport

/// `easel export` as rsvg-convert, inkscape and resvg users expect it: inputs, outputs,
/// formats, sizes, streams.
@Suite("easel export: inputs, outputs, formats, streams")
struct ExportInputsOutputsTests {
    @Test func anyMixOfDocumentsAndFoldersGoesIntoAFolder() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Album/sub"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "a.rwcard"])
        try s.ok(["new", "drawing", "b.drawing", "--size", "40x30"])
        try s.ok(["new", "drawing", "Album/sub/c.drawing", "--size", "20x10"])
        let mixed = try s.ok(["export", "a.rwcard", "b.drawing", "Album", "--out", "pngs"])
        #expect(mixed.stdout.contains("wrote pngs/Album/sub/c.png\n"), "paths as given: \(mixed.stdout)")
        for name in ["pngs/a.png", "pngs/b.png", "pngs/Album/sub/c.png"] {
            #expect(FileManager.default.fileExists(atPath: s.folder.file(name).path), "\(name)")
        }
        // One document into a folder: an existing one, or a path ending in /, made with its parents.
        try s.ok(["export", "b.drawing", "--out", "pngs"])
        #expect(try s.image("pngs/b.png").width == 40)
        try s.ok(["export", "b.drawing", "--out", "new/deep/"])
        #expect(try s.image("new/deep/b.png").width == 40)
        try s.ok(["export", "b.drawing", "--out", "made/for/it.png"])
        #expect(try s.image("made/for/it.png").height == 30, "parent folders are created")
    }

    @Test func theFormatFollowsTheExtensionAndAMismatchIsAUsageError() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x30"])
        try s.ok(["export", "d.drawing", "--out", "d.svg"])
        #expect(String(decoding: try s.bytes("d.svg"), as: UTF8.self).contains("<svg"))
        for arguments in [["--out", "p.jpg"], ["--out", "p.webp"], ["--out", "x.svg", "--format", "png"]] {
            let result = try s.run(["export", "d.drawing"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        for name in ["p.jpg", "p.webp", "x.svg"] {
            #expect(!FileManager.default.fileExists(atPath: s.folder.file(name).path), "nothing written under \(name)")
        }
        #expect(try s.run(["export", "d.drawing", "--out", "d.bin", "--format", "png"]).status == 0, "explicit is fine")
    }

    @Test func batchOnlyOptionsForOneDocumentAreRefusedNotIgnored() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x30"])
        for option in [["--thumbnails"], ["--report", "r.json"], ["--shard", "1/2"], ["--jobs", "2"]] {
            let result = try s.run(["export", "d.drawing", "--out", "d.png"] + option)
            #expect(result.status == 64 && result.stderr.contains(option[0]), "\(option): \(result.stderr)")
        }
        // Into a folder they are honoured.
        try s.ok(["export", "d.drawing", "--out", "out/", "--thumbnails", "--report", "r.json"])
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out/d.thumbnail.png").path))
        #expect(FileManager.default.fileExists(atPath: s.folder.file("r.json").path))
    }

    @Test func standardOutputAndStandardInput() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x30"])
        let shell = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" export d.drawing --out - > piped.png", s.easel.path],
            environment: s.environment, currentDirectory: s.folder.url)
        #expect(shell.status == 0, "\(shell.stderr)")
        #expect(try s.image("piped.png").width == 40)
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("-").path), "- is not a file name")
        // A card from standard input, its image from --base.
        try FileManager.default.createDirectory(at: s.folder.file("photos"), withIntermediateDirectories: true)
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
        #expect(try s.run(["export", "-", "d.drawing", "--out", "x/"]).status == 64)
        #expect(try s.run(["export", "d.drawing", "--out", "-", "--base", "photos"]).status == 64)
    }

    @Test func fitBackgroundDPIAndArea() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100"])
        try s.ok(["background", "d.drawing", "black"])
        try s.ok(["add", "d.drawing", "rect", "--at", "150,50", "--size", "40x20", "--fill", "red"])
        try s.ok(["export", "d.drawing", "--out", "contain.png", "--width", "100", "--height", "100"])
        let contain = try s.image("contain.png")
        #expect(
            contain.pixel(x: 50, y: 5).a == 0 && contain.pixel(x: 50, y: 50) == RGBA8(r: 0, g: 0, b: 0, a: 255), "letterboxed")
        try s.ok(["export", "d.drawing", "--out", "cover.png", "--width", "100", "--height", "100", "--fit", "cover"])
        #expect(try s.image("cover.png").pixel(x: 50, y: 2).a == 255, "filled")
        try s.ok(["export", "d.drawing", "--out", "stretch.png", "--width", "100", "--height", "100", "--fit", "stretch"])
        #expect(try s.image("stretch.png").pixel(x: 75, y: 50).r == 255, "the red rectangle, stretched to x 75")
        #expect(try s.run(["export", "d.drawing", "--out", "f.png", "--width", "100", "--fit", "cover"]).status == 64)
        try s.ok(["export", "d.drawing", "--out", "clear.png", "--background", "none"])
        #expect(try s.image("clear.png").pixel(x: 5, y: 5).a == 0)
        // The document is lowered early, with its own background, while the arguments are
        // parsed: another background, however written, is still the one drawn.
        try s.ok(["export", "d.drawing", "--out", "green.png", "--background=#00FF00"])
        #expect(try s.image("green.png").pixel(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        try s.ok(["export", "d.drawing", "--out", "own.png"])
        #expect(try s.image("own.png").pixel(x: 5, y: 5) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        try s.ok(["export", "d.drawing", "--out", "d.pdf", "--dpi", "144"])
        let pdf = String(decoding: try s.bytes("d.pdf"), as: UTF8.self)
        #expect(pdf.contains("MediaBox [ 0 0 100 50 ]"), "200x100 pixels at 144 dpi are 100x50 points")
        // A tiny dpi makes a page past what cairo can draw (it aborts the process there).
        for (out, extra) in [("tiny.svg", ["--dpi", "0.01"]), ("tiny.pdf", ["--dpi", "0.001"])] {
            let tiny = try s.run(["export", "d.drawing", "--out", out] + extra)
            #expect(tiny.status == 1, "\(out): \(tiny.status) \(tiny.stderr)")
            #expect(tiny.stderr.contains("over the limit of 1000000 points a side; give a larger dpi"), "\(tiny.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.folder.file(out).path))
        }
        try s.ok(["export", "d.drawing", "--out", "area.png", "--area", "0", "--scale", "2"])
        let area = try s.image("area.png")
        #expect(area.width == 80 && area.height == 40 && area.pixel(x: 40, y: 20).r == 255, "element 0's bounds")
        #expect(try s.run(["export", "d.drawing", "--out", "a.png", "--area", "7"]).status != 0)
    }

    @Test func nothingIsDrawnOutsideTheCanvasWhereTheOutputReachesPastIt() throws {
        // "Clip everything to the canvas": a shape half off the canvas shows only its half,
        // in a letterboxed box and in an area reaching past the canvas alike.
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "100x100"])
        try s.ok(["add", "d.drawing", "rect", "--at", "0,50", "--size", "40x40", "--fill", "red"])
        try s.ok(["export", "d.drawing", "--out", "contain.png", "--width", "200", "--height", "100"])
        let contain = try s.image("contain.png")  // the canvas is x 50 to 150
        #expect(contain.pixel(x: 40, y: 50).a == 0, "in the margin, nothing: \(contain.pixel(x: 40, y: 50))")
        #expect(contain.pixel(x: 60, y: 50) == RGBA8(r: 255, g: 0, b: 0, a: 255), "on the canvas, the shape")
        try s.ok(["export", "d.drawing", "--out", "area.png", "--area", "0"])
        let area = try s.image("area.png")  // the element's bounds: x -20 to 20 of the canvas
        #expect(area.width == 40 && area.pixel(x: 10, y: 20).a == 0, "left of the canvas, nothing")
        #expect(area.pixel(x: 30, y: 20) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        // Where the canvas fills the output, the pixels are as they always were (no clip is drawn).
        try s.ok(["export", "d.drawing", "--out", "whole.png"])
        #expect(try s.image("whole.png").pixel(x: 10, y: 50) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func eachLineAppearsAsItHappensInAPipe() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        for index in 0..<40 { try s.ok(["new", "drawing", "in/d\(index).drawing", "--size", "2000x2000"]) }
        let out = Pipe()
        let process = try s.launch(["export", "in", "--out", "out", "--jobs", "1"], standardOutput: out)
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        let stillRunning = process.isRunning
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("wrote "), "\(String(decoding: received, as: UTF8.self))")
        #expect(stillRunning, "the first line came while the run was still going")
    }

    @Test func jsonIsOneObjectPerDocumentThenTheTotals() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        try s.ok(["new", "drawing", "in/two\nlines.drawing", "--size", "20x20"])
        try s.folder.write("{", to: "in/broken.drawing")
        let result = try s.run(["export", "in", "--out", "out", "--json"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4, "\(result.stdout)")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.prefix(3).allSatisfy { $0["event"] as? String == "document" })
        #expect(objects.contains { ($0["input"] as? String)?.hasSuffix("two\nlines.drawing") == true }, "names stay intact")
        #expect(objects.contains { $0["status"] as? String == "failed" && $0["output"] == nil && $0["error"] != nil })
        let totals = try #require(objects.last)
        #expect(totals["event"] as? String == "totals" && totals["rendered"] as? Int == 2 && totals["failed"] as? Int == 1)
    }

    @Test func aCardTextsFontSizeIsRefusedWithTheReasonAndHelpShowsPlainDefaults() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        let refused = try s.run(["add", "c.rwcard", "text", "Hi", "--font-size", "30"])
        #expect(refused.status != 0 && refused.stderr.contains("shrunk to fit its frame"), "\(refused.stderr)")
        try s.ok(["add", "c.rwcard", "text", "Hi"])
        #expect(try s.run(["set", "c.rwcard", "0", "--font-size", "30"]).status != 0)
        let help = try s.run(["new", "drawing", "--help"])
        #expect(help.stdout.contains("(default: 800x600)") && !help.stdout.contains("SizeArgument"), "\(help.stdout)")
    }

    @Test func outputsAreStampedAndThumbnailsAreOutputsOfTheirOwn() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        for index in 0..<3 { try s.ok(["new", "drawing", "in/card\(index).drawing", "--size", "30x20"]) }
        try s.ok(["export", "in", "--out", "out"])
        func stamp(_ name: String) throws -> [FileAttributeKey: Any] {
            try FileManager.default.attributesOfItem(atPath: s.folder.file(name).path)
        }
        let before = try stamp("out/card1.png")[.systemFileNumber] as? Int
        // Asking for thumbnails makes only the thumbnails.
        let withThumbnails = try s.ok(["export", "in", "--out", "out", "--thumbnails"])
        #expect(withThumbnails.stderr.contains("rendered 3"), "\(withThumbnails.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out/card1.thumbnail.png").path))
        #expect(try stamp("out/card1.png")[.systemFileNumber] as? Int == before, "the main output was not written again")
        #expect(try s.ok(["export", "in", "--out", "out", "--thumbnails"]).stderr.contains("nothing to do"))
        #expect(try s.ok(["export", "in", "--out", "out"]).stderr.contains("nothing to do"), "and without them")
        // An output changed behind Easel's back is made again.
        try s.folder.write("garbage", to: "out/card1.png")
        let repaired = try s.ok(["export", "in", "--out", "out"])
        #expect(repaired.stderr.contains("rendered 1,"), "\(repaired.stderr)")
        #expect(try s.image("out/card1.png").width == 30)
        try FileManager.default.removeItem(at: s.folder.file("out/card2.thumbnail.png"))
        // card2's thumbnail is gone; card1's was not remade with its output just now: both.
        let thumbnails = try s.ok(["export", "in", "--out", "out", "--thumbnails"])
        #expect(thumbnails.stderr.contains("rendered 2,"), "\(thumbnails.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out/card2.thumbnail.png").path))
    }

    /// A drawing within every budget that still takes seconds to draw: 3,000 wide strokes of
    /// stars of 200 points (quick to read and lower, slow for cairo).
    static let slowDrawing: String = {
        let star =
            #"{"kind": "star", "points": 200, "innerRadiusRatio": 0.5, "transform": {"center": [400, 300], "size": [500, 500], "rotation": 0}, "stroke": {"color": [1, 0, 0, 1], "width": 10, "dash": [], "cap": "butt", "join": "miter"}, "opacity": 1}"#
        return
            #"{"format": "org.easel.drawing", "version": 1, "canvas": {"size": [800, 600], "background": [1, 1, 1, 1]}, "graphics": ["#
            + Array(repeating: star, count: 3000).joined(separator: ",") + "]}"
    }()

    @Test func aDocumentPastTheTimeoutFailsAndTheBatchGoesOn() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.folder.write(Self.slowDrawing, to: "in/slow.drawing")
        try s.ok(["new", "drawing", "in/quick.drawing", "--size", "30x20"])
        // One document: exit 1, the file and the reason named, nothing written.
        let started = Date()
        let single = try s.run(["export", "in/slow.drawing", "--out", "slow.png", "--timeout", "0.5"])
        #expect(Date().timeIntervalSince(started) < 10, "stopped at its deadline, not drawn to the end")
        #expect(single.status == 1)
        #expect(single.stderr.contains("in/slow.drawing: drawing took longer than the time allowed"), "\(single.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("slow.png").path))
        // A folder: the slow one fails, the other is written, and the report says which.
        let batch = try s.run(["export", "in", "--out", "out", "--timeout", "0.5", "--report", "report.json"])
        #expect(batch.status == 1)
        #expect(batch.stderr.contains("easel: error: in/slow.drawing: drawing took longer"), "\(batch.stderr)")
        #expect(try s.image("out/quick.png").width == 30)
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("out/slow.png").path))
        #expect(
            try String(contentsOf: s.folder.file("report.json"), encoding: .utf8).contains("took longer than the time allowed"))
        // A time that is no time is a usage error, whatever its sign.
        for bad in ["0", "-3", "nan", "inf", "1e9"] {
            let refused = try s.run(["export", "in/quick.drawing", "--out", "q.png", "--timeout", bad])
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
            #expect(refused.stderr.contains("--timeout must be a number of seconds"), "\(bad): \(refused.stderr)")
        }
        // Generous enough, it changes nothing.
        try s.ok(["export", "in/quick.drawing", "--out", "q.png", "--timeout", "60"])
        #expect(try s.image("q.png").width == 30)
    }

    @Test func outputPathsAreShownAsGivenWholeComponentsOnly() throws {
        // The output folder's name starts with the input folder's: the input's prefix must
        // not be replaced inside the output's path ("/tmp/x/in-out" given in full, with
        // "in" given for /tmp/x/in, used to be shown as "in-out"; "." for /tmp/x with
        // /tmp/x-out as ".-out").
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "30x20"])
        let relative = try s.ok(["export", "in", "--out", "in-out"])
        #expect(relative.stdout == "wrote in-out/a.png\n", "\(relative.stdout)")
        let mixed = try s.ok(["export", "in", "--out", s.folder.file("in-out2").path])
        #expect(mixed.stdout == "wrote \(s.folder.file("in-out2").path)/a.png\n", "\(mixed.stdout)")
        let sibling = s.folder.url.path + "-out"
        defer { try? FileManager.default.removeItem(atPath: sibling) }
        let dot = try s.ok(["export", ".", "--out", sibling, "--exclude", "in-out", "--exclude", "in-out2"])
        #expect(dot.stdout.contains("wrote \(sibling)/in/a.png\n"), "\(dot.stdout)")
    }
}
