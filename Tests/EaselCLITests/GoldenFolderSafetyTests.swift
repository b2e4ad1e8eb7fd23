import EaselCairo
import EaselTestSupport
import Foundation
import Testing

/// What a hostile review of `easel golden` found: goldens rewritten at another size, accepts
/// written into the wrong folder or of images nobody saw, files pruned that were never
/// goldens, a crash on a settings file, failures that hid their reason.
@Suite("easel golden writes only goldens, only where they are, at the size they were recorded")
struct GoldenFolderSafetyTests {
    /// A scratch folder with two drawings in `Docs` and their goldens recorded at scale 0.5.
    static func recorded() throws -> CLIScratch {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "Docs/a.drawing", "--size", "40x30"])
        try s.ok(["add", "Docs/a.drawing", "rectangle", "--at", "20,15", "--size", "10x10", "--fill", "red"])
        try s.ok(["new", "drawing", "Docs/b.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "Docs", "Goldens", "--scale", "0.5"])
        return s
    }

    @Test func recordingOnlySomeGoldensRendersThemAsTheOthersWereRecorded() throws {
        let s = try Self.recorded()
        try s.ok(["new", "drawing", "Docs/c.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "Docs", "Goldens", "--only-missing"])
        #expect(try s.image("Goldens/c.png").width == 20, "at the recorded scale 0.5, not the default")
        try s.ok(["move", "Docs/a.drawing", "0", "--by", "5,0"])
        try s.ok(["golden", "record", "Docs", "Goldens", "--only-failed"])
        #expect(try s.image("Goldens/a.png").width == 20)
        #expect(try s.ok(["golden", "verify", "Docs", "Goldens"]).stderr.contains("3 of 3 documents match"))
        // Another size for only some of them would leave goldens of two kinds: refused.
        let mixed = try s.run(["golden", "record", "Docs", "Goldens", "--only-missing", "--scale", "2"])
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("the goldens were recorded at scale 0.5"), "\(mixed.stderr)")
        let area = try s.run(["golden", "record", "Docs", "Goldens", "--area", "0"])
        #expect(area.status == 64 && area.stderr.contains("--area is for export"), "\(area.stderr)")
    }

    @Test func acceptWritesOnlyIntoTheGoldensFolderItCanFind() throws {
        let s = try Self.recorded()
        try s.ok(["move", "Docs/a.drawing", "0", "--by", "5,0"])
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "R"]).status == 1)
        // From another folder, the report's relative "Goldens" is not a folder: refused, nothing made.
        try FileManager.default.createDirectory(at: s.folder.file("elsewhere"), withIntermediateDirectories: true)
        let elsewhere = try ProcessRunner.run(
            s.easel, ["golden", "accept", "../R"], environment: s.environment, currentDirectory: s.folder.file("elsewhere"))
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stderr.contains("is not a folder here"), "\(elsewhere.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.folder.file("elsewhere").path).isEmpty)
        // Never into the documents folder the report names.
        let intoDocuments = try s.run(["golden", "accept", "R", "--goldens", "Docs"])
        #expect(intoDocuments.status == 1 && intoDocuments.stderr.contains("is the documents folder"), "\(intoDocuments.stderr)")
        // A report verified at another size would leave goldens of two sizes: refused.
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--scale", "1", "--report", "R1"]).status == 1)
        let otherSize = try s.run(["golden", "accept", "R1"])
        #expect(otherSize.status == 1 && otherSize.stderr.contains("the report was rendered at scale 1"), "\(otherSize.stderr)")
        // By the document's name, as the report page shows it.
        let accepted = try s.ok(["golden", "accept", "R", "--only", "a.drawing"])
        #expect(accepted.stdout.contains("accepted") && accepted.stdout.contains("Goldens/a.png"), "\(accepted.stdout)")
        #expect(try s.ok(["golden", "verify", "Docs", "Goldens"]).stderr.contains("2 of 2 documents match"))
    }

    @Test func aVerifyStoppedHalfWayLeavesNoReportToAccept() throws {
        let s = try Self.recorded()
        #expect(try s.run(["golden", "verify", "Docs", "Goldens", "--report", "R"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: s.folder.file("R/report.json").path))
        // A document that takes seconds to draw, and a verify stopped while it draws.
        try s.folder.write(ExportInputsOutputsTests.slowDrawing, to: "Docs/slow.drawing")
        let verify = Process()
        verify.executableURL = s.easel
        verify.arguments = ["golden", "verify", "Docs", "Goldens", "--report", "R"]
        verify.currentDirectoryURL = s.folder.url
        verify.environment = s.environment
        verify.standardOutput = FileHandle.nullDevice
        verify.standardError = FileHandle.nullDevice
        try verify.run()
        Thread.sleep(forTimeInterval: 1)
        // Killed outright (a test runner may hand its children SIGINT ignored).
        kill(verify.processIdentifier, SIGKILL)
        verify.waitUntilExit()
        #expect(verify.terminationReason == .uncaughtSignal, "stopped while drawing")
        #expect(!FileManager.default.fileExists(atPath: s.folder.file("R/report.json").path), "the old report went first")
        let accept = try s.run(["golden", "accept", "R"])
        #expect(accept.status == 1 && accept.stderr.contains("report.json"), "\(accept.stderr)")
    }

    @Test func pruneLeavesHiddenFoldersAndTheGoldensOfUnusableDocumentsAlone() throws {
        let s = try Self.recorded()
        try FileManager.default.createDirectory(at: s.folder.file("Goldens/.history"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: s.folder.file("Goldens/a.png"), to: s.folder.file("Goldens/.history/a-old.png"))
        // A document that is a symbolic link cannot be verified: said so, and its golden is no orphan.
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("Docs/linked.drawing"), withDestinationURL: s.folder.file("Docs/b.drawing"))
        try FileManager.default.copyItem(at: s.folder.file("Goldens/b.png"), to: s.folder.file("Goldens/linked.png"))
        let verify = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("FAIL Docs/linked.drawing: is a symbolic link"), "\(verify.stdout)")
        let prune = try s.ok(["golden", "prune", "Docs", "Goldens", "--delete"])
        #expect(prune.stderr.contains("0 goldens without a document"), "\(prune.stderr)")
        for kept in ["Goldens/.history/a-old.png", "Goldens/linked.png"] {
            #expect(FileManager.default.fileExists(atPath: s.folder.file(kept).path), "\(kept)")
        }
    }

    @Test func aSettingsFileIsReadAsTheCommandLineReadsTheSameLimits() throws {
        let s = try Self.recorded()
        let settingsFile = s.folder.file("Goldens/.easel-golden-settings.json")
        var settings = try JSONSerialization.jsonObject(with: Data(contentsOf: settingsFile)) as! [String: Any]
        func write(_ change: (inout [String: Any]) -> Void) throws {
            var changed = settings
            change(&changed)
            try JSONSerialization.data(withJSONObject: changed).write(to: settingsFile)
        }
        // An ignored region far outside any image: refused with its key path, not a crash.
        try write { $0["ignore"] = ["a": [["x": Int.min, "y": 0, "width": 1, "height": 1]]] }
        let region = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(region.status == 64, "\(region.stderr)")
        #expect(region.stderr.contains("ignore.a[0]: an ignored region needs"), "\(region.stderr)")
        // Limits left out are the default's (difference at most 32), as --max-pixels alone keeps them.
        try write { $0["tolerance"] = ["maxPixels": ["count": 1000]] }
        try s.ok(["set", "Docs/a.drawing", "0", "--fill", "#CC0000"])  // 255 → 204 on the red square's pixels
        let loose = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(loose.status == 1, "a difference of 51 is over the default 32: \(loose.stdout)")
        try write { $0["tolerance"] = ["maxPixels": ["count": -1]] }
        let negative = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(negative.status == 64 && negative.stderr.contains("a pixel count is 0 or more"), "\(negative.stderr)")
        // A misspelt setting is refused, naming it: never a verify with limits nobody chose,
        // and never dropped by the next record.
        for (change, path) in [
            ({ (s: inout [String: Any]) in s["tolerence"] = ["maxPixels": ["count": 1000]] }, "tolerence"),
            ({ (s: inout [String: Any]) in s["tolerance"] = ["maxPixels": ["cuont": 1000]] }, "tolerance.maxPixels.cuont"),
            ({ (s: inout [String: Any]) in s["tolerance"] = ["maxPixel": ["count": 1000]] }, "tolerance.maxPixel"),
        ] {
            try write(change)
            let before = try Data(contentsOf: settingsFile)
            for verb in ["verify", "record"] {
                let typo = try s.run(["golden", verb, "Docs", "Goldens"])
                #expect(typo.status == 64, "\(verb) \(path): \(typo.stderr)")
                #expect(typo.stderr.contains("\(path): unknown key"), "\(verb) \(path): \(typo.stderr)")
            }
            #expect(try Data(contentsOf: settingsFile) == before, "the settings file people edited is left as it is")
        }
        settings["tolerance"] = nil
    }

    @Test func aFailureSaysWhatTheRenderDrewAround() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("Docs"), withIntermediateDirectories: true)
        let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
        let card = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"
        try FileManager.default.copyItem(at: samples.appendingPathComponent(card), to: s.folder.file("Docs/" + card))
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where !name.contains(".") {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: s.folder.file("Docs/" + name))
        }
        try s.ok(["golden", "record", "Docs", "Goldens", "--preset", "thumbnail"])
        for name in try FileManager.default.contentsOfDirectory(atPath: s.folder.file("Docs").path) where !name.contains(".") {
            try FileManager.default.removeItem(at: s.folder.file("Docs/" + name))
        }
        let verify = try s.run(["golden", "verify", "Docs", "Goldens"])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("the render's warnings:") && verify.stdout.contains("is missing"), "\(verify.stdout)")
        // Recording the error image in its place is said too, naming the card.
        let record = try s.ok(["golden", "record", "Docs", "Goldens", "--only-failed"])
        #expect(record.stderr.contains("easel: warning: ") && record.stderr.contains(card), "\(record.stderr)")
        #expect(record.stderr.contains("is missing"), "\(record.stderr)")
    }

    @Test func aLinkInTheGoldensFolderNeverLeadsAWriteAmongTheDocuments() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("P/Docs/A"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "P/Docs/A/x.drawing", "--size", "40x30"])
        try s.folder.write("the user's own picture", to: "P/Docs/A/x.png")
        try FileManager.default.createDirectory(at: s.folder.file("G"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("G/A"), withDestinationURL: URL(fileURLWithPath: "../P/Docs/A", relativeTo: s.folder.file("G/")))
        // A link to a folder elsewhere: no folder is made through it either.
        try FileManager.default.createDirectory(at: s.folder.file("P/Docs/C/B"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "P/Docs/C/B/y.drawing", "--size", "40x30"])
        try FileManager.default.createDirectory(at: s.folder.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: s.folder.file("G/C"), withDestinationURL: URL(fileURLWithPath: "../elsewhere", relativeTo: s.folder.file("G/")))
        let record = try s.run(["golden", "record", "P/Docs", "G"])
        #expect(record.status == 1)
        #expect(record.stderr.contains("leads outside the goldens folder"), "\(record.stderr)")
        #expect(try String(contentsOf: s.folder.file("P/Docs/A/x.png"), encoding: .utf8) == "the user's own picture")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.folder.file("elsewhere").path).isEmpty, "nothing made there")
        // The same size spelled another way is the same size: --scale 1 over goldens made at the share size.
        try FileManager.default.createDirectory(at: s.folder.file("D2"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "D2/a.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "D2", "G2"])
        try s.ok(["new", "drawing", "D2/b.drawing", "--size", "40x30"])
        try s.ok(["golden", "record", "D2", "G2", "--only-missing", "--scale", "1"])
    }

    @Test func smallEdgesOfTheGoldenCommands() throws {
        let s = try Self.recorded()
        try s.ok(["move", "Docs/a.drawing", "0", "--by", "5,0"])
        // A report folder inside the goldens: its images would be taken for goldens.
        let inside = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "Goldens/report"])
        #expect(inside.status == 64 && inside.stderr.contains("is inside the goldens folder"), "\(inside.stderr)")
        // The hint to accept is a command that can be pasted, whatever the report's name.
        let odd = "R <b>\"x y'z"
        let verify = try s.run(["golden", "verify", "Docs", "Goldens", "--report", odd])
        #expect(verify.stderr.contains("easel golden accept 'R <b>\"x y'\\''z'"), "\(verify.stderr)")
        // Accepting twice: the second finds nothing to do, and says so without failing.
        try s.ok(["golden", "accept", odd])
        let again = try s.ok(["golden", "accept", odd])
        #expect(again.stdout.contains("unchanged") && again.stderr.contains("accepted 0 goldens"), "\(again.stderr)")
        // A goldens "folder" that is a file is named as such.
        try s.folder.write("not a folder", to: "afile")
        let file = try s.run(["golden", "record", "Docs", "afile"])
        #expect(file.status == 64 && file.stderr.contains("is a file, not a folder"), "\(file.stderr)")
    }

    @Test func aGoldenThatIsNoFileIsUnreadableNotMissing() throws {
        let s = try Self.recorded()
        try FileManager.default.removeItem(at: s.folder.file("Goldens/a.png"))
        try FileManager.default.createDirectory(at: s.folder.file("Goldens/a.png"), withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: s.folder.file("Goldens/b.png"))
        try FileManager.default.createSymbolicLink(atPath: s.folder.file("Goldens/b.png").path, withDestinationPath: "/dev/zero")
        let verify = try s.run(["golden", "verify", "Docs", "Goldens", "--report", "R"])
        #expect(verify.status != 0)
        #expect(!verify.stdout.contains("no golden"), "something stands at the golden's name: \(verify.stdout)")
        #expect(verify.stdout.contains("a.png: the golden cannot be read (is a folder, not a file)"), "\(verify.stdout)")
        #expect(verify.stdout.contains("b.png: the golden cannot be read (is not a regular file"), "\(verify.stdout)")
        // Accept takes only failed and new renderings: no hint to run it for these.
        #expect(!verify.stderr.contains("golden accept"), "\(verify.stderr)")
        // --only-missing records nothing over them.
        try s.ok(["golden", "record", "Docs", "Goldens", "--only-missing"])
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: s.folder.file("Goldens/a.png").path, isDirectory: &isFolder)
                && isFolder.boolValue)
    }
}
