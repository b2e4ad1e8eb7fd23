import FoundationEssentials

/// The report's HTML page: one self-contained file (inline style and script, images by
/// relative path) with every result. A failure shows its composite, a slider and an onion
/// skin over expected and actual, and a zoom on each of its largest clusters; a new
/// document shows its rendering; passed and missing ones are one line each. Buttons filter
/// by status.
struct GoldenReportPage {
    var report: GoldenReport

    /// The most clusters zoomed per result.
    static let zoomedClusters = 6
    /// The side of a cluster's zoom box, in CSS pixels.
    static let zoomBox = 160.0

    static let order: [GoldenSuite.Entry.Status] = [.failed, .new, .error, .missing, .passed]

    var html: String {
        let counts = report.counts
        let documents = report.results.filter { $0.status != .missing }.count
        let problems = (counts["failed"] ?? 0) + (counts["new"] ?? 0) + (counts["error"] ?? 0)
        let summary = Self.order.compactMap { status in counts[status.rawValue].map { "\($0) \(status.rawValue)" } }
            .joined(separator: ", ")
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Easel golden report: \(problems == 0 ? "all passed" : "\(problems) to look at")</title>
            <style>\(Self.style)</style></head><body>
            <header>
            <h1>Golden report: \(e(summary.isEmpty ? "nothing verified" : summary))</h1>
            <p class="meta">\(documents) document\(documents == 1 ? "" : "s") in <code>\(e(report.documents))</code> against \
            <code>\(e(report.goldens))</code>. Tolerance: \(e(report.tolerance.description)).</p>
            <nav class="filters" aria-label="Show">\(filters)</nav>
            <p class="legend">Difference: <span style="background:#00aa3c"></span>more ink in actual \
            <span style="background:#dc1e1e"></span>less ink <span style="background:#f0c800"></span>anti-aliased \
            <span style="background:#fae896"></span>tolerated <span class="hatched"></span>ignored \
            <span style="border:2px solid #1a59ff"></span>cluster</p>
            </header>
            <main>

            """
        let sorted = report.results.enumerated().sorted { a, b in
            let ra = Self.order.firstIndex(of: a.element.status)!, rb = Self.order.firstIndex(of: b.element.status)!
            return ra != rb ? ra < rb : a.offset < b.offset
        }
        for (index, result) in sorted { page += section(result, index: index) }
        if report.results.isEmpty { page += "<p>No documents were verified.</p>\n" }
        return page + "</main>\n<script>\(Self.script)</script>\n</body></html>\n"
    }

    var filters: String {
        var buttons = ["<button type=\"button\" data-status=\"all\" aria-pressed=\"true\">All (\(report.results.count))</button>"]
        for status in Self.order {
            guard let count = report.counts[status.rawValue] else { continue }
            buttons.append(
                "<button type=\"button\" data-status=\"\(status.rawValue)\" aria-pressed=\"false\">\(status.rawValue.capitalized) (\(count))</button>"
            )
        }
        return buttons.joined()
    }

    func section(_ result: GoldenReport.Result, index: Int) -> String {
        let status = result.status.rawValue
        let title =
            (result.document.map { "\(e($0)) <small>→ \(e(result.golden))</small>" }
                ?? "<small>golden</small> \(e(result.golden))")
        var html =
            "<section class=\"result \(status)\" data-status=\"\(status)\" id=\"result-\(index)\">\n<h2><span class=\"badge\">\(status)</span> \(title)"
        if result.status != .missing { html += " <small class=\"time\">\(Self.duration(result.seconds))</small>" }
        html += "</h2>\n"
        if result.status == .passed { return html + "</section>\n" }
        if result.status == .missing {
            return html
                + "<p class=\"message\">No document renders this golden (`easel golden prune` lists such goldens).</p>\n</section>\n"
        }
        if let message = result.message { html += "<p class=\"message\">\(e(message))</p>\n" }
        let images = result.images
        if let expected = images["expected"], let actual = images["actual"] {
            html += comparisonViews(expected: expected, actual: actual, composite: images["composite"], result: result)
        } else if let actual = images["actual"] {
            html +=
                "<p>No golden to compare with; the rendering:</p><img class=\"single\" src=\"\(url(actual))\" alt=\"actual\">\n"
        }
        return html + "</section>\n"
    }

    func comparisonViews(expected: String, actual: String, composite: String?, result: GoldenReport.Result) -> String {
        var html = "<div class=\"views\" role=\"tablist\">"
        let views = (composite != nil ? [("composite", "Composite")] : []) + [("slider", "Slider"), ("onion", "Onion skin")]
        for (i, (view, label)) in views.enumerated() {
            html += "<button type=\"button\" role=\"tab\" data-view=\"\(view)\" aria-selected=\"\(i == 0)\">\(label)</button>"
        }
        html += "</div>\n"
        if let composite {
            html +=
                "<div class=\"view composite\"><img src=\"\(url(composite))\" alt=\"expected | difference | actual\"></div>\n"
        }
        let hidden = composite != nil ? " hidden" : ""
        html += """
            <div class="view slider"\(hidden)><div class="stack"><img class="under" src="\(url(actual))" alt="actual">\
            <img class="over" src="\(url(expected))" alt="expected" style="clip-path:inset(0 50% 0 0)">\
            <div class="divider" style="left:50%"></div></div>
            <label>expected ◀ <input type="range" min="0" max="100" value="50" aria-label="expected or actual"> ▶ actual</label></div>
            <div class="view onion" hidden><div class="stack"><img class="under" src="\(url(expected))" alt="expected">\
            <img class="over" src="\(url(actual))" alt="actual" style="opacity:0.5"></div>
            <label>expected <input type="range" min="0" max="100" value="50" aria-label="actual's opacity"> actual</label></div>

            """
        if let statistics = result.statistics, !statistics.clusters.isEmpty {
            let shown = statistics.clusters.prefix(Self.zoomedClusters)
            html +=
                "<div class=\"clusters\"><h3>Largest clusters (\(shown.count) of \(statistics.clusterCount)), expected | actual</h3>\n"
            for cluster in shown {
                html += zoom(cluster, width: statistics.width, height: statistics.height, expected: expected, actual: actual)
            }
            html += "</div>\n"
        }
        return html
    }

    /// A cluster seen closely: the same crop of expected and actual, scaled up (at most 8x)
    /// to fill a box, pixels kept square.
    func zoom(_ cluster: DifferenceStatistics.Box, width: Int, height: Int, expected: String, actual: String) -> String {
        let margin = 4
        let x = max(0, cluster.x - margin), y = max(0, cluster.y - margin)
        let w = min(width, cluster.x + cluster.width + margin) - x, h = min(height, cluster.y + cluster.height + margin) - y
        let scale = min(8, Self.zoomBox / Double(max(w, h)))
        func crop(_ image: String, _ label: String) -> String {
            let size = String(printf: "width:%.0fpx;height:%.0fpx;", Double(w) * scale, Double(h) * scale)
            let placement = String(
                printf: "background-size:%.1fpx %.1fpx;background-position:%.1fpx %.1fpx", Double(width) * scale,
                Double(height) * scale, -Double(x) * scale, -Double(y) * scale)
            let style = size + "background-image:url(\(url(image)));" + placement
            return "<div class=\"zoom\" role=\"img\" aria-label=\"\(label)\" style=\"\(style)\"></div>"
        }
        return
            "<figure>\(crop(expected, "expected"))\(crop(actual, "actual"))<figcaption>\(e(cluster.description)), \(cluster.pixels) pixels, \(String(printf: "%.1f", scale))x</figcaption></figure>\n"
    }

    func e(_ text: String) -> String { GoldenReport.escape(text) }

    /// `12 ms` or `1.4 s`: how long a document took to render and compare.
    static func duration(_ seconds: Double) -> String {
        seconds < 1 ? String(printf: "%.0f ms", seconds * 1000) : String(printf: "%.1f s", seconds)
    }

    /// A relative path as a URL safe in an attribute and in CSS `url()`: every byte but
    /// letters, digits and `-._~/` percent-encoded.
    func url(_ path: String) -> String {
        path.utf8.map { byte in
            let kept =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "-._~/".utf8.contains(byte)
            return kept ? String(UnicodeScalar(byte)) : String(printf: "%%%02X", byte)
        }.joined()
    }

    static let style = """
        body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
        header{padding:1em 2em;background:#fff;border-bottom:1px solid #ddd;position:sticky;top:0;z-index:2}
        h1{font-size:1.4em;margin:.2em 0} main{padding:0 2em 2em} code{background:#f0f0f0;padding:0 .3em}
        .meta{margin:.3em 0;color:#555}
        .filters button,.views button{font:inherit;margin:0 .3em .3em 0;padding:.2em .7em;border:1px solid #bbb;border-radius:1em;background:#fff;cursor:pointer}
        .filters button[aria-pressed=true],.views button[aria-selected=true]{background:#1a59ff;border-color:#1a59ff;color:#fff}
        .legend{margin:.3em 0;font-size:.9em;color:#555}
        .legend span{display:inline-block;width:1em;height:1em;vertical-align:middle;margin:0 .3em 0 .8em}
        .hatched{background:repeating-linear-gradient(45deg,#737380 0 2px,#fff 2px 6px)}
        .result{background:#fff;border:1px solid #ddd;border-left:6px solid #999;border-radius:4px;margin:1em 0;padding:.6em 1em}
        .result h2{font-size:1.05em;margin:.2em 0} .result small{color:#666;font-weight:normal}
        .failed,.error{border-left-color:#dc1e1e} .new{border-left-color:#f0a000} .passed{border-left-color:#00aa3c}
        .missing{border-left-color:#888}
        .badge{display:inline-block;min-width:4.5em;text-align:center;font-size:.8em;padding:.1em .4em;border-radius:.3em;color:#fff;background:#888;text-transform:uppercase}
        .failed .badge,.error .badge{background:#dc1e1e} .new .badge{background:#c98500} .passed .badge{background:#00aa3c}
        .message{font-family:ui-monospace,monospace;font-size:.85em;white-space:pre-wrap;overflow-wrap:anywhere;color:#444}
        .view img,img.single{max-width:100%;image-rendering:pixelated;border:1px solid #ccc;display:block}
        .stack{position:relative;display:inline-block;max-width:100%;line-height:0}
        .stack img{max-width:100%;image-rendering:pixelated}
        .stack .over{position:absolute;left:0;top:0} .stack .under{position:relative}
        .divider{position:absolute;top:0;bottom:0;width:2px;background:#1a59ff;transform:translateX(-1px);pointer-events:none}
        .view label{display:block;margin:.4em 0;font-size:.9em} .view input{width:min(30em,60%);vertical-align:middle}
        .clusters h3{font-size:.95em;margin:.8em 0 .3em} .clusters figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}
        .zoom{display:inline-block;margin-right:4px;border:1px solid #ccc;background-repeat:no-repeat;image-rendering:pixelated;background-color:#fff}
        figcaption{font-size:.8em;color:#555}
        """

    static let script = """
        for (const section of document.querySelectorAll('.result')) {
          const tabs = section.querySelectorAll('[data-view]');
          for (const tab of tabs) tab.addEventListener('click', () => {
            for (const other of tabs) other.setAttribute('aria-selected', String(other === tab));
            for (const view of section.querySelectorAll('.view')) view.hidden = !view.classList.contains(tab.dataset.view);
          });
          const slider = section.querySelector('.view.slider input');
          if (slider) slider.addEventListener('input', () => {
            section.querySelector('.view.slider .over').style.clipPath = `inset(0 ${100 - slider.value}% 0 0)`;
            section.querySelector('.view.slider .divider').style.left = `${slider.value}%`;
          });
          const onion = section.querySelector('.view.onion input');
          if (onion) onion.addEventListener('input', () => {
            section.querySelector('.view.onion .over').style.opacity = String(onion.value / 100);
          });
        }
        const filters = document.querySelectorAll('.filters button');
        for (const button of filters) button.addEventListener('click', () => {
          for (const other of filters) other.setAttribute('aria-pressed', String(other === button));
          for (const result of document.querySelectorAll('.result'))
            result.hidden = button.dataset.status !== 'all' && result.dataset.status !== button.dataset.status;
        });
        """
}
