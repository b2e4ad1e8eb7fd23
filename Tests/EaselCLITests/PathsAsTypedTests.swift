import EaselTestSupport
import Foundation
import Testing

/// Every command names files as the user typed them: relative stays relative, as
/// `export` already does (`wrote out.png`).
@Suite("Paths as typed")
struct PathsAsTypedTests {
    @Test func goldenRecordVerifyAcceptAndPruneNameRelativePaths() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "20x20"])
        try s.ok(["new", "drawing", "Docs/b.drawing", "--size", "20x20"])
        let recorded = try s.ok(["golden", "record", "Docs", "Goldens"])
        #expect(recorded.stdout == "recorded Goldens/a.png\nrecorded Goldens/b.png\n", "\(recorded.stdout)")

        try s.ok(["background", "Docs/b.drawing", "black"])
        let verified = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Report"])
        #expect(verified.status == 1)
        #expect(verified.stderr.contains("report: Report/index.html;"), "\(verified.stderr)")
        let accepted = try s.ok(["golden", "accept", "Report"])
        #expect(accepted.stdout == "accepted Goldens/b.png\n", "\(accepted.stdout)")
        let given = try s.ok(["golden", "accept", "Report", "--goldens", "./Goldens"])
        #expect(given.stdout == "unchanged ./Goldens/b.png (it already holds the report's image)\n", "\(given.stdout)")

        try FileManager.default.removeItem(at: s.folder.file("Docs/a.drawing"))
        let pruned = try s.ok(["golden", "prune", "Docs", "Goldens"])
        #expect(pruned.stdout == "orphan Goldens/a.png\n", "\(pruned.stdout)")
    }

    @Test func anAbsolutePathStaysAbsolute() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "20x20"])
        let goldens = s.folder.file("Goldens").path
        let recorded = try s.ok(["golden", "record", "Docs", goldens])
        #expect(recorded.stdout == "recorded \(goldens)/a.png\n", "\(recorded.stdout)")
    }

    @Test func newCardInAFolderNamesItUnderThatFolder() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Cards"), withIntermediateDirectories: true)
        let created = try s.ok(["new", "card", "Cards"])
        #expect(created.stdout.hasPrefix("created card Cards/") && created.stdout.hasSuffix(".rwcard\n"), "\(created.stdout)")
    }
}
