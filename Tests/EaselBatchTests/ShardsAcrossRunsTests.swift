import EaselBatch
import EaselDocuments
import EaselTestSupport
import Foundation
import Testing

/// What a folder export does when spread over many machines, in process: its state in the
/// output folder does not depend on the shard count (8 shards, then 4, then one process
/// render nothing twice), a shard's lease keeps two runs of it apart and goes when its
/// holder does, the scheduler's variables name the shard, and shard reports merge into the
/// whole export's, naming what is missing.
@Suite("Shards across runs and machines")
struct ShardsAcrossRunsTests {
    /// Exports `Docs` into `Out` as shard `k` of `n` holding the shard's lease, as `easel export` does.
    func run(_ s: ExportScratch, _ k: Int, of n: Int) throws -> BatchReport {
        var options = BatchExportOptions(jobs: 2)
        options.render.size = .thumbnail
        options.shard = n == 1 ? nil : Shard(index: k, count: n)
        let exporter = try BatchExporter(inputs: [s.url("Docs")], outputFolder: s.url("Out"), options: options)
        try exporter.prepareOutputFolder()
        let lease = try exporter.takeLease()
        let (items, documentSet) = exporter.planWithDocumentSet()
        return exporter.run(items, documentSet: documentSet, lease: lease)
    }

    @Test func anotherShardCountOrOneProcessRendersNothingTwice() throws {
        let s = ExportScratch()
        try FolderExportTests.documents(s, cards: 16)
        let first = try (1...8).map { try run(s, $0, of: 8) }
        let rendered = first.map(\.totals.rendered).reduce(0, +)
        #expect(rendered == 17, "16 cards and a drawing, once each across 8 shards")
        #expect(Set(first.compactMap(\.documentSet)).count == 1 && first[2].shard == "3/8")
        #expect(!s.exists("Out/.easel-journal-3-of-8.jsonl"), "a finished shard's journal is folded into the manifest")
        for k in 1...4 { #expect(try run(s, k, of: 4).totals.rendered == 0, "4 shards after 8: nothing again") }
        let whole = try run(s, 1, of: 1)
        #expect(whole.totals.rendered == 0 && whole.totals.skipped == 17, "one process after them: nothing again")
        // An old Easel's per-shard manifest is read too, then folded away.
        let legacy = s.url("Out/.easel-manifest-2-of-2.json")
        try FileManager.default.moveItem(at: s.url("Out/.easel-manifest.json"), to: legacy)
        #expect(try run(s, 1, of: 1).totals.rendered == 0)
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
    }

    @Test func aSecondRunOfAShardIsRefusedWhileTheFirstHoldsItsLease() throws {
        let s = ExportScratch()
        try FolderExportTests.documents(s, cards: 2)
        let exporter = try BatchExporter(
            inputs: [s.url("Docs")], outputFolder: s.url("Out"), options: BatchExportOptions(shard: Shard(index: 2, count: 3)))
        try exporter.prepareOutputFolder()
        var held: ShardLease? = try exporter.takeLease()
        #expect(throws: BatchError.self) { try exporter.takeLease(wait: 0.2) }
        do {
            _ = try exporter.takeLease()
        } catch {
            #expect(error.message.contains("shard 2/3") && error.message.contains("pid \(getpid())"), "\(error.message)")
        }
        // Another shard is not held up.
        let other = try BatchExporter(
            inputs: [s.url("Docs")], outputFolder: s.url("Out"), options: BatchExportOptions(shard: Shard(index: 1, count: 3)))
        #expect(throws: Never.self) { _ = try other.takeLease() }
        // The lease goes with its holder (the kernel drops an flock when its file is closed,
        // as when the process dies): a waiting run then gets it.
        withExtendedLifetime(held) {}
        held = nil
        #expect(throws: Never.self) { _ = try exporter.takeLease(wait: 1) }
    }

    @Test func theSchedulersVariablesNameTheShardAndAmbiguityIsRefused() throws {
        #expect(try ShardEnvironment.shard(from: ["EASEL_SHARD": "3/8"]) == Shard(index: 3, count: 8))
        let slurm = [
            "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4",
        ]
        #expect(try ShardEnvironment.shard(from: slurm) == Shard(index: 1, count: 4), "an array from 0")
        #expect(
            try ShardEnvironment.shard(from: [
                "SLURM_ARRAY_TASK_ID": "16", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "16",
                "SLURM_ARRAY_TASK_COUNT": "16",
            ]) == Shard(index: 16, count: 16))
        #expect(
            try ShardEnvironment.shard(from: ["JOB_COMPLETION_INDEX": "5", "EASEL_SHARD_COUNT": "8"]) == Shard(index: 6, count: 8)
        )
        #expect(try ShardEnvironment.shard(from: ["JOB_COMPLETION_INDEX": "0"], count: 2) == Shard(index: 1, count: 2))
        let refusals: [([String: String], String)] = [
            ([:], "found no scheduler's variables"),
            (["EASEL_SHARD": "1/2", "JOB_COMPLETION_INDEX": "0"], "ambiguous"),
            (["JOB_COMPLETION_INDEX": "0"], "not how many indexes"),
            (["JOB_COMPLETION_INDEX": "8", "EASEL_SHARD_COUNT": "8"], "within the count"),
            (["EASEL_SHARD": "9/8"], "K/N"),
            (
                [
                    "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6",
                    "SLURM_ARRAY_TASK_COUNT": "4",
                ],
                "not one per index"
            ),
            (["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"], "whole number"),
            (
                [
                    "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "1",
                    "SLURM_ARRAY_TASK_MAX": "\(Int.max)",
                ],
                "SLURM_ARRAY_TASK_MAX must be a whole number"
            ),
        ]
        for (environment, message) in refusals {
            do {
                _ = try ShardEnvironment.shard(from: environment)
                Issue.record("\(environment) was taken")
            } catch {
                #expect(error.message.contains(message), "\(environment): \(error.message)")
            }
        }
    }

    @Test func shardReportsMergeIntoTheWholeExportsNamingWhatIsMissing() throws {
        let s = ExportScratch()
        try FolderExportTests.documents(s, cards: 6)
        let reports = try (1...3).map { ("report-\($0).json", try run(s, $0, of: 3)) }
        let whole = BatchReport.merged(reports)
        #expect(whole.isComplete && whole.report.totals.documents == 11 && whole.report.entries.count == 11)
        #expect(whole.report.shard == nil && whole.report.documentSet == reports[0].1.documentSet)
        let missing = BatchReport.merged(Array(reports.dropLast()))
        #expect(missing.problems == ["shard 3/3 is missing"])
        var other = reports[2].1
        other.documentSet = "3:0000000000000000"
        let mixed = BatchReport.merged([reports[0], reports[1], ("other.json", other)])
        #expect(mixed.problems.contains { $0.contains("different document sets") })
        let twice = BatchReport.merged(reports + [reports[1]])
        #expect(twice.problems.contains("shard 2/3 is given twice (report-2.json and report-2.json); the last is used"))
        let page = whole.report.html(title: "Export <report>", problems: ["a & b"])
        #expect(page.contains("Export &lt;report&gt;") && page.contains("a &amp; b") && page.contains("Failed (4)"))
    }
}
