import EaselTestSupport
import Foundation
import Testing

/// A stored default applies to every export, so one that no export can use must never be
/// stored, and one found in the file is reported (naming the file and the key) and ignored.
@Suite("Settings values")
struct SettingsValidationTests {
    @Test(arguments: ["1e308", "1e-300", "0", "-1", "nan", "inf", "32768"])
    func aScaleNoExportAcceptsIsNotStored(value: String) throws {
        let s = CLIScratch()
        let refused = try s.run(["config", "set", "scale", value])
        #expect(refused.status == 64, "\(value): \(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "scale: expected a positive number from 0.0001 to 32767, e.g. 2; \"\(value)\" is not a valid scale"),
            "read as a value, not an option: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.config.file("easel/settings.plist").path))
        // The same range as --scale's.
        try s.ok(["new", "drawing", "d.drawing", "--size", "10x10"])
        let export = try s.run(["export", "d.drawing", "--out", "d.png", "--scale", value])
        #expect(
            export.status == 64 && export.stderr.contains("--scale must be a positive number from 0.0001 to 32767"), "\(value)")
    }

    @Test func aValidScaleIsStored() throws {
        let s = CLIScratch()
        try s.ok(["config", "set", "scale", "32767"])
        #expect(try s.ok(["config", "get", "scale"]).stdout == "32767.0\n")
        #expect(try s.run(["config", "set", "scale", "2", "3"]).stderr.contains("takes at most one value"))
    }

    @Test func outOfRangeValuesInTheFileAreReportedAndIgnored() throws {
        let s = CLIScratch()
        let settings = s.config.file("easel/settings.plist")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        let values: [String: Any] = ["scale": 1e308, "jobs": 0, "png-compression": 3]
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: settings)
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x20"])
        let result = try s.run(["export", "d.drawing", "--out", "d.png"])
        #expect(result.status == 0, "the export is not broken: \(result.stderr)")
        #expect(
            result.stderr.contains("easel: warning: \(settings.path): scale: \"1e+308\" is not a positive number"),
            "\(result.stderr)")
        #expect(result.stderr.contains("easel: warning: \(settings.path): jobs: \"0\" is not a whole number"), "\(result.stderr)")
        #expect(!result.stderr.contains("png-compression"), "a valid value is used quietly")
        #expect(try s.image("d.png").width == 40, "the default scale applies")
    }

    /// Values of every kind a property list holds, as the file's reader gives them to the
    /// checks: a number as Swift writes it, a list or a date named for what it is, a whole
    /// number written as a real taken as the number it is, a file that is not a dictionary
    /// refused whole.
    @Test func valuesOfEveryKindAreReadAsTextAndCheckedOrRefused() throws {
        let s = CLIScratch()
        let settings = s.config.file("easel/settings.plist")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        let values: [String: Any] = ["scale": [2, 3], "jobs": 2.0, "format": Date(timeIntervalSince1970: 0), "color": true]
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: settings)
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x20"])
        let result = try s.run(["export", "d.drawing", "--out", "d.png"])
        #expect(result.status == 0, "\(result.stderr)")
        for (key, shown) in [
            ("scale", "a list, a dictionary, a date or data"), ("format", "a list, a dictionary, a date or data"),
            ("color", "true"),
        ] {
            #expect(
                result.stderr.contains("easel: warning: \(settings.path): \(key): \"\(shown)\" is not"),
                "\(key): \(result.stderr)")
        }
        #expect(!result.stderr.contains("jobs"), "2.0 is the whole number 2: \(result.stderr)")
        #expect(try s.image("d.png").width == 40)
        try PropertyListSerialization.data(fromPropertyList: ["scale", "2"], format: .xml, options: 0).write(to: settings)
        let listed = try s.run(["export", "d.drawing", "--out", "d.png"])
        #expect(
            listed.status == 0 && listed.stderr.contains("is not a dictionary of settings; using the defaults"),
            "\(listed.stderr)")
    }

    @Test func anOversizedSettingsFileIsReportedAndNotRead() throws {
        let s = CLIScratch()
        // A valid property list of 100 KB (over the 64 KiB limit) that would set the scale.
        let padding = String(repeating: "x", count: 100_000)
        let values: [String: Any] = ["scale": 2, "padding": padding]
        let settings = s.config.file("easel/settings.plist")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: settings)
        try s.ok(["new", "drawing", "d.drawing", "--size", "40x20"])
        let result = try s.run(["export", "d.drawing", "--out", "d.png"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("easel: warning: settings: \(settings.path) is larger than 65536 bytes, so it is not read"),
            "\(result.stderr)")
        #expect(try s.image("d.png").width == 40, "its scale is not used")
    }

    /// Setting one value rewrites the file: what this version does not know (a newer
    /// Easel's key, a typo, nested values of every kind) and values it ignored stay as they
    /// were, and each unknown key is named once per command.
    @Test func settingOneValueKeepsEverythingElseTheFileHeld() throws {
        let s = CLIScratch()
        let settings = s.config.file("easel/settings.plist")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        let future: [String: Any] = ["list": [1, 2.5, true, "text", Date(timeIntervalSince1970: 0), Data([0, 1, 2])]]
        let values: [String: Any] = ["future-thing": future, "fromat": "pdf", "scale": "huge", "jobs": 3]
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: settings)
        let set = try s.ok(["config", "set", "format", "svg"])
        #expect(
            set.stderr.contains(
                "easel: warning: \(settings.path): fromat: not a setting (the settings are format, scale, jobs, png-compression, color); it is ignored, and kept in the file"
            ), "\(set.stderr)")
        func stored() throws -> NSDictionary {
            try #require(
                PropertyListSerialization.propertyList(from: Data(contentsOf: settings), format: nil) as? NSDictionary)
        }
        var after = try stored()
        #expect(after["format"] as? String == "svg")
        #expect(after["fromat"] as? String == "pdf" && after["scale"] as? String == "huge")
        #expect((after["jobs"] as? String) == "3", "a valid value is stored as it is set: as text")
        #expect((after["future-thing"] as? NSDictionary) == (future as NSDictionary), "\(after)")
        // Setting or resetting a key whose value was ignored replaces it.
        try s.ok(["config", "set", "scale", "2"])
        try s.ok(["config", "reset", "jobs"])
        after = try stored()
        #expect(after["scale"] as? String == "2.0" && after["jobs"] == nil && after["fromat"] as? String == "pdf")
    }

    /// A settings file is the user's, but nothing makes it well formed: one that nests lists
    /// 2,000 deep (Foundation's reader took over 20 s at 1,000, and reading it back level by
    /// level ran out of stack) or is a binary property list is reported at once, the
    /// defaults apply, and `config set` changes nothing.
    @Test func aDeeplyNestedOrBinarySettingsFileIsReportedAtOnce() throws {
        let s = CLIScratch()
        let settings = s.config.file("easel/settings.plist")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        let deep =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>x</key>"#
            + String(repeating: "<array>", count: 2000) + String(repeating: "</array>", count: 2000)
            + "<key>format</key><string>svg</string></dict></plist>"
        try Data(deep.utf8).write(to: settings)
        let started = Date()
        let listed = try s.run(["config", "get", "format"])
        #expect(listed.status == 0 && listed.stdout == "png (default)\n", "\(listed.stdout) \(listed.stderr)")
        #expect(
            listed.stderr.contains("\(settings.path) nests lists and dictionaries more than 16 deep; using the defaults"),
            "\(listed.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "read at once, not after seconds")
        let refused = try s.run(["config", "set", "scale", "2"])
        #expect(refused.status != 0 && refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        #expect(try Data(contentsOf: settings) == Data(deep.utf8), "the file is as it was")
        // Hundreds of keys that are not settings: three named, the rest counted.
        let many = Dictionary(uniqueKeysWithValues: (0..<500).map { ("key-\($0)", "x") })
        try PropertyListSerialization.data(fromPropertyList: many, format: .xml, options: 0).write(to: settings)
        let warned = try s.ok(["config", "get", "format"])
        #expect(warned.stderr.split(separator: "\n").count == 4, "\(warned.stderr.prefix(600))")
        #expect(warned.stderr.contains("\(settings.path): 497 more keys that are not settings; they are ignored"))
        // Sixteen levels, the file's own dictionary among them, are read.
        let fine =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>x</key>"#
            + String(repeating: "<array>", count: 15) + "<array/>" + String(repeating: "</array>", count: 15)
            + "<key>format</key><string>svg</string></dict></plist>"
        try Data(fine.utf8).write(to: settings)
        #expect(try s.ok(["config", "get", "format"]).stdout == "svg\n")
        let binary = try PropertyListSerialization.data(fromPropertyList: ["format": "svg"], format: .binary, options: 0)
        try binary.write(to: settings)
        let read = try s.run(["config", "get", "format"])
        #expect(read.stdout == "png (default)\n" && read.stderr.contains("is a binary property list"), "\(read.stderr)")
    }
}
