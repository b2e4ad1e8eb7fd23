import EaselTestSupport
import Foundation
import Testing

/// One style for every message on standard error, whoever raised it (the argument parser,
/// a command's checks, a document, an interactive session): `easel: error: …`,
/// `easel: warning: …`, `easel: note: …`.
@Suite("One error style")
struct ErrorStyleTests {
    /// A scratch folder with a drawing `d.drawing` and a broken card beside it.
    static func scratch() throws -> CLIScratch {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x30"])
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/good.drawing", "--size", "20x20"])
        try s.folder.write("{ not json", to: "Docs/broken.rwcard")
        return s
    }

    /// Failing command lines and their exit status.
    static let failures: [([String], Int32)] = [
        (["export", "d.drawing", "--bogus"], 64),  // the argument parser's own error
        (["export", "d.drawing", "--out", "x.png", "--scale", "0"], 64),  // a check of the options
        (["set", "d.drawing", "0"], 64),  // a command's own validation
        (["info", "missing.drawing"], 1),  // a document that is not there
        (["remove", "d.drawing", "7"], 1),  // an edit the document refuses
        (["golden", "diff", "d.png", "missing.png"], 2),
        (["golden", "accept", "NoReport"], 1),
        (["export", "Docs", "--out", "Out"], 1),  // a folder export with a broken document
    ]

    @Test(arguments: failures)
    func everyErrorLineStartsEaselError(arguments: [String], status: Int32) throws {
        let s = try Self.scratch()
        let result = try s.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("easel: error: ") }, "\(arguments): \(result.stderr)")
        #expect(!lines.contains { $0.hasPrefix("Error:") || $0.hasPrefix("easel: failed:") }, "\(result.stderr)")
        for line in lines where line.hasPrefix("easel: ") {
            // Every problem is labelled; the other lines are the summary and progress.
            let said = line.dropFirst("easel: ".count)
            let labelled = ["error: ", "warning: ", "note: "].contains { said.hasPrefix($0) }
            #expect(
                labelled || !(said.contains("cannot") || said.contains("no such") || said.contains("not valid")),
                "an unlabelled problem: \(line)")
        }
    }

    @Test func anInteractiveSessionsErrorsAreLabelledToo() throws {
        let s = try Self.scratch()
        let result = try s.run(["edit", "d.drawing"], stdin: "move 9 --by 1,1\nfrobnicate\nset 0\n")
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("easel: note: ") }
        #expect(errors.count >= 3 && errors.allSatisfy { $0.hasPrefix("easel: error: ") }, "\(result.stderr)")
    }

    @Test func warningsAreLabelledWarning() throws {
        let s = try Self.scratch()
        try s.folder.write(
            #"{"format":"org.easel.drawing","version":1,"canvas":{"size":[20,20]},"graphics":[{"kind":"image","file":"gone.png","transform":{"center":[10,10],"size":[10,10]}}]}"#,
            to: "photo.drawing")
        let result = try s.run(["export", "photo.drawing", "-o", "photo.png"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("easel: warning: ") && $0.contains("gone.png") }, "\(result.stderr)")
    }
}
