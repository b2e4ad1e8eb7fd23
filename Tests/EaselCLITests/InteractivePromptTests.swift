import Testing
import Foundation
import EaselTestSupport

/// `easel edit` at a real terminal (a pseudo-terminal driven by Tests/Scripts/pty-session.py).
@Suite("easel edit at a terminal")
struct InteractivePromptTests {
    static let driver = ProcessRunner.packageRoot.appendingPathComponent("Tests/Scripts/pty-session.py")

    static func session(_ s: CLIScratch, _ document: String, _ keys: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", driver.path, s.easel.path, document] + keys,
            environment: s.environment, currentDirectory: s.folder.url)
    }

    static func elements(_ s: CLIScratch, _ document: String) throws -> Int {
        let info = try s.ok(["info", document, "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
        return (json["elements"] as! [Any]).count
    }

    @Test func upRecallsTheLastCommandAndTabCompletes() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "p.drawing", "--size", "200x100"])
        let result = try Self.session(s, "p.drawing", ["add star\\r", "\\x1b[A\\r", "rem\\t0\\r", "quit\\r"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "added star as element").count == 3, "Up gave add star again")
        #expect(result.stdout.contains("removed element 0"), "Tab completed rem to remove: \(result.stdout)")
        #expect(try Self.elements(s, "p.drawing") == 1)
        #expect(!result.stdout.contains("unknown verb"))
    }

    @Test func verbHelpAtThePrompt() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "p.drawing"])
        let result = try Self.session(s, "p.drawing", ["help order\\r", "add --help\\r", "quit\\r"])
        #expect(result.stdout.contains("USAGE: order <index> <direction>"), "\(result.stdout)")
        #expect(result.stdout.contains("Add a graphic to a drawing") && !result.stdout.contains("easel: OVERVIEW"))
    }

    @Test func aDiskConflictKeepsTheEditsForSaveAs() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "p.drawing", "--size", "200x100"])
        try s.ok(["new", "drawing", "other.drawing", "--size", "300x100"])
        let result = try Self.session(
            s, "p.drawing", ["add star\\r", "!cp other.drawing p.drawing", "quit\\r", "save-as copy.drawing\\r", "quit!\\r"])
        #expect(result.stdout.contains("your edits are kept"), "\(result.stdout)")
        #expect(result.stdout.contains("saved a copy as copy.drawing"))
        #expect(try Self.elements(s, "copy.drawing") == 1, "the edit lives on in the copy")
        #expect(try s.ok(["info", "p.drawing"]).stdout.contains("300x100"), "the other program's file is untouched")
    }

    @Test func theDocumentedSessionRunsPiped() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "poster.drawing", "--size", "600x400"])
        for kind in ["rect", "star", "heart", "polygon", "text"] {
            try s.ok(["add", "poster.drawing", kind] + (kind == "text" ? ["Hello"] : []))
        }
        let readme = try String(contentsOf: ProcessRunner.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n").filter { $0.hasPrefix("easel> ") }.map { String($0.dropFirst(7)) }
        #expect(lines.contains { $0.hasPrefix("order ") }, "\(lines)")
        let result = try s.run(["edit", "poster.drawing"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("poster.svg").path))
    }
}
