import EaselTestSupport
import Foundation
import Testing

/// `easel export`'s arguments: what makes no sense is a usage error (exit 64) that says what
/// to give, before anything is read or written; what is fine is honoured, not ignored.
@Suite("easel export: arguments that make no sense are usage errors")
struct ExportArgumentTests {
    /// Arguments after `easel export`, and what the error must say.
    static let refused: [([String], String)] = [
        (["d.drawing", "--out", "x.png", "--scale=0"], "--scale must be a positive number"),
        (["d.drawing", "--out", "p.jpg"], "easel writes PNG, SVG and PDF; --out p.jpg ends in .jpg"),
        (["d.drawing", "--out", "p.webp"], "ends in .webp"),
        (["d.drawing", "--out", "x.svg", "--format", "png"], "--out x.svg names a .svg file but --format is png"),
        (["d.drawing", "--out", "a.drawing"], "ends in .drawing"),
        (["d.drawing", "--out", "f.png", "--width", "100", "--fit", "cover"], "--fit says how the canvas meets"),
        (["d.drawing", "--out", "d.png", "--thumbnails"], "--thumbnails applies to exports into a folder"),
        (["d.drawing", "--out", "d.png", "--report", "r.json"], "--report applies"),
        (["d.drawing", "--out", "d.png", "--shard", "1/2"], "--shard applies"),
        (["d.drawing", "--out", "d.png", "--jobs", "2"], "--jobs applies"),
        (["in", "--out", "out", "--shard", "4/3"], "--shard must be K/N with 1 ≤ K ≤ N"),
        (["-", "d.drawing", "--out", "x/"], "- reads one document from standard input"),
        (["d.drawing", "--out", "-", "--base", "in"], "--base is for a document read from standard input"),
        (["-", "--out", "x.png", "--watch"], "--watch watches files"),
        (["in", "--out", "in/png"], "--exclude"),
    ]

    @Test(arguments: refused)
    func isRefusedWithWhatToGive(arguments: [String], said: String) throws {
        let s = CLIScratch()
        try s.drawing("d.drawing")
        try s.drawing("in/a.drawing")
        let result = try s.run(["export"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("easel: error: ") && result.stderr.contains(said), "\(arguments): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.path).sorted() == ["d.drawing", "in"])
    }

    @Test func aNegativeNumberAfterASpaceGetsTheValuesMessageNotMissingValue() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing")
        let expected = [
            "--scale": "--scale must be a positive number", "--width": "--width must be a positive number of pixels",
            "--height": "--height must be a positive number of pixels", "--dpi": "--dpi must be more than 0",
        ]
        for (option, message) in expected {
            let result = try s.run(["export", "d.drawing", "--out", "x.png", option, "-1"])
            #expect(result.status == 64, "\(option)")
            #expect(result.stderr.contains(message), "\(option): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(option)")
        }
    }

    @Test(arguments: ["0", "-3", "nan", "inf", "1e9"])
    func aTimeoutThatIsNoTimeIsRefused(value: String) throws {
        let s = CLIScratch()
        try s.drawing("d.drawing")
        let refused = try s.run(["export", "d.drawing", "--out", "q.png", "--timeout", value])
        #expect(refused.status == 64 && refused.stderr.contains("--timeout must be a number of seconds"), "\(refused.stderr)")
    }

    /// `easel export` is parsed as that command alone when it can be (`EaselRoot.parsedDirectly`);
    /// help, completion and every error still come from the root, in the root's words.
    @Test func helpAndErrorsAreTheRootsHoweverTheExportIsParsed() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing")
        for arguments in [["export", "--help"], ["export", "-h"], ["export", "d.drawing", "--out", "x.png", "--help"]] {
            let help = try s.run(arguments)
            #expect(help.status == 0 && help.stdout.contains("USAGE: easel export "), "\(arguments): \(help.stdout)")
        }
        let completion = try s.run(["export", "--generate-completion-script", "bash"])
        #expect(completion.status == 0 && completion.stdout.contains("_easel"), "\(completion.stdout.prefix(200))")
        let unknown = try s.run(["export", "d.drawing", "--out", "x.png", "--bogus"])
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("easel: error: "), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("easel export"), "the usage line names the whole command: \(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("x.png").path))
        try s.ok(["export", "d.drawing", "--out", "x.png"])
        #expect(try s.image("x.png").width > 0)
    }

    @Test func whatMakesSenseIsHonoured() throws {
        let s = CLIScratch()
        try s.drawing("d.drawing", 40, 30)
        try s.ok(["export", "d.drawing", "--out", "d.svg"])
        #expect(String(decoding: try s.bytes("d.svg"), as: UTF8.self).contains("<svg"), "the format follows the extension")
        try s.ok(["export", "d.drawing", "--out", "d.bin", "--format", "png"])
        #expect(try s.image("d.bin").width == 40, "an explicit format for another extension")
        try s.ok(["export", "d.drawing", "--out", "q.png", "--timeout", "60"])
        #expect(try s.image("q.png").width == 40, "a generous timeout changes nothing")
        // Into a folder, the folder-only options are honoured.
        try s.ok(["export", "d.drawing", "--out", "out/", "--thumbnails", "--report", "r.json"])
        #expect(FileManager.default.fileExists(atPath: s.folder.file("out/d.thumbnail.png").path))
        #expect(FileManager.default.fileExists(atPath: s.folder.file("r.json").path))
    }
}
