import EaselGeometry
import EaselSupport
import FoundationEssentials
import EaselDocuments
import EaselRender
import EaselCairo

/// The result of checking one image against its golden.
public struct GoldenOutcome: Sendable {
    /// True when the image matched its golden within the tolerance; false when one was written.
    public var passed: Bool
    /// Why it failed (nil when it passed).
    public var message: String?
    /// True when this check wrote the golden.
    public var recorded: Bool
    /// Where the failure's images and statistics were written.
    public var artifacts: URL?
    /// What the comparison found; nil when no golden was compared or one was written.
    public var comparison: ComparisonSummary?
    /// False when there was no golden file (it may have been recorded now).
    public var goldenExists = true

    /// An outcome with every field given.
    public init(passed: Bool, message: String?, recorded: Bool, artifacts: URL?, comparison: ComparisonSummary?) {
        self.passed = passed
        self.message = message
        self.recorded = recorded
        self.artifacts = artifacts
        self.comparison = comparison
    }
}

/// What a comparison found, as written to `statistics.json`.
public struct ComparisonSummary: Codable, Sendable {
    /// The golden PNG's path.
    public var golden: String
    /// "passed" or "failed".
    public var verdict: String
    /// The tolerance the images were compared with.
    public var tolerance: Tolerance
    /// The rendered image as `[width, height]` in pixels.
    public var actualSize: [Int]
    /// The golden as `[width, height]` in pixels.
    public var expectedSize: [Int]?
    /// What differed; nil when the images are identical or of different sizes.
    public var statistics: DifferenceStatistics?
    /// The smallest tolerance under which the images would have matched; nil when identical
    /// or of different sizes.
    public var wouldPassWith: Tolerance?

    /// A summary; statistics and the passing tolerance are added once pixels were compared.
    public init(
        golden: String, verdict: String, tolerance: Tolerance, actualSize: [Int], expectedSize: [Int]?,
        statistics: DifferenceStatistics? = nil, wouldPassWith: Tolerance? = nil
    ) {
        self.golden = golden
        self.verdict = verdict
        self.tolerance = tolerance
        self.actualSize = actualSize
        self.expectedSize = expectedSize
        self.statistics = statistics
        self.wouldPassWith = wouldPassWith
    }
}

/// Checks images against golden PNGs in a folder, records them per the record mode, and
/// writes artifacts for failures: `actual.png`, `expected.png`, `composite.png`
/// (expected | difference | actual) and `statistics.json`.
public struct GoldenVerifier: Sendable {
    /// The folder holding the golden PNGs, by relative name.
    public var goldensFolder: URL
    /// Where each failure's files go, in a folder named after the golden.
    public var artifactsFolder: URL
    /// When goldens are written instead of (or as well as) compared.
    public var recordMode: RecordMode
    /// How different an image may be from its golden and still pass.
    public var tolerance: Tolerance
    /// What a failure for a missing golden tells the user to do (the CLI names its own
    /// command; tests name the environment variable their assertions read).
    public var missingGoldenHint = "run with \(RecordMode.environmentVariable)=missing to record it, then look at it"
    /// What to do about a golden that is there but is not a PNG Easel can read (the CLI
    /// names its own command).
    public var unreadableGoldenHint =
        "run with \(RecordMode.environmentVariable)=failed to record it again, then look at it"
    /// Whether a failure's message ends with where its composite was written (not when the
    /// caller shows the artifacts itself, as a report does).
    public var mentionsArtifacts = true
    /// How a failure's message writes the tolerance that would pass: in Swift for tests (the
    /// default), as `easel golden` options for the command line.
    public var toleranceSpelling = Tolerance.Spelling.swift

    /// A verifier; by default with the tolerance that ignores antialiasing noise only.
    public init(goldensFolder: URL, artifactsFolder: URL, recordMode: RecordMode, tolerance: Tolerance = .default) {
        self.goldensFolder = goldensFolder
        self.artifactsFolder = artifactsFolder
        self.recordMode = recordMode
        self.tolerance = tolerance
    }

    /// The golden file for `name` (a relative path without `.png`, such as `Cards/rotations`).
    public func goldenURL(_ name: String) -> URL { goldensFolder.appendingPathComponent(name + ".png") }

    /// Checks `image` against the golden `name` (relative, without `.png`), recording it as
    /// the record mode says and writing artifacts on failure; differences inside `ignoring`
    /// never count. Never throws: problems fail it.
    public func verify(_ image: RasterImage, named name: String, ignoring: [PixelRect] = []) -> GoldenOutcome {
        // A name is a path below the goldens folder: a test never reads or writes beside it
        // (its golden, and its artifacts under the artifacts folder, are made from the name).
        if let problem = GoldenAcceptance.nameProblem(name) {
            return GoldenOutcome(passed: false, message: problem, recorded: false, artifacts: nil, comparison: nil)
        }
        let golden = goldenURL(name)
        // As the folder was given: relative stays relative (reports travel between machines).
        let displayName = golden.relativePath
        let expectedBytes: [UInt8]
        do { expectedBytes = try FileIO.readBytes(at: golden.path, maxBytes: RenderLimits.maxImageFileBytes) } catch {
            // Something stands at the golden's name but is no file to read (a folder, a pipe,
            // a link to a device, a file too large): said as it is, never taken for a missing
            // golden; replaced only where an unreadable golden would be.
            if FileIO.entryExists(atPath: golden.path) {
                if recordMode == .all || recordMode == .failed {
                    return record(image, to: golden, name: name, reason: "replaced the unreadable golden \(displayName)")
                }
                return GoldenOutcome(
                    passed: false,
                    message: "\(displayName): the golden cannot be read (\(error.reason)); \(unreadableGoldenHint)",
                    recorded: false, artifacts: writeArtifacts(name, actual: image, expected: nil, summary: nil),
                    comparison: nil)
            }
            var outcome: GoldenOutcome
            if recordMode == .never {
                outcome = GoldenOutcome(
                    passed: false,
                    message:
                        "\(displayName): no golden (record mode never: \(missingGoldenHint))",
                    recorded: false, artifacts: writeArtifacts(name, actual: image, expected: nil, summary: nil), comparison: nil)
            } else {
                outcome = record(image, to: golden, name: name, reason: "recorded the new golden \(displayName)")
            }
            outcome.goldenExists = false
            return outcome
        }
        let expected: RasterImage
        do { expected = try PNGDecoder.decode(expectedBytes) } catch {
            if recordMode == .all || recordMode == .failed {
                return record(image, to: golden, name: name, reason: "replaced the unreadable golden \(displayName)")
            }
            // A Git LFS pointer is what a clone without `git lfs pull` holds in place of
            // the image: the common case, with its own remedy.
            let problem =
                expectedBytes.starts(with: Array("version https://git-lfs.github.com/spec/".utf8))
                ? "the golden is a Git LFS pointer, not the image: run `git lfs pull`, or \(unreadableGoldenHint)"
                : "the golden cannot be read (\(error)); \(unreadableGoldenHint)"
            // The rendering is kept, so that the report shows what would be recorded.
            return GoldenOutcome(
                passed: false, message: "\(displayName): \(problem)", recorded: false,
                artifacts: writeArtifacts(name, actual: image, expected: nil, summary: nil), comparison: nil)
        }
        let result = ImageComparator.compare(image, expected, tolerance: tolerance, ignoring: ignoring)
        var summary = ComparisonSummary(
            golden: displayName, verdict: result.passed ? "passed" : "failed", tolerance: tolerance,
            actualSize: [image.width, image.height], expectedSize: [expected.width, expected.height])
        let message: String
        switch result {
        case .identical:
            return GoldenOutcome(passed: true, message: nil, recorded: false, artifacts: nil, comparison: summary)
        case .sizeMismatch(let actualSize, let expectedSize):
            message =
                "\(displayName): the image is \(actualSize.width)x\(actualSize.height) but the golden is \(expectedSize.width)x\(expectedSize.height)"
        case .different(let statistics, let passed):
            summary.statistics = statistics
            summary.wouldPassWith = ImageComparator.passingTolerance(for: statistics, tolerance: tolerance)
            if passed {
                if recordMode == .all {
                    return record(
                        image, to: golden, name: name,
                        reason: "re-recorded \(displayName): \(statistics.pixelsDifferingAtAll) pixels changed (within tolerance)"
                    )
                }
                return GoldenOutcome(passed: true, message: nil, recorded: false, artifacts: nil, comparison: summary)
            }
            message = Self.describe(statistics, golden: displayName, tolerance: tolerance, spelling: toleranceSpelling)
        }
        let artifacts = writeArtifacts(name, actual: image, expected: expected, summary: summary, ignoring: ignoring)
        if recordMode == .all || recordMode == .failed {
            var outcome = record(image, to: golden, name: name, reason: "re-recorded after: " + message)
            outcome.artifacts = artifacts
            return outcome
        }
        return GoldenOutcome(
            passed: false,
            message: message
                + (artifacts.flatMap { mentionsArtifacts ? $0 : nil }.map {
                    ". Artifacts (expected | difference | actual): \($0.appendingPathComponent("composite.png").path)"
                } ?? ""),
            recorded: false, artifacts: artifacts, comparison: summary)
    }

    /// A failure message that says how far off it was and which tolerance would have passed,
    /// written in `spelling` (Swift for a test, options for the command line).
    public static func describe(
        _ s: DifferenceStatistics, golden: String, tolerance: Tolerance, spelling: Tolerance.Spelling = .swift
    ) -> String {
        let percent = String(printf: "%.3f", s.differingRatio * 100)
        let mean = String(printf: "%.1f", s.meanChannelDelta)
        let clusters = s.clusters.prefix(3).map(\.description).joined(separator: ", ") + (s.clusterCount > 3 ? ", …" : "")
        let beyond = tolerance.metric == .channelDelta ? "beyond the noise floor" : "beyond the threshold"
        var notCounted: [String] = []
        if s.antialiasedPixels > 0 { notCounted.append("\(s.antialiasedPixels) anti-aliased") }
        if s.ignoredPixels > 0 { notCounted.append("\(s.ignoredPixels) in ignored regions") }
        let uncounted = notCounted.isEmpty ? "" : "; not counted: " + notCounted.joined(separator: ", ")
        return
            "\(golden): \(s.differingPixels) pixels differ \(beyond) (\(percent) % of \(s.width * s.height))\(uncounted), largest channel difference \(s.maxChannelDelta), mean \(mean), in \(s.clusterCount) cluster\(s.clusterCount == 1 ? "" : "s") (\(clusters)); tolerance: \(tolerance); it would pass with \(ImageComparator.passingTolerance(for: s, tolerance: tolerance).spelled(spelling))"
    }

    private func record(_ image: RasterImage, to golden: URL, name: String, reason: String) -> GoldenOutcome {
        do {
            try FileIO.createFolders(at: golden.deletingLastPathComponent().path)
            try image.writePNG(to: golden.path)
            return GoldenOutcome(
                passed: false, message: "\(reason); look at it, then run again", recorded: true, artifacts: nil, comparison: nil)
        } catch {
            return GoldenOutcome(
                passed: false, message: "\(golden.path): cannot record the golden: \(error)", recorded: false, artifacts: nil,
                comparison: nil)
        }
    }

    /// Writes the failure's files; returns their folder (nil if they could not be written).
    private func writeArtifacts(
        _ name: String, actual: RasterImage, expected: RasterImage?, summary: ComparisonSummary?, ignoring: [PixelRect] = []
    ) -> URL? {
        let folder = artifactsFolder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // A previous run's files of this name (only those Easel writes) must not be
            // taken for this run's: a composite that cannot be made now leaves none.
            for file in ["actual.png", "expected.png", "composite.png", "statistics.json"] {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
            }
            try actual.writePNG(to: folder.appendingPathComponent("actual.png").path)
            if let summary {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try AtomicFile.write(
                    Array(try encoder.encode(summary)), to: folder.appendingPathComponent("statistics.json").path)
            }
            if let expected {
                try expected.writePNG(to: folder.appendingPathComponent("expected.png").path)
                // The picture comes last and on its own: if it cannot be made, the statistics
                // and the images are still there, and the verdict is the same.
                if let composite = try? DifferenceComposite.make(
                    expected: expected, actual: actual, statistics: summary?.statistics, tolerance: tolerance,
                    ignoring: ignoring)
                {
                    try? composite.writePNG(to: folder.appendingPathComponent("composite.png").path)
                }
            }
            return folder
        } catch {
            return nil
        }
    }
}
