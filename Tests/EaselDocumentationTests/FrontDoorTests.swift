import Foundation
import Testing

/// README.md is the front door: short enough to read in five minutes, with a link to every
/// reference page, so that what moved out of it can still be found from it.
@Suite("The README as the front door")
struct FrontDoorTests {
    static func readme() throws -> String {
        try String(contentsOf: DocumentationSnippetTests.root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test func theREADMEIsAtMost200Lines() throws {
        let lines = try Self.readme().filter { $0 == "\n" }.count  // as `wc -l` counts them
        #expect(lines <= 200, "README.md has \(lines) lines; reference belongs in docs/")
    }

    @Test func theREADMELinksEveryPageOfTheDocs() throws {
        let targets = Set(
            MarkdownLinks.links(in: try Self.readme()).map { String($0.target.split(separator: "#").first ?? "") })
        let pages = try FileManager.default.contentsOfDirectory(
            atPath: DocumentationSnippetTests.root.appendingPathComponent("docs").path
        ).filter { $0.hasSuffix(".md") }
        #expect(pages.count >= 10)
        let unlinked = pages.filter { !targets.contains("docs/" + $0) }.sorted()
        #expect(unlinked.isEmpty, "README.md links none of: \(unlinked)")
    }
}
