import EaselTestSupport
import Foundation
import Testing

/// A card's texts are shrunk to fit their frames, as the app does: `--font-size` on one is
/// refused with that reason, and help shows defaults as a user types them.
@Suite("A card text's font size is refused with the reason")
struct CardTextSizeOptionTests {
    @Test func aCardTextsFontSizeIsRefusedWithTheReasonAndHelpShowsPlainDefaults() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        let refused = try s.run(["add", "c.rwcard", "text", "Hi", "--font-size", "30"])
        #expect(refused.status != 0 && refused.stderr.contains("shrunk to fit its frame"), "\(refused.stderr)")
        try s.ok(["add", "c.rwcard", "text", "Hi"])
        #expect(try s.run(["set", "c.rwcard", "0", "--font-size", "30"]).status != 0)
        let help = try s.run(["new", "drawing", "--help"])
        #expect(help.stdout.contains("(default: 800x600)") && !help.stdout.contains("SizeArgument"), "\(help.stdout)")
    }
}
