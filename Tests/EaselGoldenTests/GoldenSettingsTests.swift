import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselGolden
import EaselRender
import EaselTestSupport
import Foundation
import Testing

/// The goldens folder's settings (`.easel-golden-settings.json`): ignored regions and a
/// tolerance people write by hand, read with the limits the command line has, kept by
/// every record, and refused with their key path when they cannot be used.
@Suite("The goldens folder's settings are read strictly and kept")
struct GoldenSettingsTests {
    let s = GoldenScratch()
    var settingsFile: URL { s.url("Goldens/" + GoldenSettings.fileName) }

    /// The check's error, if it throws one.
    func checkError() -> String? {
        do {
            _ = try s.suite().check()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Recording's error, if it throws one.
    func recordError(_ options: RenderOptions) -> (any Error)? {
        do {
            _ = try s.suite().record(options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func ignoredRegionsAndTheToleranceComeFromTheSettings() throws {
        try s.drawing("Docs/a.drawing", 60, 40)
        try s.record()
        try s.drawing("Docs/a.drawing", 60, 40, graphics: [.box(10, 10, 10, 10, fill: .black)])
        #expect(try s.suite().check().failures.count == 1)
        // Hand-written settings: the changed corner is ignored.
        var settings = try #require(try GoldenSettings.read(at: settingsFile.path))
        settings.ignore = ["a": [PixelRect(x: 0, y: 0, width: 20, height: 20)]]
        try settings.write(to: settingsFile.path)
        #expect(try s.suite().check().failures.isEmpty)
        // Record keeps what people wrote.
        try s.record(onlyMissing: true)
        #expect(try GoldenSettings.read(at: settingsFile.path)?.ignore.count == 1)
        // A smaller region: fails, and the composite hatches what is ignored.
        settings.ignore = ["a": [PixelRect(x: 0, y: 0, width: 10, height: 40)]]
        settings.tolerance = .exact
        try settings.write(to: settingsFile.path)
        let failed = try s.suite().check(report: s.url("Report"))
        let message = try #require(failed.messages["a.drawing"])
        #expect(message.contains("tolerance: exact") && message.contains("in ignored regions"), "\(message)")
        let composite = try s.image("Report/artifacts/a/composite.png")
        let top = 30, differenceLeft = 8 + 60 + 8
        let hatchedColumn = (0..<10).map { composite.pixel(x: differenceLeft + 3, y: top + 20 + $0) }
        #expect(Set(hatchedColumn).count > 1, "stripes over the ignored region: \(hatchedColumn)")
        // A tolerance given wins.
        let loose = Tolerance(maxPixels: .ratio(1), maxChannelDelta: 255)
        #expect(try s.suite().check(tolerance: loose).failures.isEmpty)
        // A settings file that cannot be used is an error naming it and the key path.
        let written = try s.text("Goldens/" + GoldenSettings.fileName)
        try s.folder.write(
            written.replacingOccurrences(of: "\"width\" : 10", with: "\"width\" : -1"), to: "Goldens/" + GoldenSettings.fileName)
        #expect(checkError()?.contains(GoldenSettings.fileName + ": ignore.a[0]") == true, "\(checkError() ?? "")")
    }

    @Test func theSettingsAreReadWithTheCommandLinesLimitsAndATypoIsRefused() throws {
        try s.drawing("Docs/a.drawing", graphics: [.box(20, 15, 10, 10, fill: Color(red: 1, green: 0, blue: 0))])
        try s.drawing("Docs/b.drawing")
        var half = RenderOptions()
        half.size = .scale(0.5)
        try s.record(half)
        let settings = try JSONSerialization.jsonObject(with: Data(contentsOf: settingsFile)) as! [String: Any]
        func write(_ change: (inout [String: Any]) -> Void) throws {
            var changed = settings
            change(&changed)
            try JSONSerialization.data(withJSONObject: changed).write(to: settingsFile)
        }
        // An ignored region far outside any image: refused with its key path, not a crash.
        try write { $0["ignore"] = ["a": [["x": Int.min, "y": 0, "width": 1, "height": 1]]] }
        #expect(checkError()?.contains("ignore.a[0]: an ignored region needs") == true, "\(checkError() ?? "")")
        // Limits left out are the default's (difference at most 32), as --max-pixels alone keeps them.
        try write { $0["tolerance"] = ["maxPixels": ["count": 1000]] }
        try s.drawing("Docs/a.drawing", graphics: [.box(20, 15, 10, 10, fill: Color(red: 0.8, green: 0, blue: 0))])  // 255 → 204
        #expect(try s.suite().check().failures.count == 1, "a difference of 51 is over the default 32")
        try write { $0["tolerance"] = ["maxPixels": ["count": -1]] }
        #expect(checkError()?.contains("a pixel count is 0 or more") == true, "\(checkError() ?? "")")
        // A misspelt setting is refused, naming it: never a verify with limits nobody chose,
        // and never dropped by the next record.
        for (change, path) in [
            ({ (s: inout [String: Any]) in s["tolerence"] = ["maxPixels": ["count": 1000]] }, "tolerence"),
            ({ (s: inout [String: Any]) in s["tolerance"] = ["maxPixels": ["cuont": 1000]] }, "tolerance.maxPixels.cuont"),
            ({ (s: inout [String: Any]) in s["tolerance"] = ["maxPixel": ["count": 1000]] }, "tolerance.maxPixel"),
        ] {
            try write(change)
            let before = try Data(contentsOf: settingsFile)
            #expect(checkError()?.contains("\(path): unknown key") == true, "\(path): \(checkError() ?? "")")
            #expect("\(String(describing: recordError(half)))".contains("\(path): unknown key"), "record \(path)")
            #expect(try Data(contentsOf: settingsFile) == before, "the settings file people edited is left as it is")
        }
    }
}
