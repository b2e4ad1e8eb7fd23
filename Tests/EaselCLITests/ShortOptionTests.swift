import EaselCairo
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// The short names rsvg-convert and resvg users type: `-o` for `--out` wherever it exists,
/// `-w` for `--width` (height stays long-only: `-h` is help).
@Suite("Short options -o and -w")
struct ShortOptionTests {
    @Test func exportTakesDashOAsOutAndDashWAsWidth() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "200x100", "--background", "tomato"])
        try s.ok(["export", "d.drawing", "--out", "long.png", "--width", "50"])
        try s.ok(["export", "d.drawing", "-o", "short.png", "-w", "50"])
        #expect(try s.bytes("short.png") == s.bytes("long.png"), "-o and -w mean --out and --width")
        #expect(try s.image("short.png").width == 50 && s.image("short.png").height == 25)
    }

    @Test func goldenDiffTakesDashOForItsComposite() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "a.drawing", "--size", "20x10", "--background", "white"])
        try s.ok(["new", "drawing", "b.drawing", "--size", "20x10", "--background", "black"])
        try s.ok(["export", "a.drawing", "-o", "a.png"])
        try s.ok(["export", "b.drawing", "-o", "b.png"])
        let result = try s.run(["golden", "diff", "a.png", "b.png", "-o", "composite.png"])
        #expect(result.status == 1, "the images differ: \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.folder.file("composite.png").path), "\(result.stderr)")
    }

    @Test func goldenVerifyAndRecordTakeDashW() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "200x100"])
        try s.ok(["golden", "record", "Docs", "Goldens", "-w", "40"])
        #expect(try s.image("Goldens/a.png").width == 40)
        try s.ok(["golden", "verify", "Docs", "Goldens", "-w", "40"])
    }
}
