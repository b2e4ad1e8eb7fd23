import EaselSupport
import FoundationEssentials

/// Shard reports combined into the report of the whole export (`easel report merge`).
public struct MergedReport: Sendable {
    /// One report of every document of every shard given, as a single run would have made
    /// (no shard; the document set the shards agree on).
    public var report: BatchReport
    /// What keeps the merge from being the whole export: a shard missing, given twice, of
    /// another shard count, or run against another document set; empty when complete.
    public var problems: [String]

    /// True when every shard of one document set is there, each once.
    public var isComplete: Bool { problems.isEmpty }
}

extension BatchReport {
    /// A report's name in a folder of reports: `report-K-of-N.json` for a shard, `report.json`
    /// for the whole set.
    public static func fileName(shard: Shard?) -> String {
        shard.map { "report-\($0.index)-of-\($0.count).json" } ?? "report.json"
    }

    /// Combines the reports of an export's shards (`shard` `K/N` each; one without a shard
    /// counts as 1/1): entries in shard order, totals summed (the time is the longest
    /// shard's), and every reason the result is not the whole export named.
    public static func merged(_ reports: [(name: String, report: BatchReport)]) -> MergedReport {
        var problems: [String] = []
        var byShard: [Int: (name: String, report: BatchReport)] = [:]
        var counts: Set<Int> = []
        let sets = Set(reports.compactMap(\.report.documentSet))
        let documentSet = sets.count == 1 ? sets.first : nil
        if sets.count > 1 {
            problems.append(
                "the reports come from \(sets.count) different document sets (\(sets.sorted().joined(separator: ", "))): they are not shards of one export"
            )
        }
        for (name, report) in reports {
            let shard = report.shard.flatMap(Shard.init(parsing:)) ?? Shard(index: 1, count: 1)!
            counts.insert(shard.count)
            if let documentSet, report.documentSet == nil {
                problems.append("\(name) does not say which document set it was run against (\(documentSet) for the others)")
            }
            if let earlier = byShard[shard.index] {
                problems.append("shard \(shard) is given twice (\(earlier.name) and \(name)); the last is used")
            }
            byShard[shard.index] = (name, report)
        }
        if counts.count > 1 {
            problems.append("the reports split the documents \(counts.sorted().map(String.init).joined(separator: " and ")) ways")
        }
        let count = counts.max() ?? 1
        let missing = (1...max(1, count)).filter { byShard[$0] == nil }
        if !missing.isEmpty {
            problems.append(
                "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing"
            )
        }
        let ordered = byShard.keys.sorted().compactMap { byShard[$0]?.report }
        let totals = ordered.map(\.totals)
        let seconds = totals.map(\.seconds).max() ?? 0
        let rendered = totals.map(\.rendered).reduce(0, +)
        let merged = BatchReport(
            outputFolder: Set(ordered.map(\.outputFolder)).count == 1 ? ordered.first?.outputFolder ?? "" : "(several)",
            interrupted: ordered.contains(where: \.interrupted), entries: ordered.flatMap(\.entries),
            totals: Totals(
                documents: totals.map(\.documents).reduce(0, +), rendered: rendered,
                skipped: totals.map(\.skipped).reduce(0, +), failed: totals.map(\.failed).reduce(0, +),
                withWarnings: totals.map(\.withWarnings).reduce(0, +), planned: totals.map(\.planned).reduce(0, +),
                notStarted: totals.map(\.notStarted).reduce(0, +), seconds: seconds,
                documentsPerSecond: seconds > 0 ? Double(rendered) / seconds : 0,
                peakMemoryBytes: totals.compactMap(\.peakMemoryBytes).max()),
            documentSet: documentSet)
        return MergedReport(report: merged, problems: problems)
    }

    /// The report as a page for people: the totals, what kept it from being whole, and
    /// every failed document with its reason (HTML, self-contained).
    public func html(title: String, problems: [String] = []) -> String {
        func escape(_ text: String) -> String { text.htmlEscaped }
        let t = totals
        let failed = entries.filter { $0.status == .failed }
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">\(Self.pageMarker)<title>\(escape(title))</title>
            <style>body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f}table{border-collapse:collapse}
            td,th{border:1px solid #d2d2d7;padding:4px 8px;text-align:left}.problem{color:#c4001a}</style></head><body>
            <h1>\(escape(title))</h1>
            <p>\(escape(summary(dryRun: false, verbose: true)))</p>
            <table><tr><th>documents</th><th>rendered</th><th>skipped</th><th>failed</th><th>not started</th></tr>
            <tr><td>\(t.documents)</td><td>\(t.rendered)</td><td>\(t.skipped)</td><td>\(t.failed)</td><td>\(t.notStarted)</td></tr></table>

            """
        if !problems.isEmpty {
            page += "<h2>Not the whole export</h2><ul>"
            page += problems.map { "<li class=\"problem\">\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        page += "<h2>Failed (\(failed.count))</h2>\n"
        if failed.isEmpty {
            page += "<p>None.</p>\n"
        } else {
            page += "<table><tr><th>document</th><th>why</th></tr>"
            page += failed.map { "<tr><td>\(escape($0.input))</td><td>\(escape($0.error ?? ""))</td></tr>" }.joined()
            page += "</table>\n"
        }
        return page + "</body></html>\n"
    }
}
