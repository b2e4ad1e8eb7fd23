import Testing
import Foundation
@testable import EaselDocuments

/// Each kind of decoding failure, with its whole message: file, key path, expected, found.
@Suite("Decoding errors")
struct DecodingErrorTests {
    func cardError(_ json: String) -> String {
        var warnings: [DocumentWarning] = []
        do {
            _ = try Card(decoding: Array(json.utf8), file: "/cards/x.rwcard", warnings: &warnings)
            return "no error"
        } catch {
            return error.description
        }
    }

    let t = #"{"size":[1,1],"rotation":{"degrees":0},"offset":[0,0]}"#

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(
            cardError("{\n  \"id\": \"x\",\n  \"imageElements\": [1, 2,]\n}")
                == "/cards/x.rwcard: not valid JSON at line 3, column 26 (in imageElements[2]): unexpected ']' where a value was expected"
        )
        #expect(cardError("") == "/cards/x.rwcard: not valid JSON at line 1, column 1: the file is empty (no JSON value)")
        #expect(
            cardError("{\"id\": \"x\"} trailing")
                == "/cards/x.rwcard: not valid JSON at line 1, column 13: unexpected data after the JSON value")
    }

    @Test func missingKeys() {
        #expect(cardError(#"{"imageElements":[]}"#) == "/cards/x.rwcard: the required key \"id\" is missing")
        #expect(
            cardError(
                #"{"id":"x","imageElements":[{"transform":{"size":[1,1],"offset":[0,0]}}],"textElements":[],"backgroundColor":[0,0,0,1]}"#
            )
                == "/cards/x.rwcard: imageElements[0].transform: the required key \"rotation\" is missing")
        #expect(
            cardError(
                #"{"id":"x","imageElements":[],"textElements":[{"transform":\#(t),"text":"a","textColor":[0,0,0,1]}],"backgroundColor":[0,0,0,1]}"#
            )
                == "/cards/x.rwcard: textElements[0]: the required key \"textFont\" is missing")
    }

    @Test func wrongTypesAtEveryLevel() {
        #expect(cardError("[1, 2]") == "/cards/x.rwcard: expected a card object, found an array of 2 items")
        #expect(cardError(#"{"id":7,"imageElements":[]}"#) == "/cards/x.rwcard: id: expected a string, found the number 7")
        #expect(
            cardError(#"{"id":"x","imageElements":{}}"#) == "/cards/x.rwcard: imageElements: expected an array, found an object")
        #expect(
            cardError(#"{"id":"x","imageElements":[],"textElements":[],"backgroundColor":[1,"NaN",0,1]}"#)
                == "/cards/x.rwcard: backgroundColor[1]: expected a number, found the string \"NaN\"")
        #expect(
            cardError(#"{"id":"x","imageElements":[],"textElements":[],"backgroundColor":[1,0,1]}"#)
                == "/cards/x.rwcard: backgroundColor: expected an array of 4 numbers (red, green, blue, alpha in extended sRGB), found an array of 3 items"
        )
        #expect(
            cardError(
                #"{"id":"x","imageElements":[{"transform":{"size":[1,1],"rotation":{"degrees":true},"offset":[0,0]}}],"textElements":[],"backgroundColor":[0,0,0,1]}"#
            )
                == "/cards/x.rwcard: imageElements[0].transform.rotation.degrees: expected a number, found the boolean true")
        #expect(
            cardError(
                #"{"id":"x","imageElements":[{"transform":\#(t),"frameIndex":2.5}],"textElements":[],"backgroundColor":[0,0,0,1]}"#
            )
                == "/cards/x.rwcard: imageElements[0].frameIndex: expected a whole number, found the number 2.5")
    }

    @Test func nonFiniteAndOutOfLimitNumbers() {
        #expect(
            cardError(#"{"id":"x","imageElements":[],"textElements":[],"backgroundColor":[1e999,0,0,1]}"#)
                == "/cards/x.rwcard: backgroundColor[0]: the number is too large to represent (not finite)")
        #expect(
            cardError(
                #"{"id":"x","imageElements":[{"transform":{"size":[1e308,1],"rotation":{"degrees":0},"offset":[0,0]}}],"textElements":[],"backgroundColor":[0,0,0,1]}"#
            )
                == "/cards/x.rwcard: imageElements[0].transform.size: 1e+308 is beyond the coordinate limit of ±1000000")
    }

    @Test func limits() {
        let many = "[" + Array(repeating: #"{"transform":\#(t)}"#, count: CardLimits.maxElements + 1).joined(separator: ",") + "]"
        #expect(
            cardError(#"{"id":"x","imageElements":\#(many)}"#)
                == "/cards/x.rwcard: imageElements: 10001 image elements, over the limit of 10000")
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(cardError(deep).hasPrefix("/cards/x.rwcard: not valid JSON at line 1, column 65"))
        #expect(cardError(deep).hasSuffix("nesting deeper than the limit of 64 levels"))
    }

    @Test func duplicateKeysAreRefused() {
        #expect(
            cardError(#"{"id":"a","id":"b","imageElements":[]}"#)
                == "/cards/x.rwcard: not valid JSON at line 1, column 15 (in id): the key \"id\" appears twice in the same object"
        )
    }

    @Test func invalidUTF8AndControlCharacters() {
        var bytes = Array(#"{"id":"ab"#.utf8)
        bytes += [0xC3, 0x28]  // an invalid two-byte sequence
        bytes += Array(#"","imageElements":[]}"#.utf8)
        var warnings: [DocumentWarning] = []
        #expect { try Card(decoding: bytes, file: "u.rwcard", warnings: &warnings) } throws: { error in
            (error as? DocumentError)?.description.contains("a string that is not valid UTF-8") == true
        }
        #expect(cardError("{\"id\":\"a\tb\"}").contains("a control character (byte 0x9) inside a string"))
    }

    @Test func unsupportedExtensionsListTheSupportedOnes() {
        #expect { try DocumentRegistry.standard.open(URL(fileURLWithPath: "/tmp/old.rwcard.bak")) } throws: { error in
            (error as? DocumentError)?.description
                == "/tmp/old.rwcard.bak: the extension .bak is not a supported document type (supported: .rwcard, .drawing)"
        }
        #expect { try DocumentRegistry.standard.open(URL(fileURLWithPath: "/tmp/IMAGE")) } throws: { error in
            (error as? DocumentError)?.description
                == "/tmp/IMAGE: a file with no extension is not a supported document type (supported: .rwcard, .drawing)"
        }
    }
}
