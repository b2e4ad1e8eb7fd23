import Testing
import Foundation
import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselTestSupport

/// `easel export --watch`: the tight loop for someone editing by hand.
@Suite("easel export --watch")
struct ExportWatchTests {
    /// Waits up to 10 s for `condition`.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    static func start(_ s: CLIScratch, _ arguments: [String]) throws -> (Process, Pipe) {
        let errors = Pipe()
        return (try s.launch(arguments, standardError: errors), errors)
    }

    @Test func aDocumentAndItsImageAreExportedAgainAsTheyChange() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x20"])
        try s.folder.write(try PNGEncoder.encode(try RasterImage(width: 4, height: 4)), to: "photo.png")
        try s.ok(["add", "d.drawing", "image", "photo.png", "--at", "20,10", "--size", "40x20"])
        let (process, errors) = try Self.start(s, ["export", "d.drawing", "--out", "d.png", "--watch"])
        defer { if process.isRunning { process.terminate() } }
        #expect(Self.eventually { (try? s.image("d.png")) != nil })
        Thread.sleep(forTimeInterval: 0.5)
        try s.ok(["background", "d.drawing", "red"])
        #expect(Self.eventually { (try? s.image("d.png"))?.pixel(x: 0, y: 0).r == 255 }, "the document changed")
        // The image changes: a solid blue 4x4 PNG.
        let blue = try RasterImage(width: 4, height: 4)
        blue.withUnsafeMutablePixels { pixels in
            for i in 0..<16 { pixels.storeBytes(of: 0xFF00_00FF as UInt32, toByteOffset: i * 4, as: UInt32.self) }
        }
        try s.folder.write(try PNGEncoder.encode(blue), to: "photo.png")
        #expect(Self.eventually { (try? s.image("d.png"))?.pixel(x: 20, y: 10).b == 255 }, "its image changed")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && log.contains("stopped watching"), "\(log)")
    }

    /// The first export of a watch takes what was opened (and lowered) while the arguments
    /// were parsed; later ones open anew. A first export that used only the document (another
    /// background) or failed on it (an invalid document) must not leave the next one waiting
    /// for an opening that never comes.
    @Test(arguments: [["--background", "blue"], []])
    func laterExportsOpenTheDocumentAnew(extra: [String]) throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x20"])
        let valid = try s.bytes("d.drawing")
        if extra.isEmpty { try s.folder.write("{ not json", to: "d.drawing") }
        let (process, errors) = try Self.start(s, ["export", "d.drawing", "--out", "d.png", "--watch"] + extra)
        defer { if process.isRunning { process.terminate() } }
        if extra.isEmpty {
            Thread.sleep(forTimeInterval: 1)
            try s.folder.write(valid, to: "d.drawing")
        } else {
            #expect(Self.eventually { (try? s.image("d.png"))?.pixel(x: 0, y: 0).b == 255 })
            Thread.sleep(forTimeInterval: 0.5)
        }
        try s.ok(["add", "d.drawing", "rect", "--at", "20,10", "--size", "40x20", "--fill", "red"])
        #expect(Self.eventually { (try? s.image("d.png"))?.pixel(x: 20, y: 10).r == 255 }, "exported again")
        kill(process.processIdentifier, SIGINT)
        // A watch stuck waiting never honours the signal: killed, and a failure, not a hang.
        let stopped = Self.eventually { !process.isRunning }
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(stopped, "the watch stopped on SIGINT")
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("stopped watching"), "\(log)")
    }

    @Test func aFolderWatchExportsNewAndChangedDocuments() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("in/sub"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "in/a.drawing", "--size", "20x20"])
        let (process, errors) = try Self.start(s, ["export", "in", "--out", "out", "--watch"])
        defer { if process.isRunning { process.terminate() } }
        #expect(Self.eventually { FileManager.default.fileExists(atPath: s.folder.file("out/a.png").path) })
        Thread.sleep(forTimeInterval: 0.5)
        try FileManager.default.createDirectory(at: s.folder.file("in/sub/deeper"), withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.3)
        try s.ok(["new", "drawing", "in/sub/deeper/b.drawing", "--size", "20x20"])
        #expect(
            Self.eventually { FileManager.default.fileExists(atPath: s.folder.file("out/sub/deeper/b.png").path) },
            "a document in a folder made after the watch began")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("stopped watching"), "\(log)")
        #expect(try s.run(["export", "-", "--out", "x.png", "--watch"]).status == 64)
    }
}

/// A single export stopped by a signal leaves the folder as it found it: no temporary file,
/// the earlier output unchanged, the signal's exit status.
@Suite("An interrupted export")
struct InterruptedExportTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func leavesNoTemporaryFileAndTheOutputAsItWas(signal: Int32) throws {
        let s = CLIScratch()
        // Thousands of stroked shapes at a large scale: seconds of drawing, band by band,
        // into a temporary file beside the output.
        var graphics: [Graphic] = []
        for i in 0..<3000 {
            graphics.append(
                Graphic(
                    kind: i % 2 == 0 ? .ellipse : .star(points: 5, innerRadiusRatio: 0.5),
                    transform: GraphicTransform(
                        center: Point(x: Double(i * 37 % 600), y: Double(i * 61 % 400)), size: Size(width: 90, height: 70)),
                    fill: Color(red: Double(i % 5) / 5, green: 0.4, blue: 0.7), stroke: Stroke(color: .black, width: 3)))
        }
        let drawing = Drawing(canvasSize: Size(width: 600, height: 400), background: .white, graphics: graphics)
        try s.folder.write(DrawingEncoder.encode(drawing), to: "d.drawing")
        // An earlier output of Easel's, which the export may replace.
        try s.ok(["export", "d.drawing", "--out", "d.png", "--scale", "0.1"])
        let earlier = try s.bytes("d.png")
        func temporaryFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: s.folder.path).filter { $0.hasPrefix(".easel-") }
        }
        // Large enough to take seconds: drawn band by band into a temporary file.
        let (process, errors) = try ExportWatchTests.start(s, ["export", "d.drawing", "--out", "d.png", "--scale", "12"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let started = try ExportWatchTests.eventually { try !temporaryFiles().isEmpty || !process.isRunning }
        #expect(started && process.isRunning, "the export was still drawing into its temporary file")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 128 + signal, "\(process.terminationStatus) \(log)")
        let said = signal == SIGINT ? "easel: interrupted; nothing was written" : "easel: terminated; nothing was written"
        #expect(log.contains(said), "\(log)")
        #expect(try temporaryFiles().isEmpty, "no temporary file left")
        #expect(try s.bytes("d.png") == earlier, "the earlier output as it was")
    }
}
