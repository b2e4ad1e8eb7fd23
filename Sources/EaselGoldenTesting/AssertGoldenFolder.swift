import EaselBatch
import EaselGolden
import EaselRender
import Foundation

/// Checks a whole folder of documents against a folder of goldens, as `easel golden verify`
/// does, from a test: each failing document is its own test failure (with its message), and
/// with `report` the HTML, JSON and JUnit report is written there to look at.
///
/// Paths that are not absolute are resolved against the package that holds the calling test
/// file (the folder of its `Package.swift`), so `assertGoldenFolder("Documents", goldens:
/// "Goldens/Documents")` works from any working directory.
///
/// The record mode (`record`, else `EASEL_GOLDEN_RECORD`, else `never` when `CI` is set and
/// `missing` when it is not) decides whether goldens are written first: `missing` writes the goldens that do
/// not exist, `failed` rewrites those the rendering no longer matches (and missing ones),
/// `all` rewrites every one. Writing a golden always fails the test, naming it, so nothing
/// passes unseen; a golden is never deleted.
public func assertGoldenFolder(
    _ documents: String, goldens: String, report: String? = nil, options: RenderOptions? = nil,
    tolerance: Tolerance? = nil, record: RecordMode? = nil, registry: DocumentRegistry = .standard, jobs: Int = 1,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    func fail(_ message: String) { GoldenSession.report(message, filePath: filePath, line: line, column: column) }
    guard let root = GoldenSession.packageRoot(from: filePath) else {
        return fail("no Package.swift above \(filePath): cannot resolve \(documents)")
    }
    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    }
    let suite = GoldenSuite(documents: resolve(documents), goldens: resolve(goldens), registry: registry)
    do {
        let mode = try record ?? RecordMode.fromEnvironment()
        if mode != .never {
            // Recorded as verify will render them: the goldens' settings unless told otherwise
            // (a settings file that cannot be read is a failure naming it, here and in check).
            let settings = try suite.settings()
            let outcomes = try suite.record(
                options: options ?? settings?.render ?? RenderOptions(), onlyMissing: mode == .missing,
                onlyFailing: mode == .failed ? (tolerance ?? settings?.tolerance ?? .default) : nil)
            for outcome in outcomes {
                switch outcome {
                case .recorded(let golden): fail("recorded \(golden.path) (\(mode.rawValue) mode): look at it, then commit it")
                case .failed(let reason): fail(reason)
                case .kept: break
                }
            }
        }
        let run = try suite.check(options: options, tolerance: tolerance, report: report.map(resolve), jobs: jobs)
        for failure in run.failures {
            let document = failure.document.map { suite.documents.appendingPathComponent($0).path } ?? failure.golden
            fail("\(document): \(failure.message ?? failure.status.rawValue)")
        }
        if !run.failures.isEmpty, let folder = run.report {
            fail("\(run.summary); report: \(folder.appendingPathComponent(GoldenReport.htmlName).path)")
        }
    } catch {
        fail("\(error)")
    }
}
