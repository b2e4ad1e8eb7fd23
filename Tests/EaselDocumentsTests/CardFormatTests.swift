import Testing
import Foundation
import EaselGeometry
@testable import EaselDocuments

/// The schema quirks of docs/formats.md, and writing cards the app reads.
@Suite("Card format")
struct CardFormatTests {
    func decode(_ json: String) throws(DocumentError) -> (Card, [DocumentWarning]) {
        var warnings: [DocumentWarning] = []
        let card = try Card(decoding: Array(json.utf8), file: "t.rwcard", warnings: &warnings)
        return (card, warnings)
    }

    let id = "8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F"

    func minimal(images: String = "[]", texts: String = "[]") -> String {
        """
        {"id":"\(id)","backgroundColor":[1,1,1,1],"imageElements":\(images),"textElements":\(texts)}
        """
    }

    let transform = #"{"size":[100,50],"rotation":{"degrees":0},"offset":[0,0]}"#

    @Test func integersLongDoublesEscapedSlashesAndAnyKeyOrder() throws {
        let (card, _) = try decode(
            """
            {"textElements":[{"textFont":"Gill Sans","textColor":[0,0,0,1],"text":"A \\/ B",
              "transform":{"offset":[-6.0000000000000009,250],"rotation":{"degrees":90},"size":[800,200.5]}}],
             "imageElements":[],"id":"\(id)","backgroundColor":[0.98499999999999999,0.711,0.152,1]}
            """)
        let text = card.textElements[0]
        #expect(text.text == "A / B")
        #expect(text.transform.offset == Point(x: -6.0000000000000009, y: 250))
        #expect(text.transform.size == Size(width: 800, height: 200.5))
        #expect(card.backgroundColor.red == 0.98499999999999999)
    }

    @Test func anInvalidIDGetsANewUUIDWithAWarning() throws {
        let (card, warnings) = try decode(minimal().replacingOccurrences(of: id, with: "not-a-uuid"))
        #expect(card.id.uuidString != "not-a-uuid")
        #expect(warnings.count == 1 && warnings[0].keyPath == "id" && warnings[0].message.contains("not a UUID"))
    }

    @Test func anInvalidIDTakesTheUUIDTheFileIsNamedByAndADifferentOneIsSaid() throws {
        // The app names a card's file by its id: they are kept agreeing where they can be.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("easel-card-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = "0A0B0C0D-0000-4000-8000-000000000001"
        let invalid = folder.appendingPathComponent(named + ".rwcard")
        try Data(minimal().replacingOccurrences(of: id, with: "H-BIG").utf8).write(to: invalid)
        let opened = try DocumentRegistry.standard.open(invalid)
        #expect((opened.document as? Card)?.id.uuidString == named)
        #expect(opened.warnings.map(\.message).contains { $0.contains("takes the id its file is named by") })
        let other = folder.appendingPathComponent("0A0B0C0D-0000-4000-8000-000000000002.rwcard")
        try Data(minimal().utf8).write(to: other)
        let mismatched = try DocumentRegistry.standard.open(other)
        #expect(
            mismatched.warnings.contains { $0.keyPath == "id" && $0.message.contains("would save this card as \(id).rwcard") })
        // A card named as the app names it has no warning.
        let agreeing = folder.appendingPathComponent(id + ".rwcard")
        try Data(minimal().utf8).write(to: agreeing)
        #expect(try DocumentRegistry.standard.open(agreeing).warnings.isEmpty)
    }

    @Test func noneNullAndMissingImageNames() throws {
        let (card, _) = try decode(
            minimal(
                images: """
                    [{"transform":\(transform),"imageFilename":"none"},{"transform":\(transform),"imageFilename":null},{"transform":\(transform)}]
                    """))
        #expect(card.imageElements.map(\.imageFilename) == [nil, nil, nil])
    }

    @Test func frameIndexNullMeansNoClipAndDisagreementPrefersFrameIndex() throws {
        let (card, warnings) = try decode(
            minimal(
                images: """
                    [{"transform":\(transform),"frameIndex":null},{"transform":\(transform),"frameIndex":4,"frame":9}]
                    """))
        #expect(card.imageElements[0].clip == nil)
        #expect(card.imageElements[1].clip == .library(.lens))
        #expect(warnings.count == 1 && warnings[0].message.contains("disagree"))
        // An explicit null is the current app's "no clip", even beside an edition-1 `frame`
        // (as the app shows it), said as a disagreement; `frame` alone is edition 1's clip.
        let (mixed, said) = try decode(
            minimal(
                images: """
                    [{"transform":\(transform),"frameIndex":null,"frame":3},{"transform":\(transform),"frame":3}]
                    """))
        #expect(mixed.imageElements[0].clip == nil)
        #expect(mixed.imageElements[1].clip == .library(LibraryShape(rawValue: 3)!))
        #expect(said.count == 1 && said[0].message.contains("frameIndex null (no clip) and frame 3 disagree"), "\(said)")
    }

    @Test func anOutOfRangeClipIndexIsAnError() {
        #expect(
            throws: DocumentError(
                file: "t.rwcard", keyPath: "imageElements[0].frameIndex",
                kind: .typeMismatch(expected: "a clip-shape index from 0 to 10", found: "the number 11"))
        ) {
            try decode(minimal(images: #"[{"transform":\#(transform),"frameIndex":11}]"#))
        }
    }

    @Test func imagesAreDrawnBeforeTexts() throws {
        let (card, _) = try decode(
            minimal(
                images: #"[{"transform":\#(transform),"imageFilename":"A"}]"#,
                texts: #"[{"transform":\#(transform),"text":"T","textColor":[0,0,0,1],"textFont":"x"}]"#))
        let order = card.elementsInDrawingOrder.map { element -> String in
            if case .image = element { return "image" } else { return "text" }
        }
        #expect(order == ["image", "text"])
    }

    @Test func decodeEncodeDecodeGivesAnEqualCard() throws {
        let card = Card(
            id: UUID(uuidString: id)!, backgroundColor: Color(red: -0.003, green: 0.924, blue: 0.942, alpha: 1),
            imageElements: LibraryShape.allCases.map { shape in
                ImageElement(
                    transform: ElementTransform(
                        size: Size(width: 123.25, height: 77), rotationDegrees: -33.3,
                        offset: Point(x: -6.0000000000000009, y: 1e-7)),
                    imageFilename: "IMG-\(shape.rawValue)", clip: .library(shape))
            } + [ImageElement(imageFilename: nil)],
            textElements: [TextElement(text: "Grüße \"aus\" 東京 / \\ \n tab\t", textColor: .white, textFont: "Chalkduster")])
        let bytes = try CardEncoder.encode(card, file: "t.rwcard")
        var warnings: [DocumentWarning] = []
        let decoded = try Card(decoding: bytes, file: "t.rwcard", warnings: &warnings)
        #expect(decoded == card)
        #expect(warnings.isEmpty)
        #expect(try CardEncoder.encode(decoded, file: "t.rwcard") == bytes, "encoding is deterministic")
    }

    @Test func writesTheAppsKeysAndShapes() throws {
        let card = Card(
            id: UUID(uuidString: id)!, backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(size: Size(width: 250, height: 180)), imageFilename: "ABC", clip: .library(.heart)
                ),
                ImageElement(transform: .appDefault, imageFilename: "DEF"),
            ])
        let text = String(decoding: try CardEncoder.encode(card, file: "t.rwcard"), as: UTF8.self)
        #expect(text.contains(#""id" : "8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F""#), "upper-case UUID")
        #expect(text.contains(#""frameIndex" : 3"#) && text.contains(#""frame" : 3"#), "both editions see the clip")
        #expect(text.contains(#""frameIndex" : null"#))
        #expect(!text.contains(#""frame" : null"#), "edition 1 writes frame only when set")
        #expect(text.contains(#""size" : ["#) && text.contains(#""degrees" : 0"#) && text.contains(#""offset" : ["#))
        #expect(text.contains(#""textElements" : []"#))
        // The file is plain JSON any reader accepts.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
    }

    @Test func aCustomClipEqualToALibraryShapeIsSavedAsItsIndex() throws {
        // The diamond laid out in the unit square: scaled to the 100x100 matching square, its
        // path equals the library's diamond exactly.
        let diamond = ClipShape.custom(LibraryShape.diamond.path(in: Rect(x: 0, y: 0, width: 1, height: 1)))
        #expect(diamond.libraryIndex == 8)
        let card = Card(imageElements: [ImageElement(imageFilename: "A", clip: diamond)])
        let text = String(decoding: try CardEncoder.encode(card, file: "t.rwcard"), as: UTF8.self)
        #expect(text.contains(#""frameIndex" : 8"#))
    }

    @Test func aCustomClipThatIsNoLibraryShapeCannotBeSaved() {
        var triangle = Path()
        triangle.addPolygon([Point(x: 0.5, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        let card = Card(imageElements: [
            ImageElement(imageFilename: "A"), ImageElement(imageFilename: "B", clip: .custom(triangle)),
        ])
        #expect { try CardEncoder.encode(card, file: "t.rwcard") } throws: { error in
            guard let error = error as? DocumentError, case .notRepresentable(let reason) = error.kind else { return false }
            return error.keyPath == "imageElements[1].frameIndex" && reason.contains("equals none of the app's 11 library shapes")
        }
    }

    @Test func legacyCardsNeedBothMissingKeysToCountAsLegacy() {
        #expect(throws: DocumentError(file: "t.rwcard", keyPath: "", kind: .missingKey("backgroundColor"))) {
            try decode(#"{"id":"\#(id)","imageElements":[],"textElements":[]}"#)
        }
    }
}
