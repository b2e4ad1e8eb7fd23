/// `easel export --json`: one object per document as it finishes, then one with the run's
/// totals, each a line of NDJSON. Library values, so that a caller other than the CLI (a job
/// runner, a test) gets the same events.
public struct BatchDocumentEvent: Encodable, Sendable {
    /// Always "document".
    public var event = "document"
    /// The document, as the entry names it.
    public var input: String
    /// Its output, when one was planned or written.
    public var output: String?
    /// What became of it.
    public var status: BatchStatus
    /// What drawing it noticed.
    public var warnings: [String]
    /// Why it failed.
    public var error: String?
    /// How long it took, to a tenth of a millisecond.
    public var milliseconds: Double

    /// The event for `entry`.
    public init(_ entry: BatchEntry) {
        input = entry.input
        output = entry.output
        status = entry.status
        warnings = entry.warnings
        error = entry.error
        milliseconds = (entry.milliseconds * 10).rounded() / 10
    }
}

/// The last `--json` object of an export: the run's totals.
public struct BatchTotalsEvent: Encodable, Sendable {
    /// Always "totals".
    public var event = "totals"
    /// Documents in the run, and how many of them each outcome had.
    public var documents: Int, rendered: Int, skipped: Int, failed: Int, withWarnings: Int, planned: Int, notStarted: Int
    /// The run's time, to a millisecond.
    public var seconds: Double
    /// True when a signal stopped the run before every document was started.
    public var interrupted: Bool

    /// The totals of a folder export.
    public init(_ report: BatchReport) {
        let t = report.totals
        (documents, rendered, skipped, failed) = (t.documents, t.rendered, t.skipped, t.failed)
        (withWarnings, planned, notStarted) = (t.withWarnings, t.planned, t.notStarted)
        seconds = (t.seconds * 1000).rounded() / 1000
        interrupted = report.interrupted
    }

    /// The totals of a single document's export, rendered as `entry` says.
    public init(single entry: BatchEntry) {
        (documents, rendered, skipped, failed) = (1, 1, 0, 0)
        (withWarnings, planned, notStarted) = (entry.warnings.isEmpty ? 0 : 1, 0, 0)
        seconds = (entry.milliseconds).rounded() / 1000
        interrupted = false
    }
}
