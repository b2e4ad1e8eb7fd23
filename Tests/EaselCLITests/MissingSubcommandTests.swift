import EaselTestSupport
import Foundation
import Testing

/// `easel a.drawing -o x.png`, a command line without its command, is answered with the
/// commands there are and, for a document, the export it most likely meant.
@Suite("A missing command is named")
struct MissingSubcommandTests {
    @Test func aDocumentFirstSuggestsExportAndListsTheCommands() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "a.drawing", "--size", "20x20"])
        let result = try s.run(["a.drawing", "-o", "x.png"])
        #expect(result.status == 64)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            first == "easel: error: 'a.drawing' is not a command; did you mean 'easel export a.drawing -o x.png'?",
            "\(result.stderr)")
        let listed = result.stderr.split(separator: "\n").first { $0.hasPrefix("Commands: ") } ?? ""
        let names = listed.dropFirst("Commands: ".count).split(separator: " ").map {
            $0.trimmingCharacters(in: .punctuationCharacters)
        }
        for command in ["export", "info", "validate", "golden", "doctor"] {
            #expect(names.contains(command), "\(command) listed: \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("x.png").path))
    }

    @Test func aDocumentNameThatIsNotThereStillSuggestsExport() throws {
        let s = CLIScratch()
        let result = try s.run(["missing.rwcard", "--out", "m.png"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("did you mean 'easel export missing.rwcard --out m.png'?"), "\(result.stderr)")
    }

    @Test func aMistypedCommandIsCorrectedAndOtherWordsListTheCommands() throws {
        let s = CLIScratch()
        let typo = try s.run(["exprot", "a.drawing"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("easel: error: 'exprot' is not a command; did you mean 'export'?"), "\(typo.stderr)")
        let other = try s.run(["frobnicate"])
        #expect(other.status == 64)
        #expect(other.stderr.hasPrefix("easel: error: 'frobnicate' is not a command"), "\(other.stderr)")
        #expect(other.stderr.contains("export,") && other.stderr.contains("new,"), "\(other.stderr)")
    }
}
