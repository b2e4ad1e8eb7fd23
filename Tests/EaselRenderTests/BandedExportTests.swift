import Foundation
import Testing
import EaselGeometry
import EaselDocuments
import EaselCairo
@testable import EaselRender
import EaselTestSupport

/// A large PNG export draws and deflates band by band, each core with a band of memory of
/// its own: its file must be byte for byte the file of drawing the whole image in strips
/// and encoding it, on any number of cores; a band that turns out not opaque falls back to
/// the whole image; a failure mid-way neither hangs nor leaves a file.
@Suite("Exports drawn and encoded band by band")
struct BandedExportTests {
    /// The file of the whole image: `rasterize` in strips, then `PNGEncoder.encode`.
    static func wholeImageFile(_ scene: Scene, width: Int, height: Int, transform: Transform2D) throws -> [UInt8] {
        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height, canvasToOutput: transform)
        return try PNGEncoder.encode(image)
    }

    static func bandedFile(
        _ scene: Scene, width: Int, height: Int, transform: Transform2D, png: PNGEncodingOptions = .default,
        threads: Int? = nil
    ) throws -> [UInt8]? {
        let bytes = Locked<[UInt8]>([])
        let done = try CairoSceneRenderer.encodePNGInBands(
            scene, pixelWidth: width, pixelHeight: height, canvasToOutput: transform, imageFilter: .good, png: png,
            threads: threads
        ) { part in bytes.withLock { $0 += part } }
        return done ? bytes.withLock { $0 } : nil
    }

    @Test func theBytesOfTheWholeImageOnAnyNumberOfCores() throws {
        let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
        let folder = TemporaryFolder()
        let art = try StreamingExportTests.drawing(width: 1300, height: 2000, in: folder)
        let documents = [
            try DocumentRegistry.standard.open(samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard")),
            try DocumentRegistry.standard.open(samples.appendingPathComponent("Showcase.drawing")), art,
        ]
        for located in documents {
            let scene = try DocumentRenderer.scene(for: located)
            // Odd sizes too: a last band of a few rows, a width that is no multiple of 4.
            for scale in [1.0, 1.3, 0.977] {
                let width = Int(scene.canvasSize.width * scale), height = Int(scene.canvasSize.height * scale)
                guard width * height >= 1_500_000 else { continue }
                let transform = Transform2D.scale(
                    x: Double(width) / scene.canvasSize.width, y: Double(height) / scene.canvasSize.height)
                let expected = try Self.wholeImageFile(scene, width: width, height: height, transform: transform)
                for threads in [1, 2, 3] {
                    let banded = try Self.bandedFile(scene, width: width, height: height, transform: transform, threads: threads)
                    let same = banded == expected  // not in #expect: it would print megabytes
                    #expect(same, "\(located.url.lastPathComponent) at \(width)x\(height) on \(threads) cores")
                }
            }
        }
    }

    @Test func exportsTakeTheBandedPathAndWriteTheSameFile() throws {
        let folder = TemporaryFolder()
        let located = try StreamingExportTests.drawing(width: 1300, height: 2000, in: folder)
        let scene = try DocumentRenderer.scene(for: located)
        let expected = try Self.wholeImageFile(
            scene, width: 1300, height: 2000, transform: .scale(x: 1, y: 1))
        #expect(try Self.bandedFile(scene, width: 1300, height: 2000, transform: .scale(x: 1, y: 1)) != nil)
        let returned = try DocumentRenderer.export(located).bytes == expected
        #expect(returned, "export's bytes")
        let path = folder.file("out.png").path
        _ = try DocumentRenderer.export(located, writingTo: path)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected
        #expect(written, "the file's bytes")
    }

    /// What cannot be promised opaque is not drawn in bands: a canvas without a background,
    /// a translucent background, libpng's levels (they need the whole image); small images
    /// are drawn in one piece anyway.
    @Test func declinedWhenItCannotApply() throws {
        var square = Path()
        square.addRect(Rect(x: 0, y: 0, width: 1300, height: 2000))
        var star = Path()
        star.addRect(Rect(x: 100, y: 100, width: 300, height: 300))
        let identity = Transform2D.scale(x: 1, y: 1)
        let bare = Scene(canvasSize: Size(width: 1300, height: 2000), operations: [.fill(star, .black)])
        #expect(try Self.bandedFile(bare, width: 1300, height: 2000, transform: identity) == nil)
        let translucent = Scene(
            canvasSize: Size(width: 1300, height: 2000), operations: [.fill(square, Color(red: 1, green: 0, blue: 0, alpha: 0.5))]
        )
        #expect(try Self.bandedFile(translucent, width: 1300, height: 2000, transform: identity) == nil)
        let opaque = Scene(canvasSize: Size(width: 1300, height: 2000), operations: [.fill(square, .white), .fill(star, .black)])
        #expect(try Self.bandedFile(opaque, width: 1300, height: 2000, transform: identity) != nil)
        #expect(
            try Self.bandedFile(
                opaque, width: 1300, height: 2000, transform: identity, png: PNGEncodingOptions(compressionLevel: 6)) == nil)
        #expect(try Self.bandedFile(opaque, width: 600, height: 1000, transform: .scale(x: 600 / 1300, y: 0.5)) == nil)
        // RGBA asked for: drawn in bands whatever the background, to the whole image's bytes.
        let rgba = PNGEncodingOptions(colorMode: .rgba)
        let image = try CairoSceneRenderer.rasterize(bare, pixelWidth: 1300, pixelHeight: 2000)
        let same =
            try Self.bandedFile(bare, width: 1300, height: 2000, transform: identity, png: rgba)
            == PNGEncoder.encode(image, options: rgba)
        #expect(same, "RGBA in bands")
    }

    /// A first fill whose bounds cover the canvas but whose shape does not (a triangle): the
    /// bands find the transparent pixels, and the export starts again on the whole image,
    /// keeping alpha, with nothing of the abandoned attempt in the file or the folder.
    @Test func aBandThatIsNotOpaqueFallsBackToTheWholeImage() throws {
        var triangle = Path()
        triangle.move(to: Point(x: 0, y: 0))
        triangle.addLine(to: Point(x: 1300, y: 0))
        triangle.addLine(to: Point(x: 0, y: 2000))
        triangle.closeSubpath()
        var corner = Path()
        corner.addRect(Rect(x: 1200, y: 1900, width: 100, height: 100))
        let scene = Scene(
            canvasSize: Size(width: 1300, height: 2000), operations: [.fill(triangle, .white), .fill(corner, .black)])
        #expect(try Self.bandedFile(scene, width: 1300, height: 2000, transform: .scale(x: 1, y: 1)) == nil)
        let expected = try Self.wholeImageFile(scene, width: 1300, height: 2000, transform: .scale(x: 1, y: 1))
        #expect(expected[25] == 6, "RGBA: the image has transparent pixels")
        let returned = try DocumentRenderer.export(scene, options: RenderOptions()).bytes == expected
        #expect(returned, "export's bytes")
        let folder = TemporaryFolder()
        let path = folder.file("out.png").path
        _ = try DocumentRenderer.export(scene, options: RenderOptions(), writingTo: path)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected
        #expect(written, "the file's bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    /// A drawing that fails in a band (its deadline passed) throws the drawing's error on
    /// any number of cores, without hanging, and leaves no file.
    @Test func aFailingBandStopsTheOthers() throws {
        let folder = TemporaryFolder()
        let located = try StreamingExportTests.drawing(width: 1300, height: 2000, in: folder)
        var scene = try DocumentRenderer.scene(for: located)
        scene.deadline = 1
        for threads in [1, 2, 3] {
            #expect(throws: RenderError.self) {
                _ = try Self.bandedFile(scene, width: 1300, height: 2000, transform: .scale(x: 1, y: 1), threads: threads)
            }
        }
        let path = folder.file("out.png").path
        #expect(throws: RenderError.self) { _ = try DocumentRenderer.export(scene, options: RenderOptions(), writingTo: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["art.drawing", "photo.png"])
        // Folders asked for are made only once a rendering succeeded, banded or not.
        let nested = folder.file("a/b/out.png").path
        #expect(throws: RenderError.self) {
            _ = try DocumentRenderer.export(scene, options: RenderOptions(), writingTo: nested, creatingFolders: true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("a").path))
        scene.deadline = nil
        _ = try DocumentRenderer.export(scene, options: RenderOptions(), writingTo: nested, creatingFolders: true)
        let expected = try Self.wholeImageFile(scene, width: 1300, height: 2000, transform: .scale(x: 1, y: 1))
        let same = try [UInt8](Data(contentsOf: URL(fileURLWithPath: nested))) == expected
        #expect(same, "the file in the new folder")
    }
}
