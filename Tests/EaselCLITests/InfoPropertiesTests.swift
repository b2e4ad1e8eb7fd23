import EaselEditing
import EaselTestSupport
import Foundation
import Testing

/// `easel info` shows every property the file holds, in its text and in `--json`: a dash
/// pattern, caps and joins, a text's alignment, a shape's parameters, a line's ends, a
/// path's commands, a custom clip, a card's id.
@Suite("info shows every property")
struct InfoPropertiesTests {
    static let drawing = #"""
        {"format":"org.easel.drawing","version":1,"canvas":{"size":[400,300]},"graphics":[
        {"kind":"rectangle","name":"box","transform":{"center":[100,100],"size":[80,40],"rotation":15},
         "fill":[1,0,0,1],"stroke":{"color":[0,0,0,1],"width":3,"dash":[6,3],"cap":"round","join":"bevel"},"opacity":0.5,
         "clip":"roundedRectangle"},
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

    @Test func theTextShowsEachPropertyTheDrawingHolds() throws {
        let s = CLIScratch()
        try s.folder.write(Self.drawing, to: "all.drawing")
        let info = try s.ok(["info", "all.drawing"])
        let lines = info.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(info.stdout)")
        guard lines.count == 8 else { return }
        for expected in [
            "[0] rectangle", "rotated 15°", "stroke #000000 width 3", "dash 6,3", "cap round", "join bevel", "opacity 0.5",
            "clip rounded-rectangle", "named box",
        ] {
            #expect(lines[1].contains(expected), "\(expected) in \(lines[1])")
        }
        #expect(lines[2].contains("[1] rounded-rectangle") && lines[2].contains("corner radius 12"), "\(lines[2])")
        #expect(lines[3].contains("7 sides"), "\(lines[3])")
        #expect(lines[4].contains("6 points") && lines[4].contains("inner ratio 0.4"), "\(lines[4])")
        #expect(
            lines[5].contains("from 150,175 to 250,225") && lines[5].contains("cap square") && lines[5].contains("join round"),
            "\(lines[5])")
        #expect(!lines[5].contains("dash"), "a solid line has no dash: \(lines[5])")
        #expect(
            lines[6].contains("path M 0 1 L 0.5 0 L 1 1 Z") && lines[6].contains("clip custom M 0 0 L 1 0 L 0 1 Z"), "\(lines[6])"
        )
        #expect(lines[7].contains("font DejaVu Sans 30") && lines[7].contains("aligned left"), "\(lines[7])")
    }

    /// The elements of `easel info --json`, as JSON objects.
    static func elements(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["elements"] as? [[String: Any]], "\(json)")
    }

    /// A JSON number, however JSONSerialization gives it.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: return number.doubleValue
        case let number as Double: return number
        case let number as Int: return Double(number)
        default: return nil
        }
    }

    /// A JSON array of numbers.
    static func numbers(_ value: Any?) -> [Double]? {
        guard let array = value as? [Any] else { return nil }
        let numbers = array.compactMap(number)
        return numbers.count == array.count ? numbers : nil
    }

    @Test func theJSONHoldsThemAll() throws {
        let s = CLIScratch()
        try s.folder.write(Self.drawing, to: "all.drawing")
        let info = try s.ok(["info", "all.drawing", "--json"])
        let e = try Self.elements(info.stdout)
        try #require(e.count == 7)
        #expect(Self.numbers(e[0]["dash"]) == [6, 3] && e[0]["cap"] as? String == "round" && e[0]["join"] as? String == "bevel")
        #expect(e[0]["clip"] as? String == "rounded-rectangle" && Self.number(e[0]["opacity"]) == 0.5)
        #expect(e[1]["kind"] as? String == "rounded-rectangle" && Self.number(e[1]["cornerRadius"]) == 12)
        #expect(
            Self.number(e[2]["sides"]) == 7 && Self.number(e[3]["points"]) == 6 && Self.number(e[3]["innerRadiusRatio"]) == 0.4)
        #expect(Self.numbers(e[4]["from"]) == [150, 175] && Self.numbers(e[4]["to"]) == [250, 225])
        #expect(Self.numbers(e[4]["dash"]) == [] && e[4]["cap"] as? String == "square")
        #expect(e[5]["path"] as? String == "M 0 1 L 0.5 0 L 1 1 Z" && e[5]["clipPath"] as? String == "M 0 0 L 1 0 L 0 1 Z")
        #expect(e[6]["alignment"] as? String == "left" && Self.number(e[6]["fontSize"]) == 30)
        // And it reads back as the library's value.
        let description = try JSONDecoder().decode(DocumentDescription.self, from: Data(info.stdout.utf8))
        #expect(description.elements.count == 7)
    }

    @Test func aCardShowsItsId() throws {
        let s = CLIScratch()
        let id = "1A2B3C4D-0000-4000-8000-0000000000AA"
        try s.ok(["new", "card", "\(id).rwcard"])
        #expect(try s.ok(["info", "\(id).rwcard"]).stdout.contains("id \(id)"))
        let json = try s.ok(["info", "\(id).rwcard", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["id"] as? String == id, "\(json.stdout)")
    }
}
