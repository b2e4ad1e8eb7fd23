import EaselDocuments
import EaselEditing
import EaselGeometry
import Foundation
import Testing

/// The one table of element properties: names, values, bounds and kinds come from it, for
/// option text and JSON alike, with one set of messages.
@Suite("The element property table")
struct PropertyTableTests {
    static let star = Graphic(
        kind: .star(points: 5, innerRadiusRatio: 0.5),
        transform: GraphicTransform(center: Point(x: 50, y: 50), size: Size(width: 40, height: 40)),
        fill: .black)

    @Test func everyPropertyHasOneKeyOneOptionAndAKindThatHasIt() {
        let keys = ElementProperty.all.flatMap(\.keys), flags = ElementProperty.all.flatMap(\.flags)
        #expect(Set(keys).count == keys.count && Set(flags).count == flags.count, "no name is given twice")
        #expect(ElementProperty.strokeWidth.flag == "--stroke-width" && ElementProperty.fill.flags == ["--fill", "--color"])
        for property in ElementProperty.all {
            #expect(ElementProperty.named(property.key)?.key == property.key)
            #expect(ElementProperty.forFlag(property.flag)?.key == property.key)
            let schema = EditSchema().properties.first { $0.key == property.key }
            #expect(schema != nil && !(schema!.card + schema!.drawing).isEmpty, "\(property.key) applies to something")
        }
    }

    @Test func optionTextAndJSONGiveTheSameValuesAndMessages() throws {
        #expect(try ElementProperty.at.value(fromText: "400,300") == .point(Point(x: 400, y: 300)))
        #expect(try ElementProperty.size.value(fromText: "200x100") == .size(Size(width: 200, height: 100)))
        #expect(try ElementProperty.dash.value(fromText: "none") == .lengths([]))
        #expect(try ElementProperty.clip.value(fromText: "rounded-rect") == .clip(.library(.roundedRectangle)))
        #expect(try ElementProperty.shadowColor.value(fromText: "none") == .color(nil))
        #expect(throws: EditError("the opacity must be from 0 to 1, not 2", isInvalidRequest: true, property: "opacity")) {
            try ElementProperty.opacity.value(fromText: "2")
        }
        #expect(
            throws: EditError("the shadow blur must be from 0 to 1000, not -1", isInvalidRequest: true, property: "shadowBlur")
        ) {
            try ElementProperty.shadowBlur.check(.number(-1))
        }
        let error = #expect(throws: EditError.self) { try ElementProperty.cap.value(fromText: "pointy") }
        #expect(error?.message == "expected butt, round or square" && error?.property == "cap")
    }

    @Test func aGraphicTakesOnlyThePropertiesItsKindHas() throws {
        var changes = ElementChanges()
        changes[.points] = .integer(7)
        changes[.shadowBlur] = .number(5)
        let changed = try Self.star.applying(changes)
        #expect(changed.kind == .star(points: 7, innerRadiusRatio: 0.5))
        #expect(changed.shadow == Shadow(blur: 5), "a shadow is made with the defaults, then given its blur")
        var font = ElementChanges()
        font[.font] = .text("Gill Sans")
        #expect(throws: EditError("a star has no font", property: "font")) { try Self.star.applying(font) }
        var card = ElementChanges()
        card[.shadowBlur] = .number(5)
        let text = CardElement.text(TextElement(text: "Hi"))
        #expect(throws: EditError("a card's text has no shadow blur: the Cards app stores no shadows", property: "shadowBlur")) {
            try text.applying(card)
        }
    }

    @Test func noneIsAppliedLastSoItWins() throws {
        var changes = ElementChanges()
        changes[.strokeWidth] = .number(3)
        changes[.stroke] = .color(nil)
        changes[.shadowColor] = .color(nil)
        changes[.shadowOffset] = .point(Point(x: 1, y: 1))
        var stroked = Self.star
        stroked.stroke = Stroke(width: 1)
        stroked.shadow = Shadow()
        let changed = try stroked.applying(changes)
        #expect(changed.stroke == nil && changed.shadow == nil)
    }

    @Test func aLineIsPlacedByItsEndsOnTheCanvas() throws {
        var line = Graphic(kind: .line(from: Point(x: 0, y: 0.5), to: Point(x: 1, y: 0.5)), transform: Self.star.transform)
        var changes = ElementChanges()
        changes[.from] = .point(Point(x: 10, y: 10))
        changes[.to] = .point(Point(x: 110, y: 60))
        line = try line.applying(changes)
        #expect(ElementProperty.from.value(of: line) == .point(Point(x: 10, y: 10)))
        #expect(ElementProperty.to.value(of: line) == .point(Point(x: 110, y: 60)))
        #expect(line.transform.center == Point(x: 60, y: 35) && line.transform.size == Size(width: 100, height: 50))
    }

    @Test func theSchemaListsKindsAndPalettes() throws {
        let schema = EditSchema()
        let shadow = try #require(schema.properties.first { $0.key == "shadowBlur" })
        #expect(shadow.card.isEmpty && shadow.drawing.contains("star") && shadow.drawing.contains("group"))
        #expect(shadow.type == "number" && shadow.min == 0 && shadow.max == DrawingLimits.maxShadowBlur)
        let fill = try #require(schema.properties.first { $0.key == "fill" })
        #expect(fill.card == ["text"] && !fill.drawing.contains("line") && fill.aliases == ["color"])
        #expect(schema.properties.first { $0.key == "clip" }?.card == ["image"])
        #expect(schema.palettes["textColors"]?["appColor5"] == "#000000" && schema.palettes["cardBackgrounds"]?.count == 8)
        #expect(schema.properties.map(\.key) == ElementProperty.all.map(\.key))
    }
}
