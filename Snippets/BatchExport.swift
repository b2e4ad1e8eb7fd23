// Export a folder as `easel export` does: plan, up-to-date rule, report.
import EaselBatch
import Foundation

let exporter = try BatchExporter(
    inputs: [URL(fileURLWithPath: "cards")], outputFolder: URL(fileURLWithPath: "pngs"),
    options: BatchExportOptions(jobs: 2, thumbnails: true))
try exporter.prepareOutputFolder()
let report = exporter.run(exporter.plan()) { _, entry in
    if entry.status == .failed { print(entry.error ?? entry.input) }
}
print(report.totals.rendered, report.totals.skipped, report.totals.failed)
