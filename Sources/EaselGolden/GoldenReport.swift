import Foundation
import EaselSupport

/// The reports of a golden suite's verification (`easel golden verify --report DIR`): an
/// HTML page with every failure's composite, a JSON summary, and JUnit XML for CI systems.
public enum GoldenReport {
    /// Writes `index.html`, `report.json` and `junit.xml` into `folder` (created if needed).
    public static func write(_ entries: [GoldenSuite.Entry], to folder: URL, tolerance: Tolerance) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(Array(try encoder.encode(entries)), to: folder.appendingPathComponent("report.json").path)
        try AtomicFile.write(Array(junit(entries).utf8), to: folder.appendingPathComponent("junit.xml").path)
        try AtomicFile.write(
            Array(html(entries, folder: folder, tolerance: tolerance).utf8), to: folder.appendingPathComponent("index.html").path)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func junit(_ entries: [GoldenSuite.Entry]) -> String {
        let failures = entries.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(entries.count)\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"easel golden verify\" tests=\"\(entries.count)\" failures=\"\(failures)\">\n"
        for entry in entries {
            xml +=
                "    <testcase classname=\"golden\" name=\"\(escape(entry.document))\" time=\"\(String(format: "%.3f", entry.seconds))\""
            if entry.passed {
                xml += "/>\n"
            } else {
                xml += ">\n      <failure message=\"\(escape(entry.message ?? "failed"))\"/>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    static func html(_ entries: [GoldenSuite.Entry], folder: URL, tolerance: Tolerance) -> String {
        let failures = entries.filter { !$0.passed }
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Easel golden report</title>
            <style>body{font-family:sans-serif;margin:2em;color:#222} .fail{margin:2em 0;border-top:1px solid #ccc;padding-top:1em}
            img{max-width:100%;image-rendering:pixelated;border:1px solid #ccc} code{background:#f4f4f4;padding:0 .3em}
            .legend span{display:inline-block;width:1em;height:1em;vertical-align:middle;margin:0 .3em 0 1em}</style></head><body>
            <h1>Golden report: \(failures.count) of \(entries.count) failed</h1>
            <p>Tolerance: \(escape(tolerance.description)).</p>
            <p class="legend">Composite: expected | difference | actual.<span style="background:#00aa3c"></span>more ink in actual
            <span style="background:#dc1e1e"></span>less ink<span style="background:#f0c800"></span>tolerated<span style="border:2px solid #1a59ff"></span>cluster</p>

            """
        for entry in failures {
            html +=
                "<div class=\"fail\"><h2>\(escape(entry.document))</h2><p><code>\(escape(entry.golden))</code></p><p>\(escape(entry.message ?? ""))</p>"
            if let composite = entry.composite {
                let relative =
                    composite.hasPrefix(folder.path + "/") ? String(composite.dropFirst(folder.path.count + 1)) : composite
                html += "<img src=\"\(escape(relative))\" alt=\"expected | difference | actual\">"
            } else if let actual = entry.actual {
                let relative = actual.hasPrefix(folder.path + "/") ? String(actual.dropFirst(folder.path.count + 1)) : actual
                html += "<p>No golden to compare with; the rendering:</p><img src=\"\(escape(relative))\" alt=\"actual\">"
            }
            html += "</div>\n"
        }
        if failures.isEmpty { html += "<p>Every document matches its golden.</p>\n" }
        return html + "</body></html>\n"
    }
}
