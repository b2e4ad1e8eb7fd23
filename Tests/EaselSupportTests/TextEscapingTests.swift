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

    /// Swift joins a prefix (U+0600) and the `<` after it, or a `"` and the combining mark
    /// after it, into one character; escaped scalar by scalar, no `<` or `"` is left in the
    /// page whatever joins it (a file named so ran script in the golden report).
    @Test func noSpecialCharacterIsLeftWhateverJoinsIt() {
        let name = "\u{600}<img src=x onerror=alert(1) \u{600}>x\"\u{301} onload=\"y&\u{301}"
        #expect(name.htmlEscaped.unicodeScalars.allSatisfy { !"<>\"".unicodeScalars.contains($0) }, "\(name.htmlEscaped)")
        #expect(
            name.htmlEscaped
                == "\u{600}&lt;img src=x onerror=alert(1) \u{600}&gt;x&quot;\u{301} onload=&quot;y&amp;\u{301}")
        #expect(name.xmlEscaped == name.htmlEscaped)
    }

    /// XML 1.0 allows no other C0 control; an attribute keeps tabs and line breaks only as references.
    @Test func xmlTakesWhatItCannotHoldAsReplacementsAndLineBreaksAsReferences() {
        #expect("a\u{1}b\u{1B}c\u{FFFE}".xmlEscaped == "a\u{FFFD}b\u{FFFD}c\u{FFFD}")
        #expect("a\tb\nc\rd".xmlEscaped == "a&#9;b&#10;c&#13;d")
        #expect("a\u{1}b\n".htmlEscaped == "a\u{1}b\n", "HTML text keeps them")
    }
}
