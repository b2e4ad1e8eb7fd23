import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// `easel validate` on a folder: every document a folder export would stumble on is listed
/// with its reason, named as typed, and the status says whether any was invalid.
@Suite("easel validate lists what a folder export cannot export")
struct ValidateCommandTests {
    @Test func linksPipesAndFoldersNamedLikeDocumentsAreListedWithTheirReasons() throws {
        let s = CLIScratch()
        try s.card("in/ok.rwcard")
        try s.card("in/x.rwcard/inner.rwcard")
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("in/link.rwcard"), withDestinationURL: s.folder.file("in/ok.rwcard"))
        #expect(mkfifo(s.folder.file("in/pipe.rwcard").path, 0o644) == 0)
        let result = try s.run(["validate", "in"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        for (name, reason) in [
            ("link.rwcard", "is a symbolic link"), ("pipe.rwcard", "is not a regular file"), ("x.rwcard", "is a folder"),
        ] {
            #expect(result.stdout.contains("error: in/\(name): \(reason)"), "\(name): \(result.stdout)")
        }
        #expect(result.stdout.contains("ok in/ok.rwcard") && result.stdout.contains("ok in/x.rwcard/inner.rwcard"))
        #expect(result.stderr.contains("5 documents checked: 2 ok, 0 with warnings, 3 invalid"), "\(result.stderr)")
    }

    @Test func aFileOverTheLimitIsNamedAsGiven() throws {
        let s = CLIScratch()
        // Sparse: refused from its size, never read.
        let handle = try FileHandle(forWritingTo: try s.folder.write("", to: "in/h.rwcard"))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        let result = try s.run(["validate", "in"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: in/h.rwcard: the file is"), "as given, not absolute: \(result.stdout)")
    }
}

/// Nothing a document holds can take over a terminal: control characters in its texts and
/// names are escaped in every human-readable line, and kept exactly in JSON.
@Suite("No document takes over a terminal")
struct TerminalSafetyTests {
    @Test func controlCharactersInADocumentAreEscapedInHumanOutput() throws {
        let s = CLIScratch()
        let hostile = "Hi\u{1B}]0;pwned\u{07}\u{1B}[2J\rforged: ok\nline"
        try s.card(
            "c.rwcard",
            Card(
                imageElements: [ImageElement(imageFilename: "IMG\nfake warning")],
                textElements: [TextElement(text: hostile, textFont: "Font\u{1B}[31m")]))
        for arguments in [["info", "c.rwcard"], ["validate", "c.rwcard"], ["export", "c.rwcard", "--out", "c.png"]] {
            let result = try s.run(arguments)
            for output in [result.stdout, result.stderr] {
                let controls = output.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
                #expect(controls.isEmpty, "\(arguments): \(output.debugDescription)")
            }
            let lines = (result.stdout + result.stderr).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("forged") || $0.hasPrefix("line") || $0.hasPrefix("fake") }, "no forged lines")
        }
        #expect(try s.ok(["info", "c.rwcard"]).stdout.contains("\\e]0;pwned\\x07\\e[2J\\rforged: ok\\nline"))
        // JSON stays exact.
        let json = try s.ok(["info", "c.rwcard", "--json"]).stdout
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        #expect((decoded["elements"] as! [[String: Any]]).contains { ($0["text"] as? String) == hostile })
    }
}
