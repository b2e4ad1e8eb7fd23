import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselTestSupport

@Suite("Cairo wrapper")
struct CairoWrapperTests {
    @Test func aHugeSurfaceThrowsInsteadOfCrashing() {
        #expect { try RasterImage(width: 100_000, height: 100_000) } throws: { error in
            guard case RenderError.tooLarge(100_000, 100_000, _) = error else { return false }
            return true
        }
        #expect(throws: RenderError.self) { try RasterImage(width: 0, height: 10) }
        #expect(throws: RenderError.self) { try RasterImage(width: 20_000, height: 20_000) }
    }

    @Test func writingIntoAMissingFolderThrows() throws {
        let image = try RasterImage(width: 10, height: 10)
        let missing = "/nonexistent-easel-folder/sub/out.png"
        #expect { try image.writePNG(to: missing) } throws: { error in
            guard case RenderError.io(let path, let message) = error else { return false }
            return path == missing && message.contains("No such file or directory")
        }
        #expect(throws: RenderError.self) { try image.writePNGWithCairo(to: missing) }
    }

    @Test func aFailedWriteLeavesTheOldFileIntact() throws {
        let folder = TemporaryFolder()
        let target = try folder.write("original", to: "out.png")
        // A folder where the temporary file would go cannot be written: make it read-only.
        let image = try RasterImage(width: 10, height: 10)
        chmod(folder.path, 0o500)
        defer { chmod(folder.path, 0o700) }
        if getuid() != 0 { // root ignores permissions; the check only means something for others
            #expect(throws: RenderError.self) { try image.writePNG(to: target.path) }
        }
        chmod(folder.path, 0o700)
        #expect(try String(contentsOf: target, encoding: .utf8) == "original")
        try image.writePNG(to: target.path)
        #expect(try PNGDecoder.decode(Array(Data(contentsOf: target))).width == 10)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    @Test func aContextReportsCairoErrorsAsTypedErrors() throws {
        let image = try RasterImage(width: 10, height: 10)
        let context = try CairoContext(image: image)
        // A singular matrix puts cairo into CAIRO_STATUS_INVALID_MATRIX.
        #expect { try context.concatenate(.scale(x: 0, y: 0)) } throws: { error in
            guard case RenderError.cairo(_, let status) = error else { return false }
            return status.contains("matrix")
        }
    }

    @Test func restoreWithoutSaveIsAnError() throws {
        let context = try CairoContext(image: try RasterImage(width: 4, height: 4))
        #expect(throws: RenderError.self) { try context.restore() }
    }
}
