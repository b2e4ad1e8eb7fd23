import EaselSupport
import Testing

/// Text from documents escaped for where it is written: a terminal or a log (every control
/// character shown, so a name cannot clear the screen or forge a line) and an HTML page.
@Suite("Text escaped for terminals, logs and pages")
struct TextEscapingTests {
    @Test func everyControlCharacterIsShownAndNothingElseChanges() {
        #expect(
            "a\nb\rc\td\u{1B}[2J\u{07}\u{7F}\u{9B}31m\u{85}é🎉".escapingControlCharacters
                == "a\\nb\\rc\\td\\e[2J\\x07\\x7F\\u{9B}31m\\u{85}é🎉")
        #expect("\u{0}\u{1F}".escapingControlCharacters == "\\x00\\x1F")
        #expect("plain text, ünïcødé".escapingControlCharacters == "plain text, ünïcødé")
        #expect("\u{A0}\u{2028}".escapingControlCharacters == "\u{A0}\u{2028}", "only C0, DEL and C1 are controls here")
    }

    @Test func htmlTakesItsFourSpecialCharactersAsEntities() {
        #expect("<a href=\"x\">Tom & Jerry's</a>".htmlEscaped == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry's&lt;/a&gt;")
        #expect("&amp;".htmlEscaped == "&amp;amp;", "escaped once more, not left as an entity")
    }
}
