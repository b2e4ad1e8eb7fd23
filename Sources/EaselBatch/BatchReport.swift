import FoundationEssentials

/// One document of a batch: where it is, its key in the manifest and report, where it goes.
public struct BatchItem: Hashable, Sendable {
    /// The document file (or package folder).
    public var input: URL
    /// The document's path relative to the output folder's mirror (also its manifest key).
    public var key: String
    /// The output's path relative to the output folder.
    public var output: String
    /// The thumbnail's path relative to the output folder, when thumbnails are written.
    public var thumbnail: String?
    /// Why the entry cannot be exported (a symbolic link, a pipe, a name that is not
    /// UTF-8); nil for a document to export.
    public var problem: String?

    public init(input: URL, key: String, output: String, thumbnail: String? = nil, problem: String? = nil) {
        self.input = input
        self.key = key
        self.output = output
        self.thumbnail = thumbnail
        self.problem = problem
    }
}

/// What became of one document: rendered, skipped as up to date, failed, or (dry run) planned.
public enum BatchStatus: String, Codable, Sendable {
    case rendered, skipped, failed
    /// Dry run: would be rendered.
    case planned
}

/// One line of the report.
public struct BatchEntry: Codable, Sendable {
    /// The document's path.
    public var input: String
    /// The main output file's path: written (rendered), up to date (skipped) or to be
    /// written (planned); nil for a failed document, which wrote nothing.
    public var output: String?
    /// What became of the document.
    public var status: BatchStatus
    /// Problems drawn around while rendering (a missing image, an unmapped font).
    public var warnings: [String]
    /// Why the document failed; nil unless `status` is `failed`.
    public var error: String?
    /// Wall-clock time spent on the document, in milliseconds.
    public var milliseconds: Double

    /// An entry with every field given.
    public init(input: String, output: String?, status: BatchStatus, warnings: [String], error: String?, milliseconds: Double) {
        self.input = input
        self.output = output
        self.status = status
        self.warnings = warnings
        self.error = error
        self.milliseconds = milliseconds
    }
}

/// The report of a run (`--report FILE.json`); its schema is documented in docs/batch.md.
public struct BatchReport: Codable, Sendable {
    /// Counts and timing for the whole run.
    public struct Totals: Codable, Sendable {
        /// The documents the run set out to handle.
        public var documents: Int
        /// The documents rendered and written.
        public var rendered: Int
        /// The documents skipped because their outputs were up to date.
        public var skipped: Int
        /// The documents that could not be rendered or written.
        public var failed: Int
        /// The rendered documents drawn with warnings (a missing image, an unmapped font);
        /// each entry lists its own.
        public var withWarnings: Int
        /// In a dry run, the documents that would be rendered.
        public var planned: Int
        /// The documents never started because the run was interrupted or stopped at a failure.
        public var notStarted: Int
        /// Wall-clock duration of the run, in seconds.
        public var seconds: Double
        /// Rendered documents per second of the run; 0 when no time passed.
        public var documentsPerSecond: Double
        /// The process's peak resident memory in bytes; nil where /proc is not available.
        public var peakMemoryBytes: Int?
    }

    /// The output folder's path.
    public var outputFolder: String
    /// True when the run was cancelled before every document was started.
    public var interrupted: Bool
    /// One entry per document started, in plan order.
    public var entries: [BatchEntry]
    /// Counts and timing for the whole run.
    public var totals: Totals
    /// The shard this run exported (`K/N`); nil for the whole set.
    public var shard: String?
    /// The fingerprint of the whole document set the run's shard was taken from (its size
    /// and a hash of every document's key, `2000:9f3c…`): the shards of one export agree on
    /// it, and `easel report merge` refuses to merge shards of different sets.
    public var documentSet: String?

    /// A report with every field given.
    public init(
        outputFolder: String, interrupted: Bool, entries: [BatchEntry], totals: Totals, shard: String? = nil,
        documentSet: String? = nil
    ) {
        self.outputFolder = outputFolder
        self.interrupted = interrupted
        self.entries = entries
        self.totals = totals
        self.shard = shard
        self.documentSet = documentSet
    }
}

/// Live counts for a progress display.
public struct BatchProgress: Sendable {
    /// The documents in the plan.
    public var total: Int
    /// The documents finished so far, whatever their outcome.
    public var done: Int
    /// The documents rendered so far.
    public var rendered: Int
    /// The documents skipped as up to date so far.
    public var skipped: Int
    /// The documents that failed so far.
    public var failed: Int
    /// Seconds since the run started.
    public var elapsed: Double
}

/// Why a batch cannot start.
public struct BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do instead.
    public var message: String
    /// Whether the command line asked for what cannot be (a folder that does not exist, an
    /// output inside an input: a usage error), rather than a run that failed on its way (a
    /// settings file that does not read, a report that cannot be written).
    public var isUsage: Bool
    /// The message, as shown to the user.
    public var description: String { message }

    public init(message: String, isUsage: Bool = true) {
        self.message = message
        self.isUsage = isUsage
    }
}
