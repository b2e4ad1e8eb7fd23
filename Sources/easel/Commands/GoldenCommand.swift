import ArgumentParser
import EaselSupport
import FoundationEssentials
import Glibc
import EaselDocuments
import EaselEditing
import EaselBatch
import EaselRender
import EaselCairo
import EaselGolden

struct GoldenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "golden",
        abstract: "Compare renderings with golden images: diff, verify, record, accept, prune.",
        discussion: """
            Goldens mirror a documents folder: DOCS/A/x.rwcard has the golden GOLDENS/A/x.png \
            (the layout `easel export DOCS --out GOLDENS` writes).
            """,
        subcommands: [GoldenDiff.self, GoldenVerify.self, GoldenRecord.self, GoldenAccept.self, GoldenPrune.self]
    )
}

/// Tolerance options shared by `diff`, `verify` and `record`.
struct ToleranceOptions: ParsableArguments {
    @Option(
        help: """
            A preset: exact; default (channel metric: noise floor 1, at most 4 pixels or 0.01 % of them, \
            difference at most 32); perceptual (pixelmatch's method: YIQ threshold 0.1, anti-aliased pixels \
            not counted, at most 4 pixels or 0.01 %).
            """)
    var tolerance: Preset?

    @Option(help: "How a pixel's difference is measured: channel (largest channel difference) or perceptual (YIQ).")
    var metric: Metric?

    @Option(
        parsing: .unconditional,
        help: "The perceptual metric's threshold, 0-1 (pixelmatch's default is 0.1); implies --metric perceptual.")
    var threshold: Double?

    @Flag(name: .customLong("count-antialiasing"), help: "Count anti-aliased pixels too (perceptual metric).")
    var countAntialiasing = false

    @Option(
        name: .customLong("max-delta"), parsing: .unconditional,
        help: "The largest channel difference allowed (0-255; channel metric).")
    var maxDelta: Int?

    @Option(name: .customLong("max-pixels"), help: "How many pixels may differ: a count (25) or a percentage (0.5%).")
    var maxPixels: String?

    @Option(
        name: .customLong("noise-floor"), parsing: .unconditional,
        help: "Channel differences up to this are ignored (channel metric).")
    var noiseFloor: Int?

    enum Preset: String, ExpressibleByArgument, CaseIterable { case exact, `default`, perceptual }
    enum Metric: String, ExpressibleByArgument, CaseIterable { case channel, perceptual }

    func validate() throws {
        if let maxDelta, !(0...255).contains(maxDelta) { throw ValidationError("--max-delta must be from 0 to 255.") }
        if let noiseFloor, !(0...255).contains(noiseFloor) { throw ValidationError("--noise-floor must be from 0 to 255.") }
        if let maxPixels, Self.pixelLimit(maxPixels) == nil {
            throw ValidationError("--max-pixels must be a count (25) or a percentage (0.5%).")
        }
        if let threshold, !(0...1).contains(threshold) { throw ValidationError("--threshold must be from 0 to 1.") }
        let perceptual = value.metric != .channelDelta
        if perceptual && (maxDelta != nil || noiseFloor != nil) {
            throw ValidationError(
                "--max-delta and --noise-floor belong to the channel metric; the perceptual one uses --threshold.")
        }
        if !perceptual && (threshold != nil || countAntialiasing) {
            throw ValidationError("--threshold and --count-antialiasing belong to the perceptual metric (--metric perceptual).")
        }
    }

    static func pixelLimit(_ text: String) -> Tolerance.PixelLimit? {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent >= 0, percent <= 100 else { return nil }
            return .ratio(percent / 100)
        }
        return Int(text).flatMap { $0 >= 0 ? .count($0) : nil }
    }

    /// True when any tolerance option was given (otherwise the goldens' own settings rule).
    var isGiven: Bool {
        tolerance != nil || metric != nil || threshold != nil || countAntialiasing || maxDelta != nil || maxPixels != nil
            || noiseFloor != nil
    }

    /// The tolerance the options describe, starting from `base` (the preset's, else the
    /// goldens' recorded one, else the default).
    func value(over base: Tolerance) -> Tolerance {
        var tolerance: Tolerance
        switch self.tolerance {
        case .exact: tolerance = .exact
        case .default: tolerance = .default
        case .perceptual: tolerance = .perceptual
        case nil: tolerance = base
        }
        let wantsPerceptual = metric == .perceptual || threshold != nil || (metric == nil && tolerance.metric != .channelDelta)
        if wantsPerceptual {
            var current = 0.1
            if case .perceptual(let threshold, _) = tolerance.metric { current = threshold }
            if tolerance.metric == .channelDelta && self.tolerance == nil && maxPixels == nil {
                tolerance.maxPixels = Tolerance.perceptual.maxPixels
            }
            tolerance.metric = .perceptual(threshold: threshold ?? current, countsAntialiasing: countAntialiasing)
        } else if metric == .channel, tolerance.metric != .channelDelta {
            tolerance = .default
        }
        if let maxDelta { tolerance.maxChannelDelta = maxDelta }
        if let maxPixels { tolerance.maxPixels = Self.pixelLimit(maxPixels)! }
        if let noiseFloor { tolerance.noiseFloor = noiseFloor }
        return tolerance
    }

    /// The tolerance over the default.
    var value: Tolerance { value(over: .default) }
}

struct GoldenDiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNGs: exit 0 within tolerance, 1 beyond it, 2 on bad input.",
        discussion: "Example: easel golden diff expected.png actual.png --out composite.png --max-pixels 0.1%"
    )

    @Argument(help: "The expected image (the golden).", completion: .file(extensions: ["png"]))
    var expected: String
    @Argument(help: "The actual image.", completion: .file(extensions: ["png"]))
    var actual: String
    @Option(name: .shortAndLong, help: "Write the composite expected | difference | actual here.")
    var out: String?
    @Flag(help: "Print the statistics as JSON.")
    var json = false
    @OptionGroup var tolerance: ToleranceOptions

    /// Whether `a` and `b` name the same file: the same inode when both exist (a link or
    /// another spelling of the path), else the same standardized path.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        if stat(a, &first) == 0, stat(b, &second) == 0 { return first.st_dev == second.st_dev && first.st_ino == second.st_ino }
        return URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }

    func run() throws {
        func load(_ path: String) throws -> RasterImage {
            do {
                return try PNGDecoder.decode(
                    try FileIO.readBytes(at: path, maxBytes: RenderLimits.maxImageFileBytes, allowingStreams: true))
            } catch {
                let message = "\(error)"
                Terminal.error(message.hasPrefix(path + ": ") ? message : "\(path): \(message)")
                throw ExitCode(2)
            }
        }
        if let out, let compared = [expected, actual].first(where: { Self.isSameFile(out, $0) }) {
            Terminal.error(
                "--out \(out) is \(compared), one of the images compared; give another path for the composite (nothing was written)"
            )
            throw ExitCode(2)
        }
        let expectedImage = try load(expected), actualImage = try load(actual)
        let result = ImageComparator.compare(actualImage, expectedImage, tolerance: tolerance.value)
        var statistics: DifferenceStatistics?
        var line: String
        switch result {
        case .identical:
            line = "identical"
        case .sizeMismatch(let a, let e):
            line = "sizes differ: \(actual) is \(a.width)x\(a.height), \(expected) is \(e.width)x\(e.height)"
        case .different(let s, let passed):
            statistics = s
            line =
                (passed ? "within tolerance: " : "different: ")
                + GoldenVerifier.describe(s, golden: actual, tolerance: tolerance.value, spelling: .commandLine)
        }
        if let out {
            do {
                let composite = try DifferenceComposite.make(
                    expected: expectedImage, actual: actualImage, statistics: statistics,
                    tolerance: tolerance.value)
                try composite.writePNG(to: out)
            } catch {
                // The verdict never depends on the picture: say why there is none, go on.
                Terminal.warning("\(out): no composite was written: \(error)")
            }
        }
        if json {
            let summary = ComparisonSummary(
                golden: expected, verdict: result.passed ? "passed" : "failed", tolerance: tolerance.value,
                actualSize: [actualImage.width, actualImage.height],
                expectedSize: [expectedImage.width, expectedImage.height], statistics: statistics,
                wouldPassWith: statistics.map {
                    ImageComparator.passingTolerance(for: $0, tolerance: tolerance.value)
                })
            Terminal.write(try JSONOutput.string(summary))
        } else {
            Terminal.printLine(line)
        }
        if !result.passed { throw ExitCode(1) }
    }
}

/// The two folders verify, record and prune work on.
struct GoldenFolders: ParsableArguments {
    @Argument(help: "The documents folder.", completion: .directory)
    var documents: String
    @Argument(help: "The goldens folder.", completion: .directory)
    var goldens: String

    var suite: GoldenSuite { GoldenSuite(documents: URL(fileURLWithPath: documents), goldens: URL(fileURLWithPath: goldens)) }
}

extension GoldenSuite {
    /// Runs `body`, reporting a suite that cannot start (an output folder inside the input)
    /// as a usage error, and a run that failed on its way (a report that cannot be written)
    /// as a failure.
    func checked<T>(_ body: (GoldenSuite) throws(BatchError) -> T) throws -> T {
        do { return try body(self) } catch { throw error.isUsage ? ValidationError(error.message) : error }
    }
}

struct GoldenVerify: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Render every document and compare it with its golden; exit 1 on any failure.",
        discussion: """
            Documents are rendered and judged as the goldens folder's settings say (the render \
            options they were recorded with, and any tolerance and ignored regions written in \
            GOLDENS/.easel-golden-settings.json); options given here win.

            With --report DIR, writes DIR/index.html (every result; failures with a composite, \
            a slider, an onion skin and a zoom on each cluster), DIR/report.json (read by \
            `easel golden accept`) and DIR/junit.xml, and each failure's images under DIR/artifacts.

            Examples:
              easel golden verify Docs Goldens --report golden-report --jobs 2
              easel golden verify Docs Goldens --tolerance perceptual
            """
    )

    @OptionGroup var folders: GoldenFolders
    @OptionGroup var tolerance: ToleranceOptions
    @OptionGroup var render: RenderOptionGroup
    @Option(help: ArgumentHelp("Write an HTML, JSON and JUnit report into this folder.", valueName: "dir"))
    var report: String?
    @Option(name: .shortAndLong, parsing: .unconditional, help: "Documents verified at once (default 1).")
    var jobs: Int = 1

    func validate() throws {
        try render.validateForGoldens(encoding: false)
        if !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256.") }
    }

    func execute() throws {
        let reportFolder = report.map { URL(fileURLWithPath: $0) }
        let suite = folders.suite
        // The report's images are not goldens nor documents: its folder is neither's.
        if let reportFolder {
            let real = BatchExporter.realPath(reportFolder.standardizedFileURL)
            for (folder, what) in [(suite.goldens, "goldens"), (suite.documents, "documents")] {
                let root = BatchExporter.realPath(folder.standardizedFileURL)
                if real == root || real.hasPrefix(root + "/") {
                    throw ValidationError(
                        "--report \(reportFolder.relativePath) is inside the \(what) folder \(folder.relativePath); its images would be taken for \(what == "goldens" ? "goldens" : "the documents' own"): give the report a folder of its own"
                    )
                }
            }
        }
        let settings: GoldenSettings?
        do { settings = try suite.settings() } catch { throw ValidationError(error.description) }
        // Rendered as the goldens were recorded, unless other pixels are asked for.
        let recorded = settings?.render
        let asked = render.renderOptions(outputPath: nil)
        if render.changesPixels, let recorded, recorded.size != asked.size || recorded.background != asked.background {
            Terminal.note("the goldens were recorded at \(recorded.size); verifying at \(asked.size) as asked")
        }
        let run = try suite.checked { suite throws(BatchError) in
            try suite.check(
                options: render.changesPixels || recorded == nil ? asked : nil,
                tolerance: tolerance.value(over: settings?.tolerance ?? .default), report: reportFolder, jobs: jobs,
                spelling: .commandLine)
        }
        let failures = run.failures
        for failure in failures {
            let document = PathNames.appending(failure.document ?? failure.golden, to: folders.documents)
            // The verifier's message names the document too; it is said once.
            var message = failure.message ?? ""
            for name in [document, failure.document ?? failure.golden] where message.hasPrefix(name + ": ") {
                message.removeFirst(name.count + 2)
            }
            Terminal.printLine("FAIL \(document): \(message)")
        }
        Terminal.printError("easel: \(run.summary)")
        let orphans = run.orphans.count
        if orphans > 0 {
            Terminal.note("\(orphans) golden\(orphans == 1 ? " has" : "s have") no document (`easel golden prune` lists them)")
        }
        // Accept adopts only renderings that failed or are new: not an unreadable golden,
        // nor a document that could not be rendered.
        if let reportFolder, failures.contains(where: { $0.status == .failed || $0.status == .new }) {
            Terminal.printError(
                "easel: report: \(reportFolder.appendingPathComponent(GoldenReport.htmlName).relativePath); "
                    + "accept what it shows with `easel golden accept \(report!.shellWord)`")
        }
        if !failures.isEmpty { throw ExitCode.documentFailure }
    }
}

struct GoldenRecord: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Render every document and write its golden.",
        discussion: """
            Examples:
              easel golden record Docs Goldens --preset thumbnail --only-missing
              easel golden record Docs Goldens --only-failed     # accept intended changes, keep the rest
            """
    )

    @OptionGroup var folders: GoldenFolders
    @OptionGroup var render: RenderOptionGroup
    @Flag(name: .customLong("only-missing"), help: "Write only goldens that do not exist yet.")
    var onlyMissing = false
    @Flag(
        name: .customLong("only-failed"), help: "Rewrite only goldens the rendering no longer matches (and write missing ones).")
    var onlyFailed = false
    @OptionGroup var tolerance: ToleranceOptions

    func validate() throws {
        try render.validateForGoldens(encoding: true)
        if onlyMissing && onlyFailed {
            throw ValidationError("--only-missing keeps every existing golden; --only-failed rewrites failing ones: give one.")
        }
    }

    func execute() throws {
        let suite = folders.suite
        let settings: GoldenSettings?
        do { settings = try suite.settings() } catch { throw ValidationError(error.description) }
        let asked = render.renderOptions(outputPath: nil)
        // Rendered as the goldens were recorded, as verify renders them, unless other pixels
        // are asked for; then every golden is made again, or the folder would hold two sizes.
        var options = asked
        if let recorded = settings?.render {
            if !render.changesPixels {
                options = recorded
                options.png = asked.png
            } else if onlyMissing || onlyFailed,
                !recorded.size.givesSamePixels(as: asked.size) || recorded.background != asked.background
            {
                throw ValidationError(
                    "the goldens were recorded at \(recorded.size)\(recorded.background.map { " on \($0)" } ?? ""); \(onlyMissing ? "--only-missing" : "--only-failed") at \(asked.size)\(asked.background.map { " on \($0)" } ?? "") would leave goldens of two kinds: leave out the size and background options, or record them all again without \(onlyMissing ? "--only-missing" : "--only-failed")"
                )
            }
        }
        let outcomes = try suite.checked { suite throws(BatchError) in
            let recordedTolerance = settings?.tolerance ?? .default
            return try suite.record(
                options: options, onlyMissing: onlyMissing,
                onlyFailing: onlyFailed ? tolerance.value(over: recordedTolerance) : nil,
                tolerance: tolerance.isGiven ? tolerance.value(over: recordedTolerance) : nil,
                warned: { Terminal.warning($0) }
            ) { outcome in
                switch outcome {
                // As the goldens folder was typed: relative stays relative.
                case .recorded(let golden): Terminal.printLine("recorded \(golden.relativePath)")
                case .failed(let message): Terminal.error(message)
                case .kept: break
                }
            }
        }
        let written = outcomes.filter { if case .recorded = $0 { return true } else { return false } }.count
        let failed = outcomes.filter { if case .failed = $0 { return true } else { return false } }.count
        Terminal.printError("easel: recorded \(written) golden\(written == 1 ? "" : "s"); look at them before committing")
        if failed > 0 { throw ExitCode.documentFailure }
    }
}

struct GoldenPrune: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "List goldens whose document no longer exists; remove them only with --delete.",
        discussion: """
            Without --delete nothing is removed (a dry run). A documents folder that does not \
            exist or holds no document is an error, so a typo never makes every golden an orphan.

            Examples:
              easel golden prune Docs Goldens            # list what would be removed
              easel golden prune Docs Goldens --check    # the same, exit 1 if there is any
              easel golden prune Docs Goldens --delete   # remove them
            """
    )

    @OptionGroup var folders: GoldenFolders
    @Flag(help: "Exit 1 if there are orphaned goldens (for CI); removes nothing.")
    var check = false
    @Flag(help: "Remove the orphaned goldens.")
    var delete = false

    func validate() throws {
        if check && delete { throw ValidationError("--check lists and --delete removes: give one of them.") }
    }

    func execute() throws {
        let suite = folders.suite
        let orphans = try suite.checked { suite throws(BatchError) in try suite.orphans() }
        for orphan in orphans {
            let golden = suite.goldens.appendingPathComponent(orphan)
            if delete {
                try FileManager.default.removeItem(atPath: golden.standardizedFileURL.path)
                Terminal.printLine("removed \(golden.relativePath)")
            } else {
                Terminal.printLine("orphan \(golden.relativePath)")
            }
        }
        let count = "\(orphans.count) golden\(orphans.count == 1 ? "" : "s") without a document"
        Terminal.printError("easel: " + (delete || orphans.isEmpty ? count : count + "; run again with --delete to remove them"))
        if check && !orphans.isEmpty { throw ExitCode.documentFailure }
    }
}
