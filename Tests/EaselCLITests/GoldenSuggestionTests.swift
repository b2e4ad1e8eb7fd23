import EaselGolden
import EaselTestSupport
import Foundation
import Testing

/// A golden failure on the command line suggests the command line's flags, which pass when
/// given; Swift spellings are for the Swift assertions.
@Suite("Golden failures suggest flags in the CLI")
struct GoldenSuggestionTests {
    /// A documents folder whose one drawing changed a little since its golden was recorded.
    static func changedSuite(_ s: CLIScratch) throws {
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "60x40", "--background", "white"])
        try s.ok(["add", "Docs/a.drawing", "rect", "--at", "20,20", "--size", "10x10", "--fill", "#808080"])
        try s.ok(["golden", "record", "Docs", "Goldens"])
        try s.ok(["move", "Docs/a.drawing", "0", "--by", "15,0"])
    }

    /// The flags after "it would pass with " in `text`.
    static func suggestedFlags(in text: String) -> [String]? {
        guard let range = text.range(of: "it would pass with ") else { return nil }
        let rest = text[range.upperBound...].prefix { $0 != "\n" && $0 != "(" && $0 != ";" }
        return rest.split(separator: " ").map(String.init).filter { !$0.isEmpty }
    }

    @Test func verifySuggestsFlagsThatThenPass() throws {
        let s = CLIScratch()
        try Self.changedSuite(s)
        let failed = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(failed.status == 1)
        #expect(!failed.stdout.contains(".fuzzy(") && !failed.stdout.contains("Tolerance("), "\(failed.stdout)")
        let flags = try #require(Self.suggestedFlags(in: failed.stdout), "\(failed.stdout)")
        #expect(flags.first == "--max-delta" && flags.contains("--max-pixels"), "\(flags)")
        let passed = try s.run(["golden", "verify", "Docs", "Goldens"] + flags)
        #expect(passed.status == 0, "the suggestion passes: \(flags): \(passed.stdout)\(passed.stderr)")
    }

    @Test func diffSuggestsFlagsToo() throws {
        let s = CLIScratch()
        try Self.changedSuite(s)
        try s.ok(["export", "Docs/a.drawing", "-o", "now.png"])
        let different = try s.run(["golden", "diff", "Goldens/a.png", "now.png"])
        #expect(different.status == 1)
        let flags = try #require(Self.suggestedFlags(in: different.stdout), "\(different.stdout)")
        #expect(flags.contains("--max-delta") && flags.contains("--max-pixels"), "\(flags)")
        #expect(try s.run(["golden", "diff", "Goldens/a.png", "now.png"] + flags).status == 0)
    }

    @Test func theSwiftAPIStillSuggestsSwift() throws {
        let s = CLIScratch()
        try Self.changedSuite(s)
        let suite = GoldenSuite(documents: s.folder.file("Docs"), goldens: s.folder.file("Goldens"))
        let swift = try #require(try suite.check().failures.first?.message)
        #expect(swift.contains("it would pass with .fuzzy(maxDelta: ") && !swift.contains("--max-delta"), "\(swift)")
        let flags = try #require(try suite.check(spelling: .commandLine).failures.first?.message)
        #expect(flags.contains("it would pass with --max-delta ") && !flags.contains(".fuzzy("), "\(flags)")
    }

    @Test func aPerceptualFailureSuggestsPerceptualFlags() throws {
        let s = CLIScratch()
        try Self.changedSuite(s)
        let failed = try s.run(["golden", "verify", "Docs", "Goldens", "--tolerance", "perceptual"])
        #expect(failed.status == 1)
        let flags = try #require(Self.suggestedFlags(in: failed.stdout), "\(failed.stdout)")
        #expect(flags.contains("--max-pixels") && !flags.contains("--max-delta"), "\(flags)")
        #expect(try s.run(["golden", "verify", "Docs", "Goldens"] + flags).status == 0, "\(flags)")
    }
}
