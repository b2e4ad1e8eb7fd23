import Foundation
import Testing
import EaselCairo
import EaselRender
import EaselTestSupport

@Suite("Writing PNG files")
struct PNGWriteTests {
    @Test func writingIntoAMissingFolderThrows() throws {
        let image = try RasterImage(width: 10, height: 10)
        let missing = "/nonexistent-easel-folder/sub/out.png"
        #expect { try image.writePNG(to: missing) } throws: { error in
            guard case RenderError.io(let path, let message) = error else { return false }
            return path == missing && message.contains("No such file or directory")
        }
    }

    @Test func aFailedWriteLeavesTheOldFileIntact() throws {
        let folder = TemporaryFolder()
        let target = try folder.write("original", to: "out.png")
        // A folder where the temporary file would go cannot be written: make it read-only.
        let image = try RasterImage(width: 10, height: 10)
        chmod(folder.path, 0o500)
        defer { chmod(folder.path, 0o700) }
        if getuid() != 0 {  // root ignores permissions; the check only means something for others
            #expect(throws: RenderError.self) { try image.writePNG(to: target.path) }
        }
        chmod(folder.path, 0o700)
        #expect(try String(contentsOf: target, encoding: .utf8) == "original")
        try image.writePNG(to: target.path)
        #expect(try PNGDecoder.decode(Array(Data(contentsOf: target))).width == 10)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }
}
