import EaselBatch
import EaselDocuments
import EaselRender
import EaselSupport
import FoundationEssentials
import Glibc

/// The result of `GoldenSuite.check`: every entry, and the report folder when one was written.
public struct GoldenSuiteRun: Sendable {
    /// Every document's result in document order, then the goldens without a document.
    public var entries: [GoldenSuite.Entry]
    /// The options the documents were rendered with (the goldens' recorded ones unless given).
    public var options: RenderOptions
    /// The tolerance they were judged with.
    public var tolerance: Tolerance
    /// The report folder (`index.html`, `report.json`, `junit.xml`), when one was asked for.
    public var report: URL?

    /// The entries that fail: a document that differs, has no golden, or cannot be rendered.
    public var failures: [GoldenSuite.Entry] { entries.filter { !$0.passed } }
    /// Goldens whose document is gone (reported, not failures).
    public var orphans: [GoldenSuite.Entry] { entries.filter { $0.status == .missing } }
    /// "3 of 4 documents match their goldens".
    public var summary: String {
        let documents = entries.count - orphans.count
        return "\(documents - failures.count) of \(documents) documents match their goldens"
    }
}

extension GoldenSuite {
    /// Verifies the folder as `easel golden verify` does: rendered with the options the
    /// goldens were recorded with (from the goldens folder's settings) unless `options` is
    /// given, judged with `tolerance`, else the settings' tolerance, else `Tolerance.default`,
    /// ignoring the settings' regions. With `report`, writes the HTML, JSON and JUnit report
    /// there, with each failure's images under `report/artifacts`; without it, the artifacts
    /// go to a temporary folder that is removed before returning. Failures suggest a passing
    /// tolerance in `spelling`: Swift (the default) or `easel golden` options.
    ///
    /// - Throws: `BatchError` when the documents folder does not exist or holds no document,
    ///   when the settings file cannot be read (naming it and the key path), or when the
    ///   report cannot be written.
    public func check(
        options: RenderOptions? = nil, tolerance: Tolerance? = nil, report: URL? = nil, jobs: Int = 1,
        spelling: Tolerance.Spelling = .swift
    ) throws(BatchError) -> GoldenSuiteRun {
        try check(
            options: options, tolerance: tolerance, report: report, jobs: jobs, spelling: spelling,
            temporaryParent: FileManager.default.temporaryDirectory)
    }

    /// `check`, with a run's artifacts (when no report keeps them) in a folder made in
    /// `temporaryParent`: a test sees there that none is left behind.
    func check(
        options: RenderOptions?, tolerance: Tolerance?, report: URL?, jobs: Int, spelling: Tolerance.Spelling,
        temporaryParent: URL
    ) throws(BatchError) -> GoldenSuiteRun {
        let settings: GoldenSettings?
        do { settings = try self.settings() } catch { throw BatchError(message: error.description, isUsage: false) }
        let options = options ?? settings?.render ?? RenderOptions()
        let tolerance = tolerance ?? settings?.tolerance ?? .default
        let temporary = temporaryParent.appendingPathComponent("easel-golden-\(UUID().uuidString)")
        defer { if report == nil { try? FileManager.default.removeItem(at: temporary) } }
        let artifacts = report?.appendingPathComponent("artifacts") ?? temporary
        // An earlier report in the folder goes first: a run stopped half way must not leave
        // the old report.json naming the new run's images (accept would adopt them unseen).
        // Only an earlier report: a folder holding someone's index.html is refused, before
        // anything is rendered, as is one that cannot be made.
        if let report {
            try Self.checkReportFolder(report)
            for name in [GoldenReport.jsonName, GoldenReport.htmlName, GoldenReport.junitName] {
                let file = report.appendingPathComponent(name).path
                guard unlink(file) == 0 || errno == ENOENT else {
                    throw BatchError(
                        message: "\(file): the earlier report cannot be removed: \(String(cString: strerror(errno)))")
                }
            }
        }
        let entries = try verify(
            options: options, tolerance: tolerance, ignore: settings?.ignore ?? [:], artifacts: artifacts, jobs: jobs,
            spelling: spelling)
        if let report {
            do {
                try GoldenReport(
                    entries, folder: report, documents: documents.relativePath, goldens: goldens.relativePath,
                    tolerance: tolerance, render: options
                ).write(to: report)
            } catch let error as DocumentError {
                throw BatchError(message: "\(report.path): the report cannot be written: \(error.reason)", isUsage: false)
            } catch {
                throw BatchError(
                    message: "\(report.path): the report cannot be written: \(error)", isUsage: false)
            }
        }
        return GoldenSuiteRun(entries: entries, options: options, tolerance: tolerance, report: report)
    }

    /// Throws unless `report` may hold this run's report: made if it is not there, and
    /// holding no report file (`report.json`, `index.html`, `junit.xml`) unless its
    /// `report.json` reads as an earlier report of verify's.
    static func checkReportFolder(_ report: URL) throws(BatchError) {
        do {
            try FileIO.createFolders(at: report.path)
        } catch {
            throw BatchError(message: "\(report.path): the report's folder cannot be made: \(error.reason)", isUsage: false)
        }
        let present = [GoldenReport.jsonName, GoldenReport.htmlName, GoldenReport.junitName].filter { name in
            var status = stat()
            return lstat(report.appendingPathComponent(name).path, &status) == 0
        }
        guard !present.isEmpty else { return }
        if (try? GoldenReport.read(from: report)) == nil {
            throw BatchError(
                message:
                    "\(report.path) holds \(present.joined(separator: ", ")), not an earlier report of easel golden verify; nothing was removed — choose another --report folder",
                isUsage: false)
        }
    }
}
