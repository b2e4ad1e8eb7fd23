import Testing
import EaselGeometry
import EaselDocuments

/// Colour parsing throws with its reason: a mistyped colour must never become a silent `nil`
/// where an optional fill is accepted.
@Suite("Colour parsing")
struct ColorParsingTests {
    @Test func hexFormsParse() throws {
        #expect(try Color(hex: "#FF595E") == Color(red: 1, green: 0x59 / 255, blue: 0x5E / 255))
        #expect(try Color(hex: "ff595e80") == Color(red: 1, green: 0x59 / 255, blue: 0x5E / 255, alpha: 0x80 / 255))
        #expect(Color(rgb: 0xFF595E) == (try Color(hex: "#FF595E")))
        #expect(Color(rgba: 0xFF59_5E80) == (try Color(hex: "#FF595E80")))
        #expect(Color(rgb: 0x000000, alpha: 0.5).alpha == 0.5)
    }

    @Test(arguments: ["#FF595", "#GG595E", "", "#", "#FF595E8", "+FF595E", "#FF 95E", "#-F595E"])
    func malformedHexThrowsNamingTheText(text: String) {
        #expect(throws: ColorParseError(text: text, expected: "#RRGGBB or #RRGGBBAA (6 or 8 hex digits)")) {
            try Color(hex: text)
        }
        let message = (try? Color(hex: text)).map { "\($0)" } ?? "\(ColorParseError(text: text, expected: "x"))"
        #expect(message.hasPrefix("\"\(text)\" is not a colour"))
    }

    @Test func parsingTakesEveryFormPeopleType() throws {
        #expect(try Color(parsing: " rebeccapurple ") == Color(rgb: 0x663399))
        #expect(try Color(parsing: "appColor5") == .black)
        #expect(try Color(parsing: "1, 0.5, 0") == Color(red: 1, green: 0.5, blue: 0))
        #expect(try Color(parsing: "#00000080").alpha == 0x80 / 255)
    }

    @Test(arguments: ["tomatoe", "1,2", "1,nan,0", "#12345", "random9"])
    func parsingRefusesWithTheFormsItTakes(text: String) {
        do {
            _ = try Color(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.text == text)
            #expect(error.description.contains("CSS colour name"))
        }
    }
}
