import Testing
import Foundation
@testable import EaselDocuments
import EaselTestSupport

@Suite("Atomic saving")
struct SavingTests {
    @Test(arguments: [AtomicFile.Step.create, .write, .flush, .rename])
    func aFailedSaveLeavesTheOriginalByteForByteIntact(step: AtomicFile.Step) throws {
        let folder = TemporaryFolder()
        let original = Array("the original contents".utf8)
        let target = try folder.write(original, to: "doc.rwcard")
        let replacement = [UInt8](repeating: 0x41, count: 200_000)
        #expect(throws: DocumentError.self) { try AtomicFile.write(replacement, to: target.path, failingAt: step) }
        #expect(Array(try Data(contentsOf: target)) == original)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["doc.rwcard"], "the temporary file is removed")
    }

    @Test func aSuccessfulSaveReplacesTheFileAndKeepsItsPermissions() throws {
        let folder = TemporaryFolder()
        let target = try folder.write("old", to: "doc.drawing")
        chmod(target.path, 0o600)
        try AtomicFile.write(Array("new".utf8), to: target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect((try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func savingIntoAMissingFolderFailsClearly() {
        #expect { try AtomicFile.write([1], to: "/nonexistent-easel/doc.rwcard") } throws: { error in
            (error as? DocumentError)?.description.contains("cannot create a temporary file in /nonexistent-easel") == true
        }
    }

    @Test func theRegistrySavesAndReopensBothDocumentTypes() throws {
        let folder = TemporaryFolder()
        let card = Card(imageElements: [ImageElement(imageFilename: "A", clip: .library(.cloud))])
        let drawing = Drawing(graphics: [
            Graphic(kind: .ellipse, transform: GraphicTransform(center: .zero, size: Size(width: 2, height: 3)), fill: .black)
        ])
        try DocumentRegistry.standard.save(card, to: folder.file("c.rwcard"))
        try DocumentRegistry.standard.save(drawing, to: folder.file("d.drawing"))
        #expect(try DocumentRegistry.standard.open(folder.file("c.rwcard")).document as? Card == card)
        #expect(try DocumentRegistry.standard.open(folder.file("d.drawing")).document as? Drawing == drawing)
        // A card cannot be saved as a drawing.
        #expect(throws: DocumentError.self) { try DocumentRegistry.standard.save(card, to: folder.file("c.drawing")) }
    }

    @Test func aFailedEncodeNeverTouchesTheFile() throws {
        let folder = TemporaryFolder()
        let target = try folder.write("original", to: "c.rwcard")
        var triangle = Path()
        triangle.addPolygon([Point(x: 0.5, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        let card = Card(imageElements: [ImageElement(imageFilename: "A", clip: .custom(triangle))])
        #expect(throws: DocumentError.self) { try DocumentRegistry.standard.save(card, to: target) }
        #expect(try String(contentsOf: target, encoding: .utf8) == "original")
    }
}

import EaselGeometry

@Suite("Card folder")
struct CardFolderTests {
    @Test func imagesAreStoredAsTheAppStoresThem() throws {
        let folder = TemporaryFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let name = try CardFolder.addImage(png: png, to: folder.url)
        #expect(UUID(uuidString: name) != nil && name == name.uppercased() && !name.contains("."))
        #expect(Array(try Data(contentsOf: folder.file(name))) == png)
        #expect(throws: DocumentError.self) { try CardFolder.addImage(png: Array("GIF89a".utf8), to: folder.url) }
    }
}
