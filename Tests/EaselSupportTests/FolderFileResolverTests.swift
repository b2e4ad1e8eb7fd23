import Testing
import Foundation
import EaselSupport
import EaselTestSupport

@Suite("Image references stay inside the card's folder")
struct FolderFileResolverTests {
    @Test func hostileNamesAreRefused() throws {
        let root = TemporaryFolder()
        let cards = root.file("cards")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        try root.write("secret", to: "secret")
        for name in ["../secret", "/etc/passwd", "sub/image", "..", ".", "a\0b", "..\\secret", ""] {
            guard case .refused = FolderFileResolver.resolve(name, inFolder: cards) else {
                Issue.record("\"\(name)\" was not refused")
                continue
            }
        }
    }

    @Test func symlinksMayNotLeadOutside() throws {
        let root = TemporaryFolder()
        let cards = root.file("cards")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        try root.write("secret", to: "secret")
        try root.write("image", to: "cards/REAL")
        try FileManager.default.createSymbolicLink(
            atPath: cards.appendingPathComponent("OUTSIDE").path, withDestinationPath: root.file("secret").path)
        try FileManager.default.createSymbolicLink(
            atPath: cards.appendingPathComponent("RELATIVE").path, withDestinationPath: "../secret")
        try FileManager.default.createSymbolicLink(
            atPath: cards.appendingPathComponent("INSIDE").path, withDestinationPath: "REAL")
        try FileManager.default.createSymbolicLink(
            atPath: cards.appendingPathComponent("BROKEN").path, withDestinationPath: "NOWHERE")
        try FileManager.default.createDirectory(at: cards.appendingPathComponent("FOLDER"), withIntermediateDirectories: true)

        guard case .refused(let reason) = FolderFileResolver.resolve("OUTSIDE", inFolder: cards) else {
            Issue.record("OUTSIDE")
            return
        }
        #expect(reason.contains("symbolic link that leads outside"))
        guard case .refused = FolderFileResolver.resolve("RELATIVE", inFolder: cards) else {
            Issue.record("RELATIVE")
            return
        }
        #expect(FolderFileResolver.resolve("INSIDE", inFolder: cards) == .file(cards.appendingPathComponent("INSIDE")))
        #expect(FolderFileResolver.resolve("REAL", inFolder: cards) == .file(cards.appendingPathComponent("REAL")))
        #expect(
            FolderFileResolver.resolve("BROKEN", inFolder: cards)
                == .missing("the image file \"BROKEN\" is a broken symbolic link"))
        // A link to itself is a loop, and is called one.
        try FileManager.default.createSymbolicLink(
            atPath: cards.appendingPathComponent("LOOP").path, withDestinationPath: "LOOP")
        #expect(
            FolderFileResolver.resolve("LOOP", inFolder: cards)
                == .missing("the image file \"LOOP\" is a loop of symbolic links"))
        guard case .missing = FolderFileResolver.resolve("ABSENT", inFolder: cards) else {
            Issue.record("ABSENT")
            return
        }
        guard case .refused = FolderFileResolver.resolve("FOLDER", inFolder: cards) else {
            Issue.record("FOLDER")
            return
        }
    }
}
