import EaselTestSupport
import Foundation
import Testing

/// What a hostile review of the editing commands found: edits that saved documents Easel
/// could not open again, read-only files replaced, links replaced by copies.
@Suite("Edits never leave a document Easel cannot open, replace a read-only file, or copy over a link")
struct EditSafetyTests {
    @Test func anEditWhoseResultEaselCouldNotOpenIsRefusedAndChangesNothing() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        try s.ok(["new", "drawing", "d.drawing"])
        let card = try s.bytes("c.rwcard"), drawing = try s.bytes("d.drawing")
        // Each is within the verb's own limits, but past the format's once stored: a card's
        // offset is the position less the card's centre; a line's centre is halfway along it.
        // Values past the format's own limits are refused as the options are read.
        for (arguments, message) in [
            (["add", "d.drawing", "rounded-rect", "--corner-radius", "1e9"], "the corner radius must be from 0 to 100000"),
            (
                ["add", "d.drawing", "line", "--dash", Array(repeating: "1", count: 65).joined(separator: ",")],
                "the dash pattern has 65 lengths, over the limit of 64"
            ),
        ] {
            let refused = try s.run(arguments)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        for arguments in [
            ["add", "c.rwcard", "text", "hi", "--at", "650,-999999"],
            ["add", "d.drawing", "line", "--from", "999999,0", "--to", "-999999,0"],
            ["add", "d.drawing", "path", "M 0 0 L 1e9 1e9"],
        ] {
            let refused = try s.run(arguments)
            #expect(refused.status == 1, "\(arguments): \(refused.stderr)")
            #expect(
                refused.stderr.contains("this edit would store a value Easel cannot open again")
                    && refused.stderr.contains("it was not made"), "\(arguments): \(refused.stderr)")
        }
        // A refused image leaves no photo behind (the app would never use it).
        let photo = ProcessRunner.packageRoot.appendingPathComponent("Tests/EaselRenderTests/Images/orientation-6.jpg")
        let refusedImage = try s.run(["add", "c.rwcard", "image", photo.path, "--at", "650,-999999"])
        #expect(refusedImage.status == 1, "\(refusedImage.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.folder.path).sorted() == [
                ".easel.lock", "c.rwcard", "d.drawing",
            ])
        #expect(try s.bytes("c.rwcard") == card && s.bytes("d.drawing") == drawing)
        try s.ok(["info", "d.drawing"])
        // In a session the refused edit is one failure; the others are saved.
        let session = try s.run(
            ["edit", "c.rwcard"], stdin: "add text kept\nadd text lost --at 650,-999999\nadd text also-kept\n")
        #expect(session.status == 1, "\(session.stderr)")
        let saved = String(decoding: try s.bytes("c.rwcard"), as: UTF8.self)
        #expect(saved.contains("kept") && saved.contains("also-kept") && !saved.contains("lost"), "\(saved)")
        try s.ok(["info", "c.rwcard"])

    }

    @Test func aReadOnlyDocumentIsNotReplaced() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        let path = s.folder.file("c.rwcard").path
        // Root may write anything; the user the protection is for is another: run as nobody
        // (the folders open to them), as a non-root user runs.
        var arguments = ["add", "c.rwcard", "text", "protected"]
        var executable = s.easel
        var environment = s.environment
        let state = TemporaryFolder("easel-state-other-user")
        if getuid() == 0 {
            for folder in [s.folder.url, state.url] {
                try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
            }
            environment["XDG_STATE_HOME"] = state.path
            environment["XDG_CONFIG_HOME"] = state.path
            environment["HOME"] = state.path
            executable = URL(fileURLWithPath: "/usr/bin/setpriv")
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", s.easel.path] + arguments
            // The folder's lock was made while only its owner could write the folder: another
            // user cannot open it, and is told who can change that.
            let locked = try ProcessRunner.run(
                executable, arguments, environment: environment, currentDirectory: s.folder.url)
            #expect(locked.status == 1)
            #expect(
                locked.stderr.contains(
                    "cannot open the lock file \(s.folder.file(".easel.lock").path): Permission denied (it opens only for those who could write the folder when it was made: its owner can widen it with chmod, and an edit by its owner does)"
                ), "\(locked.stderr)")
            // An edit by its owner mends it, now that the folder is open to everyone.
            try s.ok(["add", "c.rwcard", "text", "by the owner"])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let before = try s.bytes("c.rwcard")
        let refused = try ProcessRunner.run(executable, arguments, environment: environment, currentDirectory: s.folder.url)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("is read-only"), "\(refused.stderr)")
        #expect(try s.bytes("c.rwcard") == before)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o444)
        #expect(attributes[.ownerAccountID] as? Int == Int(getuid()), "not taken over by another user")
    }

    @Test func aDocumentReachedThroughALinkIsEditedWhereItIs() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: s.folder.file("link"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "real/c.rwcard"])
        try FileManager.default.createSymbolicLink(
            atPath: s.folder.file("link/c.rwcard").path, withDestinationPath: "../real/c.rwcard")
        try s.ok(["add", "link/c.rwcard", "text", "through the link"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: s.folder.file("link/c.rwcard").path) == "../real/c.rwcard",
            "the link is still a link")
        #expect(try String(decoding: s.bytes("real/c.rwcard"), as: UTF8.self).contains("through the link"))
        // One document, one history, whichever path names it.
        try s.ok(["undo", "real/c.rwcard"])
        #expect(!String(decoding: try s.bytes("link/c.rwcard"), as: UTF8.self).contains("through the link"))
    }

    @Test func aNewDocumentOfNoKnownTypeIsRefusedByTheNameGiven() throws {
        let s = CLIScratch()
        let refused = try s.run(["new", "card", ".rwcard"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(".rwcard: a file with no extension"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(".easel-new-"), "not the hidden temporary name: \(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.path).isEmpty, "nothing left behind")
    }
}
