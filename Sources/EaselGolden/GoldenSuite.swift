import EaselBatch
import EaselCairo
import EaselDocuments
import EaselRender
import Foundation

/// A folder of documents and the folder of their goldens, in the layout
/// `easel export DOCS --out GOLDENS` writes (`DOCS/A/x.rwcard` has the golden
/// `GOLDENS/A/x.png`): verify every document against its golden, record goldens, and find
/// goldens whose document is gone. What `easel golden verify|record|prune` runs.
public struct GoldenSuite {
    /// The documents folder.
    public var documents: URL
    /// The goldens folder.
    public var goldens: URL
    /// The document types the suite opens.
    public var registry: DocumentRegistry

    /// A suite over `documents` and `goldens`, opening Easel's own document types by default.
    public init(documents: URL, goldens: URL, registry: DocumentRegistry = .standard) {
        self.documents = documents
        self.goldens = goldens
        self.registry = registry
    }

    /// One document's verdict.
    public struct Entry: Codable, Sendable {
        /// The document's path.
        public var document: String
        /// The golden PNG's path, whether or not it exists.
        public var golden: String
        /// True when the rendering matched the golden within the tolerance.
        public var passed: Bool
        /// Why it failed (rendering, a missing golden, or how far off); nil when it passed.
        public var message: String?
        /// The failure's composite (expected | difference | actual), when one was written.
        public var composite: String?
        /// What differed; nil when identical, sized differently, or not compared at all.
        public var statistics: DifferenceStatistics?
        /// The actual image when there is no composite (a missing golden), for the report.
        public var actual: String?
        /// How long rendering and comparing took, in seconds.
        public var seconds: Double = 0
    }

    /// What happened to one document when recording.
    public enum RecordOutcome: Sendable {
        /// The golden was written here.
        case recorded(URL)
        /// It was left alone (`onlyMissing` and it exists).
        case kept(URL)
        /// The document could not be rendered or its golden written.
        case failed(String)
    }

    /// The file in the goldens folder that records the render options the goldens were
    /// recorded with, so that verifying renders them the same way.
    public var settingsURL: URL { goldens.appendingPathComponent(".easel-golden-settings.json") }

    /// The render options the goldens were recorded with, if `record` wrote them.
    public func recordedOptions() -> RenderOptions? {
        guard let bytes = try? FileIO.readBytes(at: settingsURL.path, maxBytes: 1 << 20) else { return nil }
        return try? JSONDecoder().decode(RenderOptions.self, from: Data(bytes))
    }

    /// (document, golden name without `.png`) pairs, in the batch-export layout. Throws
    /// when the documents folder does not exist or holds no document: a typo must never look
    /// like a suite with nothing to check, nor make every golden an orphan.
    public func pairs() throws(BatchError) -> [(document: URL, name: String)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: documents.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw BatchError(message: "the documents folder \(documents.path) does not exist; check the path")
        }
        let exporter = try BatchExporter(
            inputs: [documents], outputFolder: goldens, options: BatchExportOptions(excluded: [goldens]),
            registry: registry)
        let pairs = exporter.plan().filter { $0.problem == nil }.map { ($0.input, ($0.output as NSString).deletingPathExtension) }
        guard !pairs.isEmpty else {
            let kinds = registry.supportedExtensions.map { "." + $0 }.joined(separator: ", ")
            throw BatchError(message: "the documents folder \(documents.path) holds no documents (\(kinds)); check the path")
        }
        return pairs
    }

    /// Renders every document with `options` (as PNG pixels) and compares it with its
    /// golden; failures leave their artifacts (composite, statistics) in `artifacts`.
    public func verify(options: RenderOptions, tolerance: Tolerance, artifacts: URL) throws(BatchError) -> [Entry] {
        var verifier = GoldenVerifier(
            goldensFolder: goldens, artifactsFolder: artifacts, recordMode: .never, tolerance: tolerance)
        verifier.missingGoldenHint =
            "record it with `easel golden record \(documents.path) \(goldens.path) --only-missing`, then look at it"
        var options = options
        options.format = .png
        return try pairs().map { document, name in
            let golden = verifier.goldenURL(name).path
            let started = Date()
            var entry: Entry
            do {
                let image = try DocumentRenderer.render(try registry.open(document), options: options).image
                let outcome = verifier.verify(image, named: name)
                // Name only artifacts that exist: a missing golden has no composite, only its actual image.
                func existing(_ file: String) -> String? {
                    outcome.artifacts.map { $0.appendingPathComponent(file).path }.flatMap {
                        FileManager.default.fileExists(atPath: $0) ? $0 : nil
                    }
                }
                let composite = existing("composite.png")
                entry = Entry(
                    document: document.path, golden: golden, passed: outcome.passed, message: outcome.message,
                    composite: composite, statistics: outcome.comparison?.statistics,
                    actual: composite == nil ? existing("actual.png") : nil)
            } catch {
                entry = Entry(document: document.path, golden: golden, passed: false, message: "\(error)")
            }
            entry.seconds = Date().timeIntervalSince(started)
            return entry
        }
    }

    /// Renders every document with `options` (as PNG) and writes its golden, or only the
    /// missing ones. `each` hears of every document as it is done.
    /// With `onlyFailing`, a golden that exists is rewritten only when the rendering does
    /// not match it within that tolerance (accepting intended changes, keeping the rest).
    public func record(
        options: RenderOptions, onlyMissing: Bool = false, onlyFailing: Tolerance? = nil,
        each: (RecordOutcome) -> Void = { _ in }
    ) throws(BatchError) -> [RecordOutcome] {
        var options = options
        options.format = .png
        let outcomes = try pairs().map { document, name in
            let golden = goldens.appendingPathComponent(name + ".png")
            let outcome: RecordOutcome
            if onlyMissing && FileManager.default.fileExists(atPath: golden.path) {
                outcome = .kept(golden)
            } else {
                do {
                    let located = try registry.open(document)
                    if let tolerance = onlyFailing,
                        let expected = try? PNGDecoder.decode(
                            FileIO.readBytes(at: golden.path, maxBytes: RenderLimits.maxImageFileBytes)),
                        ImageComparator.compare(
                            try DocumentRenderer.render(located, options: options).image, expected, tolerance: tolerance
                        )
                        .passed
                    {
                        outcome = .kept(golden)
                    } else {
                        let file = try DocumentRenderer.export(located, options: options)
                        try FileManager.default.createDirectory(
                            at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
                        try file.write(to: golden.path)
                        outcome = .recorded(golden)
                    }
                } catch {
                    outcome = .failed("\(error)")
                }
            }
            each(outcome)
            return outcome
        }
        // Remember how they were rendered, for verify (only once there were documents).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let bytes = try? encoder.encode(options), (try? FileIO.createFolders(at: goldens.path)) != nil {
            try? AtomicFile.write(Array(bytes), to: settingsURL.path)
        }
        return outcomes
    }

    /// The goldens (relative paths ending in `.png`, sorted) that no document maps to.
    public func orphans() throws(BatchError) -> [String] {
        let wanted = Set(try pairs().map { $0.name + ".png" })
        var orphans: [String] = []
        if let enumerator = FileManager.default.enumerator(atPath: goldens.standardizedFileURL.path) {
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".png"), !(relative as NSString).lastPathComponent.hasPrefix(".") else { continue }
                if !wanted.contains(relative) { orphans.append(relative) }
            }
        }
        return orphans.sorted()
    }
}
