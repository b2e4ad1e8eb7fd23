import EaselTestSupport
import Foundation
import Testing

/// One name for each shape and clip wherever a user types or reads one (`add`, `--clip`,
/// `info`, help), the old spellings still accepted.
@Suite("One name per shape")
struct ShapeNamesTests {
    @Test func addAndInfoUseTheSameNamesAndTheOldOnesStillWork() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100"])
        let spellings: [(typed: String, shown: String)] = [
            ("rectangle", "rectangle"), ("rect", "rectangle"), ("rounded-rectangle", "rounded-rectangle"),
            ("rounded-rect", "rounded-rectangle"), ("roundedRectangle", "rounded-rectangle"), ("circle", "circle"),
        ]
        for (index, spelling) in spellings.enumerated() {
            let added = try s.ok(["add", "d.drawing", spelling.typed])
            #expect(
                added.stdout == "added \(spelling.shown) as element \(index) of d.drawing\n", "\(spelling.typed): \(added.stdout)"
            )
        }
        let info = try s.ok(["info", "d.drawing"]).stdout.split(separator: "\n").dropFirst()
        #expect(info.map { $0.split(separator: " ")[1].trimmingCharacters(in: .punctuationCharacters) } == spellings.map(\.shown))
    }

    @Test func clipsTakeTheSameNamesAndAliases() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100"])
        try s.ok(["add", "d.drawing", "ellipse"])
        for (typed, shown) in [
            ("rounded-rectangle", "rounded-rectangle"), ("roundedRectangle", "rounded-rectangle"),
            ("rounded-rect", "rounded-rectangle"), ("rect", "rectangle"), ("heart", "heart"),
        ] {
            let set = try s.run(["set", "d.drawing", "0", "--clip", typed])
            #expect(set.status == 0, "--clip \(typed): \(set.stderr)")
            #expect(try s.ok(["info", "d.drawing"]).stdout.contains("clip \(shown)"), "--clip \(typed)")
        }
    }

    @Test func helpAndErrorsListTheSameNames() throws {
        let s = CLIScratch()
        let names = "circle, rectangle, rounded-rectangle, heart, lens, chevron, cone, cloud, diamond, hexagon, octagon"
        let add = try s.ok(["add", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        #expect(add.contains("rectangle, rounded-rectangle, ellipse") && !add.contains("rounded-rect,"), "\(add)")
        let set = try s.ok(["set", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        #expect(set.contains(names), "\(set)")
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100"])
        let unknown = try s.run(["add", "d.drawing", "blob"])
        #expect(unknown.stderr.contains("rectangle, rounded-rectangle, ellipse"), "\(unknown.stderr)")
        let badClip = try s.run(["add", "d.drawing", "ellipse", "--clip", "blob"])
        #expect(badClip.status == 64 && badClip.stderr.contains(names), "\(badClip.stderr)")
    }
}
