import Foundation
import Testing
import EaselTestSupport

/// HarfBuzz, FriBidi, libjpeg-turbo, libwebp and libedit are opened when a document or a
/// command first needs them, not at every start (CEaselOnDemand): a process that needs none
/// never loads them, and one that cannot load what it needs says which library and how to
/// install it, where it used to not start at all.
@Suite("Libraries opened when first needed")
struct OnDemandLibraryTests {
    static let images = ProcessRunner.packageRoot.appendingPathComponent("Tests/EaselRenderTests/Images")

    /// A scratch folder holding a drawing of shapes only, one with a text, and one with a JPEG.
    static func scratch() throws -> CLIScratch {
        let s = CLIScratch()
        func drawing(_ graphic: String) -> [UInt8] {
            Array(
                """
                {"format": "org.easel.drawing", "version": 1, "canvas": {"size": [200, 100], "background": [1, 1, 1, 1]},
                 "graphics": [\(graphic)]}
                """.utf8)
        }
        let transform = #""transform": {"center": [100, 50], "size": [180, 60]}"#
        try s.folder.write(
            drawing(#"{"kind": "star", "points": 5, "fill": [1, 0.5, 0, 1], \#(transform)}"#), to: "shapes.drawing")
        try s.folder.write(drawing(#"{"kind": "text", "text": "Hello", \#(transform)}"#), to: "text.drawing")
        try s.folder.write(Array(try Data(contentsOf: images.appendingPathComponent("orientation-1.jpg"))), to: "photo.jpg")
        try s.folder.write(drawing(#"{"kind": "image", "file": "photo.jpg", \#(transform)}"#), to: "photo.drawing")
        return s
    }

    /// The libraries the dynamic loader opened while `easel arguments` ran (`LD_DEBUG=files`).
    static func librariesLoaded(by s: CLIScratch, _ arguments: [String]) throws -> Set<String> {
        var environment = s.environment
        environment["LD_DEBUG"] = "files"
        let result = try ProcessRunner.run(s.easel, arguments, environment: environment, currentDirectory: s.folder.url)
        #expect(result.status == 0, "easel \(arguments.joined(separator: " ")): \(result.stderr.suffix(2000))")
        let files = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=")?.upperBound, let end = line[start...].firstIndex(of: " ") else {
                return nil
            }
            return String(line[start..<end])
        }
        return Set(files)
    }

    @Test func aDocumentLoadsOnlyTheLibrariesItNeeds() throws {
        let s = try Self.scratch()
        let onDemand = ["libharfbuzz.so.0", "libfribidi.so.0", "libjpeg.so.62", "libwebp.so.7", "libedit.so.2"]
        let shapes = try Self.librariesLoaded(by: s, ["export", "shapes.drawing", "--out", "shapes.png"])
        #expect(shapes.contains("libcairo.so.2"), "the listing works: \(shapes.sorted())")
        #expect(shapes.isDisjoint(with: onDemand), "shapes only: \(shapes.sorted())")
        let text = try Self.librariesLoaded(by: s, ["export", "text.drawing", "--out", "text.png"])
        #expect(text.isSuperset(of: ["libharfbuzz.so.0", "libfribidi.so.0"]), "\(text.sorted())")
        #expect(!text.contains("libjpeg.so.62") && !text.contains("libedit.so.2"), "\(text.sorted())")
        let photo = try Self.librariesLoaded(by: s, ["export", "photo.drawing", "--out", "photo.png"])
        #expect(photo.contains("libjpeg.so.62") && !photo.contains("libharfbuzz.so.0"), "\(photo.sorted())")
        let version = try Self.librariesLoaded(by: s, ["--version"])
        #expect(version.isDisjoint(with: onDemand), "\(version.sorted())")
    }

    /// A library that cannot be loaded (here: a file of that name that is no library, found
    /// first through `LD_LIBRARY_PATH`) fails only what needs it, naming it and its package.
    @Test func aLibraryThatCannotBeLoadedFailsOnlyWhatNeedsItAndSaysSo() throws {
        let s = try Self.scratch()
        let broken = TemporaryFolder("easel-broken-libraries")
        for file in ["libharfbuzz.so.0", "libjpeg.so.62"] { try broken.write(Array("not a library".utf8), to: file) }
        var environment = s.environment
        environment["LD_LIBRARY_PATH"] = broken.path
        func run(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run(s.easel, arguments, environment: environment, currentDirectory: s.folder.url)
        }

        let shapes = try run(["export", "shapes.drawing", "--out", "shapes.png"])
        #expect(shapes.status == 0, "a drawing without text or photos needs neither: \(shapes.stderr)")
        // As with a missing font file: the text is left out, with a warning that says why.
        let text = try run(["export", "text.drawing", "--out", "text.png"])
        #expect(
            text.stderr.contains("warning: text.drawing: graphics[0]: the text is not drawn: text needs HarfBuzz and FriBidi"),
            "\(text.stderr)")
        #expect(
            text.stderr.contains("libharfbuzz.so.0") && text.stderr.contains("apt-get install libharfbuzz0b"), "\(text.stderr)")
        let photo = try run(["export", "photo.drawing", "--out", "photo.png"])
        #expect(photo.stderr.contains("libjpeg-turbo cannot be loaded"), "\(photo.stderr)")
        #expect(
            photo.stderr.contains("libjpeg.so.62") && photo.stderr.contains("apt-get install libjpeg62-turbo"),
            "\(photo.stderr)")
        let doctor = try run(["doctor"])
        #expect(doctor.status == 1, "\(doctor.stdout) \(doctor.stderr)")
        #expect(!doctor.stdout.contains("ok      HarfBuzz"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("HarfBuzz") && doctor.stdout.contains("libjpeg.so.62"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("ok      FriBidi") && doctor.stdout.contains("ok      libwebp"), "\(doctor.stdout)")
    }
}
