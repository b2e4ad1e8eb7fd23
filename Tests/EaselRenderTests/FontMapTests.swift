import Testing
import Foundation
@testable import EaselRender
import EaselCairo
import EaselTestSupport

@Suite("Font map")
struct FontMapTests {
    @Test func everyMappedFontFileIsInstalledAndLoads() throws {
        for entry in FontMap.entries {
            #expect(FileManager.default.fileExists(atPath: entry.file.path), "\(entry.file.path) (make deps installs it)")
            _ = try FontLibrary.shared.face(for: entry.file)
        }
        #expect(FontLibrary.shared.fallbackFaces.count == FontMap.fallbacks.count)
    }

    @Test func namesAreMatchedLenientlyAndUnknownOnesFallBack() {
        #expect(FontMap.file(for: "chalkboardse-regular").file.fileName == "ComicNeue-Regular.otf")
        #expect(FontMap.file(for: "Gill  Sans").file.fileName == "OpenSans-Regular.ttf")
        let unknown = FontMap.file(for: "Wingdings")
        #expect(!unknown.known && unknown.file == FontMap.defaultSans)
    }

    @Test func theREADMEListsEveryMapping() throws {
        let readme = try String(contentsOf: ProcessRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for entry in FontMap.entries where entry.why != "itself" {
            let row = "| \(entry.names.joined(separator: ", ")) | \(entry.file.fileName) | \(entry.why) |"
            #expect(readme.contains(row), "README font map lacks: \(row)")
        }
    }
}
