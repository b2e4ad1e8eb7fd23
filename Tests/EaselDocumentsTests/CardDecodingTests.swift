import Testing
import Foundation
import EaselGeometry
@testable import EaselDocuments

@Suite("Card decoding")
struct CardDecodingTests {
    func decode(_ json: String, warnings: inout [DocumentWarning]) throws(DocumentError) -> Card {
        try Card(decoding: Array(json.utf8), file: "test.rwcard", warnings: &warnings)
    }

    @Test func editionTwoWithFrameIndex() throws {
        var warnings: [DocumentWarning] = []
        let card = try decode(
            """
            {"id":"8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F","backgroundColor":[0.5,0.25,1,1],"textElements":[],
             "imageElements":[{"transform":{"size":[250,180.5],"rotation":{"degrees":-12.5},"offset":[10,-20]},"imageFilename":"ABC","frameIndex":3}]}
            """, warnings: &warnings)
        #expect(warnings.isEmpty)
        #expect(card.id.uuidString == "8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F")
        #expect(card.backgroundColor == Color(red: 0.5, green: 0.25, blue: 1, alpha: 1))
        let element = try #require(card.imageElements.first)
        #expect(
            element.transform
                == ElementTransform(size: Size(width: 250, height: 180.5), rotationDegrees: -12.5, offset: Point(x: 10, y: -20)))
        #expect(element.imageFilename == "ABC")
        #expect(element.clip == .library(.heart))
    }

    @Test func editionOneWithFrame() throws {
        var warnings: [DocumentWarning] = []
        let card = try decode(
            """
            {"imageElements":[{"frame":6,"imageFilename":"none","transform":{"offset":[0,0],"rotation":{"degrees":0},"size":[1,2]}}],
             "textElements":[],"backgroundColor":[-0.003,1.02,0,1],"id":"8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F"}
            """, warnings: &warnings)
        #expect(card.imageElements[0].clip == .library(.cone))
        #expect(card.imageElements[0].imageFilename == nil, "\"none\" means no image")
        #expect(card.backgroundColor.red == -0.003, "extended sRGB is kept as read")
    }

    @Test func legacyCardsAreUpgradedWithAWarning() throws {
        var warnings: [DocumentWarning] = []
        let card = try decode(
            """
            {"id":"8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F","imageElements":[]}
            """, warnings: &warnings)
        #expect(card.backgroundColor == Card.defaultBackground)
        #expect(card.textElements.isEmpty)
        #expect(warnings.count == 1 && warnings[0].message.contains("legacy"))
    }

    @Test func errorsNameTheKeyPathWhatWasExpectedAndWhatWasFound() {
        var warnings: [DocumentWarning] = []
        #expect(
            throws: DocumentError(
                file: "test.rwcard", keyPath: "imageElements[0].transform.size",
                kind: .typeMismatch(expected: "an array of 2 numbers (width, height)", found: "the string \"big\""))
        ) {
            try decode(
                """
                {"id":"x","backgroundColor":[1,1,1,1],"textElements":[],
                 "imageElements":[{"transform":{"size":"big","rotation":{"degrees":0},"offset":[0,0]}}]}
                """, warnings: &warnings)
        }
    }
}
