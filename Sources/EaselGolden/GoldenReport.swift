import EaselRender
import EaselSupport
import FoundationEssentials

/// The reports of a golden suite's verification (`easel golden verify --report DIR`):
/// `index.html` for people, `report.json` for tools (and `easel golden accept`), and
/// `junit.xml` for CI systems. Every path inside is relative: to the report folder for its
/// images, to the documents and goldens folders for documents and goldens, so a report
/// copied off a CI machine still shows every image and can still be accepted.
public struct GoldenReport: Codable, Sendable {
    /// The documents folder, as it was given to verify.
    public var documents: String
    /// The goldens folder, as it was given to verify (`accept` writes there by default).
    public var goldens: String
    /// The tolerance the documents were verified with.
    public var tolerance: Tolerance
    /// The render options they were rendered with.
    public var render: RenderOptions
    /// How many results have each status.
    public var counts: [String: Int]
    /// Every result: passed, failed, new (no golden yet), missing (no document), error.
    public var results: [Result]

    /// One result, with the images the report shows.
    public struct Result: Codable, Sendable {
        /// The golden's name (its path in the goldens folder without `.png`).
        public var name: String
        /// The document's path in the documents folder; nil for a golden without a document.
        public var document: String?
        /// The golden's path in the goldens folder.
        public var golden: String
        /// passed, failed, new, missing or error.
        public var status: GoldenSuite.Entry.Status
        /// Why it did not pass.
        public var message: String?
        /// What differed, when pixels were compared.
        public var statistics: DifferenceStatistics?
        /// Seconds spent rendering and comparing.
        public var seconds: Double
        /// The report's images of this result, relative to the report folder: `actual`,
        /// `expected`, `composite` (only those that exist).
        public var images: [String: String]

        /// A result with every field given.
        public init(
            name: String, document: String?, golden: String, status: GoldenSuite.Entry.Status, message: String? = nil,
            statistics: DifferenceStatistics? = nil, seconds: Double, images: [String: String]
        ) {
            self.name = name
            self.document = document
            self.golden = golden
            self.status = status
            self.message = message
            self.statistics = statistics
            self.seconds = seconds
            self.images = images
        }
    }

    /// The file names a report folder holds.
    public static let jsonName = "report.json", htmlName = "index.html", junitName = "junit.xml"

    /// A report of `entries`, with image paths relative to `folder`.
    public init(
        _ entries: [GoldenSuite.Entry], folder: URL, documents: String, goldens: String, tolerance: Tolerance,
        render: RenderOptions
    ) {
        self.documents = documents
        self.goldens = goldens
        self.tolerance = tolerance
        self.render = render
        counts = Dictionary(grouping: entries, by: { $0.status.rawValue }).mapValues(\.count)
        let root = folder.standardizedFileURL.path + "/"
        results = entries.map { entry in
            var images: [String: String] = [:]
            if let artifacts = entry.artifacts?.standardizedFileURL {
                for kind in ["actual", "expected", "composite"] {
                    let path = artifacts.appendingPathComponent(kind + ".png").path
                    // Only images inside the report: a report never points elsewhere.
                    if path.hasPrefix(root), FileManager.default.fileExists(atPath: path) {
                        images[kind] = String(path.dropFirst(root.count))
                    }
                }
            }
            return Result(
                name: entry.name, document: entry.document, golden: entry.golden, status: entry.status,
                message: entry.message, statistics: entry.statistics, seconds: entry.seconds, images: images)
        }
    }

    /// Writes `index.html`, `report.json` and `junit.xml` into `folder` (created if needed).
    public func write(to folder: URL) throws {
        try FileIO.createFolders(at: folder.path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(Array(try encoder.encode(self)), to: folder.appendingPathComponent(Self.jsonName).path)
        try AtomicFile.write(Array(junit.utf8), to: folder.appendingPathComponent(Self.junitName).path)
        try AtomicFile.write(
            Array(GoldenReportPage(report: self).html.utf8), to: folder.appendingPathComponent(Self.htmlName).path)
    }

    /// Reads a report folder's `report.json`; errors name the file and the key path.
    public static func read(from folder: URL) throws(DocumentError) -> GoldenReport {
        try decodeJSONFile(
            GoldenReport.self, at: folder.appendingPathComponent(jsonName).path, maxBytes: 256 << 20, what: "the report")
    }

    static func escape(_ text: String) -> String { text.htmlEscaped }

    /// JUnit XML: one test case per document; a golden without a document is skipped, not failed.
    var junit: String {
        let cases = results.filter { $0.status != .missing }
        let failures = cases.filter { $0.status == .failed || $0.status == .new }.count
        let errors = cases.filter { $0.status == .error }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        xml +=
            "  <testsuite name=\"easel golden verify\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for result in cases {
            xml +=
                "    <testcase classname=\"golden\" name=\"\((result.document ?? result.golden).xmlEscaped)\" time=\"\(String(printf: "%.3f", result.seconds))\""
            switch result.status {
            case .passed, .missing: xml += "/>\n"
            case .error:
                xml += ">\n      <error message=\"\((result.message ?? "error").xmlEscaped)\"/>\n    </testcase>\n"
            case .failed, .new:
                xml += ">\n      <failure message=\"\((result.message ?? "failed").xmlEscaped)\"/>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}
