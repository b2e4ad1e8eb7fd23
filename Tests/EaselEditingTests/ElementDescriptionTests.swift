import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

/// What `easel info` and the server say about elements: every property the file holds, by
/// the property table's names, in one line of text and in JSON that reads back.
@Suite("Element descriptions show every property")
struct ElementDescriptionTests {
    static let drawing = #"""
        {"format":"org.easel.drawing","version":1,"canvas":{"size":[400,300]},"graphics":[
        {"kind":"rectangle","name":"box","transform":{"center":[100,100],"size":[80,40],"rotation":15},
         "fill":[1,0,0,1],"stroke":{"color":[0,0,0,1],"width":3,"dash":[6,3],"cap":"round","join":"bevel"},"opacity":0.5,
         "clip":"roundedRectangle","shadow":{"color":"#00000080","offset":[4,5],"blur":6}},
        {"kind":"roundedRectangle","cornerRadius":12,"transform":{"center":[200,100],"size":[80,40],"rotation":0}},
        {"kind":"polygon","sides":7,"transform":{"center":[300,100],"size":[80,80],"rotation":0}},
        {"kind":"star","points":6,"innerRadiusRatio":0.4,"transform":{"center":[100,200],"size":[80,80],"rotation":0}},
        {"kind":"line","from":[0,0],"to":[1,1],"transform":{"center":[200,200],"size":[100,50],"rotation":0},
         "stroke":{"color":[0,0,1,1],"width":2,"dash":[],"cap":"square","join":"round"}},
        {"kind":"path","elements":[["move",0,1],["line",0.5,0],["line",1,1],["close"]],
         "transform":{"center":[300,200],"size":[60,60],"rotation":0},
         "clip":{"path":[["move",0,0],["line",1,0],["line",0,1],["close"]]}},
        {"kind":"text","text":"Hi","font":"DejaVu Sans","fontSize":30,"alignment":"left",
         "transform":{"center":[200,270],"size":[300,40],"rotation":0},"fill":[0,0,0,1]}
        ]}
        """#

    static func elements() throws -> [ElementDescription] {
        var warnings: [DocumentWarning] = []
        let drawing = try Drawing(decoding: Array(drawing.utf8), file: "all.drawing", warnings: &warnings)
        return drawing.elementDescriptions(resourceFolder: URL(fileURLWithPath: "/nonexistent"))
    }

    @Test func eachLineNamesThePropertiesAsTheOptionsDo() throws {
        let lines = try Self.elements().map(\.summary)
        #expect(
            lines[0]
                == #"[0] rectangle, at 100,100, size 80x40, rotation 15, fill #FF0000, stroke #000000, stroke-width 3, dash 6,3, cap round, join bevel, opacity 0.5, clip rounded-rectangle, shadow-color #00000080, shadow-offset 4,5, shadow-blur 6, name "box""#
        )
        #expect(lines[1] == "[1] rounded-rectangle, at 200,100, size 80x40, corner-radius 12")
        #expect(lines[2] == "[2] polygon, at 300,100, size 80x80, sides 7")
        #expect(lines[3] == "[3] star, at 100,200, size 80x80, points 6, inner-ratio 0.4")
        #expect(
            lines[4]
                == "[4] line, at 200,200, size 100x50, stroke #0000FF, stroke-width 2, cap square, join round, from 150,175, to 250,225",
            "a solid line shows no dash; the format's defaults are left out")
        #expect(
            lines[5]
                == #"[5] path, at 300,200, size 60x60, clip custom, path "M 0 1 L 0.5 0 L 1 1 Z", clip-path M 0 0 L 1 0 L 0 1 Z"#,
            "a path's outline is a property of the table: set by --path, shown as the option takes it")
        #expect(
            lines[6]
                == #"[6] text, at 200,270, size 300x40, fill #000000, text "Hi", font "DejaVu Sans", font-size 30, align left"#)
    }

    @Test func theJSONUsesTheEditKeysAndReadsBack() throws {
        let elements = try Self.elements()
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(elements)) as! [[String: Any]]
        #expect(json[0]["at"] as? [Double] == [100, 100] && json[0]["dash"] as? [Double] == [6, 3])
        #expect(json[0]["clip"] as? String == "rounded-rectangle" && json[0]["shadowBlur"] as? Double == 6)
        #expect(json[0]["shadowColor"] as? String == "#00000080" && json[0]["shadowOffset"] as? [Double] == [4, 5])
        #expect(json[1]["cornerRadius"] as? Double == 12 && json[2]["sides"] as? Int == 7)
        #expect(json[3]["points"] as? Int == 6 && json[3]["innerRatio"] as? Double == 0.4)
        #expect(json[4]["from"] as? [Double] == [150, 175] && json[4]["to"] as? [Double] == [250, 225])
        #expect(json[4]["dash"] as? [Double] == [] && json[4]["cap"] as? String == "square" && json[4]["fill"] == nil)
        #expect(json[5]["path"] as? String == "M 0 1 L 0.5 0 L 1 1 Z" && json[5]["clipPath"] as? String == "M 0 0 L 1 0 L 0 1 Z")
        #expect(json[6]["align"] as? String == "left" && json[6]["fontSize"] as? Double == 30)
        #expect(try JSONDecoder().decode([ElementDescription].self, from: JSONEncoder().encode(elements)) == elements)
    }

    @Test func aCardDescribesItsElementsAndId() throws {
        let id = UUID(uuidString: "1A2B3C4D-0000-4000-8000-0000000000AA")!
        let card = Card(
            id: id, imageElements: [ImageElement(imageFilename: "missing", clip: .library(.heart))],
            textElements: [TextElement(text: "Hi", textColor: .white, textFont: "Chalkduster")])
        let description = DocumentDescription(
            card, at: URL(fileURLWithPath: "c.rwcard"), resourceFolder: URL(fileURLWithPath: "/nonexistent"), warnings: [])
        #expect(description.id == id.uuidString)
        #expect(
            description.elements[0].summary.hasPrefix(
                "[0] image, at 650,1000, size 800x800, clip heart, image missing (not found)"))
        #expect(description.elements[1].summary.hasSuffix(#"fill #FFFFFF, text "Hi", font "Chalkduster""#))
    }
}
