/// `easel export --json`: one object per document as it finishes, then one with the run's
/// totals, each a line of NDJSON. Library values, so that a caller other than the CLI (a job
/// runner, a test) gets the same events.
public struct BatchDocumentEvent: Encodable, Sendable {
    /// The document's line of the report, its time to a tenth of a millisecond: the event's
    /// fields are the entry's (`input`, `output`, `status`, `warnings`, `error`,
    /// `milliseconds`), beside `"event": "document"`.
    public var entry: BatchEntry

    /// The event for `entry`.
    public init(_ entry: BatchEntry) {
        self.entry = entry
        self.entry.milliseconds = (entry.milliseconds * 10).rounded() / 10
    }

    private enum Key: String, CodingKey { case event }

    /// `"event": "document"` and the entry's own fields, in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode("document", forKey: .event)
        try entry.encode(to: encoder)
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
