import Foundation

/// One document of a batch: where it is, its key in the manifest and report, where it goes.
public struct BatchItem: Hashable, Sendable {
    public var input: URL
    /// The document's path relative to the output folder's mirror (also its manifest key).
    public var key: String
    /// The output's path relative to the output folder.
    public var output: String
}

public enum BatchStatus: String, Codable, Sendable {
    case rendered, skipped, failed
    /// Dry run: would be rendered.
    case planned
}

/// One line of the report.
public struct BatchEntry: Codable, Sendable {
    public var input: String
    public var output: String
    public var status: BatchStatus
    public var warnings: [String]
    public var error: String?
    public var milliseconds: Double
}

/// The report of a run (`--report FILE.json`); its schema is documented in the README.
public struct BatchReport: Codable, Sendable {
    public struct Totals: Codable, Sendable {
        public var documents: Int
        public var rendered: Int
        public var skipped: Int
        public var failed: Int
        public var planned: Int
        public var notStarted: Int
        public var seconds: Double
        public var documentsPerSecond: Double
        public var peakMemoryBytes: Int?
    }

    public var outputFolder: String
    public var interrupted: Bool
    public var entries: [BatchEntry]
    public var totals: Totals
}

/// Live counts for a progress display.
public struct BatchProgress: Sendable {
    public var total: Int
    public var done: Int
    public var rendered: Int
    public var skipped: Int
    public var failed: Int
    public var elapsed: Double
}

/// Why a batch cannot start.
public struct BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
