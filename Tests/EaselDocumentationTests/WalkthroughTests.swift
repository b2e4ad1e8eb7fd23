import Testing
import Foundation
import EaselCairo
import EaselTestSupport
import EaselGoldenTesting

/// Runs the walkthrough of docs/cli.md exactly as written, with the built `easel`, so the
/// page stays true.
@Suite("Documented CLI walkthrough")
struct WalkthroughTests {
    static func walkthroughLines() throws -> [String] {
        let readme = try String(contentsOf: ProcessRunner.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Walkthrough"))
        let start = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init).filter { $0.hasPrefix("easel ") }
    }

    @Test func everyLineRunsAndTheExportsMatchTheirGoldens() throws {
        let scratch = EaselScratch()
        let lines = try Self.walkthroughLines()
        #expect(lines.count >= 10)
        for line in lines {
            // The same words a shell would pass (quotes removed), to the built binary.
            let words = Array(try ShellSplit.split(line).dropFirst())
            let result = try scratch.run(words)
            #expect(result.status == 0, "\(line)\n\(result.stderr)")
        }
        assertGolden(try scratch.image("poster.png"), named: "walkthrough-poster", suite: "CLI")
        assertGolden(try scratch.image("birthday.png"), named: "walkthrough-birthday", suite: "CLI")
    }
}

/// Shell-style word splitting for the documented lines (quotes and backslashes).
enum ShellSplit {
    static func split(_ line: String) throws -> [String] {
        var words: [String] = [], current = "", inWord = false, quote: Character? = nil
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
