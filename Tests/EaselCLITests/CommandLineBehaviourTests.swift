import Testing
import Foundation
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselTestSupport

/// Bad input for every command: a non-zero exit, one clear line naming the file and the
/// problem, and every file left as it was.
@Suite("Bad input")
struct BadInputTests {
    /// A negative number after a numeric option is its value, refused with what is wrong
    /// with it, not read as an unknown option ("Missing value for '--size'").
    @Test func negativeNumbersAreValuesNotOptions() throws {
        let s = CLIScratch()
        let new = try s.run(["new", "drawing", "d.drawing", "--size", "-5x10"])
        #expect(new.status == 64 && new.stderr.contains("easel: error: --size -5x10: expected WxH"), "\(new.stderr)")
        try s.ok(["new", "drawing", "d.drawing", "--size", "50x50"])
        let stroke = try s.run(["add", "d.drawing", "rect", "--stroke-width", "-3"])
        #expect(
            stroke.status == 64 && stroke.stderr.contains("--stroke-width -3: the stroke width must be from 0 to"),
            "\(stroke.stderr)")
        let level = try s.run(["export", "d.drawing", "--out", "x.png", "--png-compression", "-1"])
        #expect(level.status == 64 && level.stderr.contains("must be from 0 to 9"), "\(level.stderr)")
        let jobs = try s.run(["export", "d.drawing", "--out", "x.png", "--jobs", "-2"])
        #expect(jobs.status == 64 && !jobs.stderr.contains("Missing value"), "\(jobs.stderr)")
    }

    static let editingCommands: [[String]] = [
        ["info", "$F"], ["add", "$F", "star"], ["set", "$F", "0", "--fill", "red"], ["move", "$F", "0", "--by", "1,1"],
        ["remove", "$F", "0"], ["order", "$F", "0", "front"], ["align", "$F", "left", "0"],
        ["distribute", "$F", "vertical", "0", "1", "2"], ["background", "$F", "red"], ["undo", "$F"], ["redo", "$F"],
        ["export", "$F", "--out", "out.png"],
    ]

    func snapshot(_ s: CLIScratch) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: s.folder.path) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: s.folder.file(name).path, isDirectory: &isFolder)
            if !isFolder.boolValue { files[name] = try s.bytes(name) }
        }
        return files
    }

    func expectFailure(
        _ s: CLIScratch, _ arguments: [String], mentions: [String], status: Int32 = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try snapshot(s)
        let result = try s.run(arguments)
        #expect(
            result.status == status, "easel \(arguments.joined(separator: " ")): status \(result.status)",
            sourceLocation: sourceLocation)
        for text in mentions {
            #expect(
                result.stderr.contains(text), "easel \(arguments.joined(separator: " ")): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        if status == 1 {
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(
            try snapshot(s) == before, "easel \(arguments.joined(separator: " ")) changed files", sourceLocation: sourceLocation)
    }

    @Test func aMissingFile() throws {
        let s = CLIScratch()
        for command in Self.editingCommands {
            try expectFailure(s, command.map { $0 == "$F" ? "missing.drawing" : $0 }, mentions: ["missing.drawing"])
        }
    }

    @Test func aFolder() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("folder.drawing"), withIntermediateDirectories: true)
        for command in Self.editingCommands {
            try expectFailure(
                s, command.map { $0 == "$F" ? "folder.drawing" : $0 }, mentions: ["folder.drawing", "drawing.json"])
        }
    }

    @Test func aCorruptDocument() throws {
        let s = CLIScratch()
        try s.folder.write(#"{"version": 1, "canvas": {"size": [10, "wide"]}, "graphics": []}"#, to: "bad.drawing")
        for command in Self.editingCommands {
            try expectFailure(
                s, command.map { $0 == "$F" ? "bad.drawing" : $0 },
                mentions: ["bad.drawing: canvas.size[1]: expected a number, found the string \"wide\""])
        }
    }

    @Test func anUnsupportedFileType() throws {
        let s = CLIScratch()
        try s.folder.write("hello", to: "notes.txt")
        try expectFailure(
            s, ["info", "notes.txt"],
            mentions: ["notes.txt: the extension .txt is not a supported document type (supported: .rwcard, .drawing)"])
    }

    @Test func anUnreadableFile() throws {
        guard getuid() != 0 else { return }  // root reads anything; the check is for ordinary users
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        chmod(s.folder.file("d.drawing").path, 0)
        defer { chmod(s.folder.file("d.drawing").path, 0o644) }
        try expectFailure(s, ["info", "d.drawing"], mentions: ["d.drawing", "Permission denied"])
    }

    @Test func alignAndDistributeTakeAnEdgeOrAxisAndTheElements() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "400x300"])
        for (x, y) in [(50, 40), (300, 90), (130, 200)] { try s.ok(["add", "d.drawing", "star", "--at", "\(x),\(y)"]) }
        let aligned = try s.run(["align", "d.drawing", "top", "0", "1", "2"])
        #expect(
            aligned.status == 0 && aligned.stdout.contains("aligned 3 element(s) of d.drawing on the top"), "\(aligned.stdout)")
        let distributed = try s.run(["distribute", "d.drawing", "horizontal", "2", "0", "1"])
        #expect(distributed.status == 0, "\(distributed.stderr)")
        let info = try s.run(["info", "d.drawing"]).stdout
        #expect(info.contains("at 50,40") && info.contains("at 300,40") && info.contains("at 175,40"), "\(info)")
        let few = try s.run(["distribute", "d.drawing", "vertical", "0", "1"])
        #expect(few.status == 64 && few.stderr.contains("distribute spaces three or more elements; 2 given"), "\(few.stderr)")
    }

    @Test func anOutOfRangeIndex() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["add", "d.drawing", "star"])
        for command in [
            ["set", "d.drawing", "5", "--fill", "red"], ["move", "d.drawing", "3", "--by", "-1,1"], ["remove", "d.drawing", "1"],
            ["order", "d.drawing", "7", "back"], ["align", "d.drawing", "top", "0", "4"],
        ] {
            try expectFailure(
                s, command, mentions: ["d.drawing: element", "does not exist: the drawing has 1 element, numbered 0 to 0"])
        }
    }

    @Test func malformedOptionsAreUsageErrors() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["add", "d.drawing", "star"])
        for (command, message) in [
            (["add", "d.drawing", "star", "--at", "ten,20"], "--at"),
            (["add", "d.drawing", "star", "--fill", "#12"], "--fill #12: expected a colour"),
            (["add", "d.drawing", "blob"], "unknown kind \"blob\""),
            (["add", "d.drawing", "text"], "needs its string"),
            (["set", "d.drawing", "0"], "Nothing to change"),
            (["set", "d.drawing", "0", "--opacity", "2"], "--opacity 2: the opacity must be from 0 to 1"),
            (["move", "d.drawing", "0"], "--by"),
            (["order", "d.drawing", "0", "sideways"], "sideways"),
            (["align", "d.drawing", "diagonal", "0"], "diagonal"),
            (["distribute", "d.drawing", "sideways", "0", "1", "2"], "sideways"),
            (["export", "d.drawing", "--out", "x.png", "--scale", "2", "--width", "10"], "Give one of --scale"),
            (["new", "drawing", "x.png"], "must end in .drawing"),
            (["config", "set", "jobs", "many"], "not a valid jobs"),
            (["frobnicate"], "'frobnicate' is not a command"),
        ] {
            try expectFailure(s, command, mentions: [message], status: 64)
        }
        // A usage error found while the command runs shows that command's usage, as one found
        // while parsing does, not the top level's.
        for (command, usage) in [
            (["export", "d.drawing", "--area", "9", "--out", "x.png"], "Usage: easel export "),
            (["add", "d.drawing", "path", "L 1 1"], "Usage: easel add "),
        ] {
            try expectFailure(s, command, mentions: [usage, "See 'easel \(command[0]) --help'"], status: 64)
        }
        try expectFailure(
            s, ["export", "d.drawing", "--area", "9", "--out", "x.png"],
            mentions: ["--area 9: d.drawing: element 9 does not exist: the drawing has 1 element, numbered 0 to 0."], status: 64)
    }

    @Test func anOutputThatCannotBeWrittenIsAnErrorNotACrash() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        try s.ok(["add", "d.drawing", "star"])
        let easel = s.easel.path
        // A full device, and a closed standard output (whose number the first file Easel
        // opens must not take: the output would go into that file).
        for (redirect, reason) in [("> /dev/full", "No space left on device"), (">&-", "Bad file descriptor")] {
            for command in ["info d.drawing", "validate . --json", "export d.drawing --out - --format png"] {
                let result = try ProcessRunner.run(
                    URL(fileURLWithPath: "/bin/sh"), ["-c", "exec '\(easel)' \(command) \(redirect)"], environment: s.environment,
                    currentDirectory: s.folder.url)
                #expect(result.status == 1, "\(command) \(redirect): \(result.stderr)")
                #expect(
                    result.stderr.contains("easel: error: cannot write to standard output: \(reason)"), "\(command) \(redirect)")
                #expect(!result.stderr.contains("Fatal error"), "\(command) \(redirect)")
            }
        }
        #expect(try s.ok(["info", "d.drawing"]).stdout.contains("1 element"))
    }

    @Test func editsThatCannotApplySayWhy() throws {
        let s = CLIScratch()
        try s.ok(["new", "card", "c.rwcard"])
        try expectFailure(s, ["add", "c.rwcard", "star"], mentions: ["c.rwcard: a card holds only images and texts"])
        try expectFailure(s, ["add", "c.rwcard", "image", "nothere.png"], mentions: ["nothere.png"])
        try s.folder.write("not png", to: "fake.png")
        try expectFailure(s, ["add", "c.rwcard", "image", "fake.png"], mentions: ["fake.png", "not a PNG image"])
        try expectFailure(s, ["new", "card", "c.rwcard"], mentions: ["c.rwcard: already exists"])
        try expectFailure(s, ["background", "c.rwcard", "none"], mentions: ["a card always has a background colour"])
    }

    @Test func anImageThatCouldNeverBeDrawnIsNotAddedToADrawing() throws {
        // A PNG whose header claims 100000x100000 pixels: refused as for a card, nothing copied.
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let length = withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init)
            let crc = withUnsafeBytes(of: crc32(body).bigEndian, Array.init)
            return length + body + crc
        }
        let side = withUnsafeBytes(of: UInt32(100_000).bigEndian, Array.init)
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", side + side + [8, 2, 0, 0, 0])
            + chunk("IEND", [])
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        let huge = try s.folder.write(png, to: "elsewhere/huge.png")
        let before = try s.bytes("d.drawing")
        let refused = try s.run(["add", "d.drawing", "image", huge.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("100000x100000 pixels, over the limit"), "\(refused.stderr)")
        #expect(try s.bytes("d.drawing") == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.folder.url.path).sorted() == [
                ".easel.lock", "d.drawing", "elsewhere",
            ])
    }
}

@Suite("validate, config, info, completion")
struct CommandLineBehaviourTests {
    @Test func validateListsEveryProblemAndExits1() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "good.drawing"])
        try FileManager.default.createDirectory(at: s.folder.file("Cards"), withIntermediateDirectories: true)
        try s.ok(["new", "card", "Cards/ok.rwcard"])
        try s.folder.write(
            #"{"id":"x","imageElements":[{"transform":{"size":[10,10],"rotation":{"degrees":0},"offset":[0,0]},"imageFilename":"../etc"}],"textElements":[],"backgroundColor":[1,1,1,1]}"#,
            to: "Cards/refused.rwcard")
        try s.folder.write("{", to: "Cards/broken.rwcard")
        #expect(try s.run(["validate", "good.drawing"]).status == 0)
        let missing = try s.run(["validate", "missing.drawing"])
        #expect(missing.status == 1 && missing.stdout == "error: missing.drawing: no such file or folder\n")
        let result = try s.run(["validate", "Cards", "good.drawing"])
        #expect(result.status == 1)
        // Paths as the user gave them.
        #expect(result.stdout.contains("error: Cards/broken.rwcard: not valid JSON at line 1, column 2"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "refused.rwcard: imageElements[0].imageFilename: the image name \"../etc\" contains a path separator"))
        #expect(result.stdout.contains("ok Cards/ok.rwcard"))
        #expect(result.stderr.contains("4 documents checked: 2 ok, 1 with warnings, 1 invalid"))
        // Warnings alone exit 0 (the app's own preview cards have images never saved); --strict fails them.
        try FileManager.default.removeItem(at: s.folder.file("Cards/broken.rwcard"))
        let warned = try s.run(["validate", "Cards"])
        #expect(warned.status == 0 && warned.stdout.contains("warning:"), "\(warned.stdout)")
        #expect(try s.run(["validate", "Cards", "--strict"]).status == 1)
        #expect(try s.run(["validate", ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples").path]).status == 0)
        let json = try s.run(["validate", "Cards", "--json"])
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.count == 2)
    }

    @Test func configSetsDefaultsThatOptionsOverride() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing", "--size", "100x50"])
        try s.ok(["config", "set", "format", "svg"])
        try s.ok(["config", "set", "scale", "2"])
        #expect(try s.ok(["config", "get", "format"]).stdout == "svg\n")
        #expect(try s.ok(["config", "list"]).stdout.contains("scale = 2.0"))
        try s.ok(["export", "d.drawing", "--out", "d"])
        #expect(String(decoding: try s.bytes("d"), as: UTF8.self).contains("<svg"), "the default format is used")
        #expect(String(decoding: try s.bytes("d"), as: UTF8.self).contains("width=\"200px\""), "and the default scale")
        try s.ok(["export", "d.drawing", "--out", "d.png", "--scale", "1"])
        #expect(try s.image("d.png").width == 100, "options and the output's extension win")
        try s.ok(["config", "reset"])
        let unset = try s.ok(["config", "get", "format"])
        #expect(unset.stdout == "png (default)\n", "unset after a reset: the value that applies, marked")
        #expect(try s.ok(["config", "list"]).stdout.contains("format = png (default)"))
        // A settings folder that cannot be made is said in words, naming it (not a raw error dump).
        try FileManager.default.removeItem(at: s.config.file("easel"))
        _ = try s.config.write("a file in the way", to: "easel")
        let blocked = try s.run(["config", "set", "format", "svg"])
        #expect(
            blocked.status == 1 && blocked.stderr.contains("\(s.config.file("easel").path): Not a directory"), "\(blocked.stderr)"
        )
        #expect(!blocked.stderr.contains("CocoaError"), "\(blocked.stderr)")
        // A settings file that cannot be read is not replaced by one setting; one that is a
        // link (kept with other dotfiles) is written where it leads.
        try FileManager.default.removeItem(at: s.config.file("easel"))
        let broken = "<plist><dict><key>scale</key><string>3</string><key>format</key><string>svg</string"
        _ = try s.config.write(broken, to: "easel/settings.plist")
        let refused = try s.run(["config", "set", "jobs", "3"])
        #expect(refused.status == 1 && refused.stderr.contains("writing a setting would lose the others"), "\(refused.stderr)")
        #expect(String(decoding: try Data(contentsOf: s.config.file("easel/settings.plist")), as: UTF8.self) == broken)
        _ = try s.config.write("", to: "dotfiles/easel.plist")
        try FileManager.default.removeItem(at: s.config.file("easel/settings.plist"))
        try FileManager.default.createSymbolicLink(
            atPath: s.config.file("easel/settings.plist").path, withDestinationPath: s.config.file("dotfiles/easel.plist").path)
        try FileManager.default.removeItem(at: s.config.file("dotfiles/easel.plist"))
        try s.ok(["config", "set", "jobs", "3"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: s.config.file("easel/settings.plist").path)
                == s.config.file("dotfiles/easel.plist").path, "still a link")
        #expect(try s.ok(["config", "set", "scale", "2"]).status == 0)
        let linked = String(decoding: try Data(contentsOf: s.config.file("dotfiles/easel.plist")), as: UTF8.self)
        #expect(linked.contains("<key>jobs</key>") && linked.contains("<key>scale</key>"), "\(linked)")
    }

    @Test func aCorruptSettingsFileIsReportedAndIgnored() throws {
        let s = CLIScratch()
        try s.config.write("this is not a property list", to: "easel/settings.plist")
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x20"])
        let result = try s.run(["export", "d.drawing", "--out", "d.png"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("easel: warning: settings:") && result.stderr.contains("using the defaults"))
        #expect(try s.image("d.png").width == 40)
    }

    @Test func infoShowsElementsAndWarnings() throws {
        let s = CLIScratch()
        try s.folder.write(
            #"{"id":"1A2B3C4D-0000-4000-8000-00000000000A","imageElements":[{"transform":{"size":[400,300],"rotation":{"degrees":15},"offset":[0,-100]},"imageFilename":"GONE","frameIndex":3}]}"#,
            to: "legacy.rwcard")
        let result = try s.ok(["info", "legacy.rwcard"])
        #expect(result.stdout.contains("card, id 1A2B3C4D-0000-4000-8000-00000000000A, 1300x2000, background #FFCC00, 1 element"))
        #expect(result.stdout.contains("[0] image, at 650,900, size 400x300, rotation 15, clip heart, image GONE (not found)"))
        #expect(result.stdout.contains("warning: ") && result.stdout.contains("legacy card"))
        #expect(
            result.stdout.contains("legacy.rwcard: imageElements[0].imageFilename: the image file \"GONE\" is missing"),
            "the key path, as validate gives it: \(result.stdout)")
    }

    @Test func completionScriptsAndHelp() throws {
        let s = CLIScratch()
        for shell in ["bash", "zsh", "fish"] {
            let result = try s.ok(["--generate-completion-script", shell])
            #expect(result.stdout.contains("easel"))
        }
        let help = try s.ok(["help", "add"])
        #expect(help.stdout.contains("--stroke-width"))
        #expect(try s.ok(["--version"]).stdout.hasPrefix("0."))
    }
}

@Suite("Colour output")
struct ColourOutputTests {
    @Test func colourFollowsTheSetting() throws {
        let s = CLIScratch()
        try s.ok(["new", "drawing", "d.drawing"])
        #expect(try s.ok(["validate", "d.drawing"]).stdout.hasPrefix("ok "), "no colour into a pipe")
        try s.ok(["config", "set", "color", "always"])
        #expect(try s.ok(["validate", "d.drawing"]).stdout.hasPrefix("\u{1B}[32mok\u{1B}[0m "))
    }
}
