import EaselDocuments
import EaselEditing
import EaselTestSupport
import Foundation
import Testing

/// A session line is bounded before any work goes into it: options repeated thousands of
/// times are merged (the last counts) so parsing stays linear, a command has at most 256
/// words once merged, and a line over 64 KiB is refused as it is read.
@Suite("easel edit session limits")
struct EditSessionLimitsTests {
    func drawing(_ s: CLIScratch) throws -> Drawing {
        var warnings: [DocumentWarning] = []
        let url = s.folder.file("d.drawing")
        return try Drawing(decoding: Array(Data(contentsOf: url)), file: url.path, warnings: &warnings)
    }

    @Test func optionsRepeatedThousandsOfTimesMeanTheirLastValue() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "100x100"])
        try s.ok(["add", "d.drawing", "rectangle", "--at", "10,10", "--size", "4x4"])
        // 7,000 repeats (63 KB, under the line limit), each form of the option.
        let move = "move 0 " + Array(repeating: "--by 1,1", count: 7_000).joined(separator: " ") + " --by=5,7"
        let set =
            "set 0 " + Array(repeating: "--fill red --stroke=blue", count: 2_000).joined(separator: " ")
            + " --fill tomato --stroke-width 3"
        let result = try s.run(["edit", "d.drawing"], stdin: move + "\n" + set + "\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("moved element 0 of d.drawing to 15,17"), "moved once, by the last --by: \(result.stdout)")
        let info = try s.ok(["info", "d.drawing"]).stdout
        #expect(info.contains("fill #FF6347, stroke #0000FF, stroke-width 3"), "the last --fill, the only --stroke: \(info)")
        #expect(try drawing(s).graphics.count == 1)
    }

    @Test func aCommandWithTooManyWordsIsRefusedAndTheSessionGoesOn() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let flood = "add star " + Array(repeating: "extra", count: 300).joined(separator: " ")
        let result = try s.run(["edit", "d.drawing"], stdin: flood + "\nadd heart\nquit\n")
        #expect(result.status == 1, "a command failed")
        #expect(result.stderr.contains("this add command has 301 words; a command takes at most 256"), "\(result.stderr)")
        #expect(try drawing(s).graphics.count == 1, "the next command ran")
    }

    @Test func aLineOfAMebibyteIsRefusedAtOnceWithTheLimit() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let line = "move 0 --by " + String(repeating: "1", count: 1 << 20)
        try s.folder.write("add star\n" + line + "\nadd heart\n", to: "script.txt")
        // From a file: the session stops reading mid-line, and a pipe would break under us.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "exec \"$0\" edit d.drawing < script.txt", s.easel.path],
            environment: s.environment, currentDirectory: s.folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("an input line is longer than 65536 bytes; that is not a command, so the session stops"),
            "\(result.stderr)")
        #expect(try drawing(s).graphics.count == 1, "what came before is saved, nothing after runs")
    }
}
