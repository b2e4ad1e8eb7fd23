import EaselDocuments
import EaselEditing
import EaselTestSupport
import Foundation
import Testing

/// Deleting a card takes its photos with it, as the app deletes a card's images, but only
/// those no other document in its folder names.
@Suite("The files a card owns")
struct CardFilesOwnedTests {
    @Test func aCardOwnsThePhotosNoOtherDocumentNames() throws {
        let folder = TemporaryFolder()
        for name in ["AAAAAAAA-0000-4000-8000-000000000001", "AAAAAAAA-0000-4000-8000-000000000002"] {
            try folder.write([0x89, 0x50, 0x4E, 0x47], to: name)
        }
        var card = Card()
        try card.add(ImageElement(imageFilename: "AAAAAAAA-0000-4000-8000-000000000001"))
        try card.add(ImageElement(imageFilename: "AAAAAAAA-0000-4000-8000-000000000002"))
        try card.add(ImageElement(imageFilename: "not-there"))
        try folder.write([0x89, 0x50, 0x4E, 0x47] + Array("thumbnail".utf8), to: card.id.uuidString)
        // What is not an image never goes with it, whatever the card names.
        try folder.write(Array("my notes".utf8), to: "notes")
        try card.add(ImageElement(imageFilename: "notes"))
        let url = try folder.write(try CardEncoder.encode(card, file: "a"), to: card.appFileName)
        var other = Card()
        try other.add(ImageElement(imageFilename: "AAAAAAAA-0000-4000-8000-000000000002"))
        let otherURL = try folder.write(try CardEncoder.encode(other, file: "b"), to: other.appFileName)
        #expect(
            card.filesOwned(savedAt: url).map(\.lastPathComponent).sorted()
                == ["AAAAAAAA-0000-4000-8000-000000000001", card.id.uuidString].sorted(),
            "the photo only it uses and its thumbnail, not the shared one, a missing one or one that is not an image")
        // A document that cannot be read might name any of them: all stay.
        chmod(otherURL.path, 0)
        defer { chmod(otherURL.path, 0o644) }
        if access(otherURL.path, R_OK) != 0 { #expect(card.filesOwned(savedAt: url).isEmpty) }
        #expect(Drawing().filesOwned(savedAt: folder.file("d.drawing")).isEmpty, "a drawing owns nothing beside it")
    }
}
