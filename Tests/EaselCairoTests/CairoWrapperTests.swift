import Testing
import Foundation
import EaselGeometry
import EaselCairo
import EaselTestSupport

@Suite("Cairo wrapper")
struct CairoWrapperTests {
    @Test func aHugeSurfaceThrowsInsteadOfCrashing() {
        #expect { try RasterImage(width: 100_000, height: 100_000) } throws: { error in
            guard case CairoError.tooLarge(100_000, 100_000, _) = error else { return false }
            return true
        }
        #expect(throws: CairoError.self) { try RasterImage(width: 0, height: 10) }
        #expect(throws: CairoError.self) { try RasterImage(width: 20_000, height: 20_000) }
    }

    @Test func cairosOwnWriterReportsAMissingFolder() throws {
        let image = try RasterImage(width: 10, height: 10)
        #expect(throws: CairoError.self) { try image.writePNGWithCairo(to: "/nonexistent-easel-folder/sub/out.png") }
    }

    @Test func aContextReportsCairoErrorsAsTypedErrors() throws {
        let image = try RasterImage(width: 10, height: 10)
        let context = try CairoContext(image: image)
        // A singular matrix puts cairo into CAIRO_STATUS_INVALID_MATRIX.
        #expect { try context.concatenate(.scale(x: 0, y: 0)) } throws: { error in
            guard case CairoError.failed(_, let status) = error else { return false }
            return status.contains("matrix")
        }
    }

    @Test func restoreWithoutSaveIsAnError() throws {
        let context = try CairoContext(image: try RasterImage(width: 4, height: 4))
        #expect(throws: CairoError.self) { try context.restore() }
    }
}
