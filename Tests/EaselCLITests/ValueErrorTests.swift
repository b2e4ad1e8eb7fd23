import EaselTestSupport
import Foundation
import Testing

/// A value Easel cannot read is refused with what was expected and an example, not only
/// "invalid": `--by 20: expected DX,DY, e.g. 20,0`.
@Suite("Value errors say what was expected")
struct ValueErrorTests {
    /// Command lines with one value Easel cannot read: the option, and what its error must say.
    static let cases: [([String], String, String)] = [
        (["move", "d.drawing", "0", "--by", "20"], "--by", "expected DX,DY, e.g. 20,0"),
        (["set", "d.drawing", "0", "--at", "x"], "--at", "expected X,Y in canvas units, e.g. 400,300"),
        (["add", "d.drawing", "line", "--from", "1"], "--from", "expected X,Y in canvas units"),
        (["add", "d.drawing", "line", "--from", "1,1", "--to", "1;1"], "--to", "expected X,Y in canvas units, e.g. 400,300"),
        (["set", "d.drawing", "0", "--size", "10"], "--size", "expected WxH in canvas units, e.g. 200x100"),
        (["new", "drawing", "e.drawing", "--size", "big"], "--size", "expected WxH, e.g. 800x600"),
        (["set", "d.drawing", "0", "--color", "blurple"], "--color", "expected a colour"),
        (["new", "card", "c.rwcard", "--background", "blurple"], "--background", "expected a colour"),
        (["set", "d.drawing", "0", "--dash", "6,x"], "--dash", "expected dash lengths ON,OFF[,ON,OFF…] or none, e.g. 6,3"),
        (["set", "d.drawing", "0", "--clip", "blob"], "--clip", "expected a clip shape"),
        // Values holding the words of ArgumentParser's message are the user's, said back whole.
        (["move", "d.drawing", "0", "--by", " is invalid for 'x"], "--by", "expected DX,DY, e.g. 20,0"),
        (["move", "d.drawing", "0", "--by", "1' is invalid for '--at': expected "], "--by", "expected DX,DY, e.g. 20,0"),
        (["set", "d.drawing", "0", "--color", "' is invalid for '"], "--color", "expected a colour"),
    ]

    @Test(arguments: cases)
    func anUnreadableValueSaysWhatWasExpected(arguments: [String], option: String, expected: String) throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100"])
        try s.ok(["add", "d.drawing", "ellipse"])
        let result = try s.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        let value = arguments[arguments.lastIndex(of: option)! + 1]
        #expect(first.hasPrefix("easel: error: \(option) \(value): \(expected)"), "\(arguments): \(first)")
    }

    @Test func theInteractiveSessionSaysItToo() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100"])
        try s.ok(["add", "d.drawing", "ellipse"])
        // The first value holds the words of ArgumentParser's message: the session says so and goes on.
        let result = try s.run(["edit", "d.drawing"], stdin: "move 0 --by \" is invalid for 'x\"\nmove 0 --by 20\n")
        #expect(result.stderr.contains("easel: error: --by  is invalid for 'x: expected DX,DY"), "\(result.stderr)")
        #expect(result.stderr.contains("easel: error: --by 20: expected DX,DY, e.g. 20,0"), "\(result.stderr)")
    }
}
