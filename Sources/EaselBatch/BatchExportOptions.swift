import FoundationEssentials
import EaselRender

/// Options of a batch export.
public struct BatchExportOptions: Sendable {
    /// How each document is rendered: format, size, background, image filter, PNG settings.
    public var render: RenderOptions
    /// Worker threads, each rendering one document at a time with its own surfaces.
    public var jobs: Int
    /// Render everything, up to date or not.
    public var force: Bool
    /// Also write a 260x400-style thumbnail (`NAME.thumbnail.png`) next to each output.
    public var thumbnails: Bool
    /// Decide what would be done, and do nothing.
    public var dryRun: Bool
    /// Stop starting documents after the first failure.
    public var failFast: Bool
    /// Export only this shard's documents (for splitting a batch across machines); nil for all.
    public var shard: Shard?
    /// Paths left out of the scan (with everything below them).
    public var excluded: [URL]
    /// Flush every output to disk as it is written, instead of once for the whole run
    /// (measured in the benchmark; the guarantee after a crash is the same either way).
    public var syncEachOutput = false
    /// Seconds each document may take, from opening it to its drawing's end; a document
    /// still drawing then stops and fails as timed out, and the batch goes on. Nil: no
    /// limit. Not part of `outputSettings`: it never changes a finished output's bytes.
    public var timeout: Double?

    /// The deadline of a document starting now under `timeout` (see `Scene.deadline`).
    public var deadlineFromNow: UInt64? { RenderTimeout.deadline(seconds: timeout) }

    /// Options; by default one job per processor, everything else off. `jobs` below 1 means 1.
    public init(
        render: RenderOptions = RenderOptions(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        force: Bool = false, thumbnails: Bool = false, dryRun: Bool = false, failFast: Bool = false,
        shard: Shard? = nil, excluded: [URL] = []
    ) {
        self.render = render
        self.jobs = max(1, jobs)
        self.force = force
        self.thumbnails = thumbnails
        self.dryRun = dryRun
        self.failFast = failFast
        self.shard = shard
        self.excluded = excluded
    }

    /// Everything about the options that changes output bytes: derived from the whole
    /// `RenderOptions` value, so a new render option is part of it without anyone
    /// remembering to add it.
    public var outputSettings: OutputSettings { OutputSettings(render: render, thumbnails: thumbnails) }
}

/// The options that decide a batch's output bytes, as one value. Its JSON (sorted keys) is
/// the up-to-date key recorded in the manifest.
public struct OutputSettings: Codable, Hashable, Sendable {
    /// How each document is rendered.
    public var render: RenderOptions
    /// Whether a thumbnail is written next to each output.
    public var thumbnails: Bool

    /// The settings for rendering with `render`, with or without thumbnails.
    public init(render: RenderOptions, thumbnails: Bool) {
        self.render = render
        self.thumbnails = thumbnails
    }

    /// The key recorded in the manifest for the main output: the render options as JSON
    /// with sorted keys. Thumbnails are outputs of their own (`thumbnailKey`), so asking for
    /// them, or no longer, never makes the main outputs again.
    public var key: String { Self.key(of: render) }

    /// How thumbnails are rendered: PNG of the whole canvas, with the main output's
    /// background, image filter and PNG settings; `size` is `.thumbnail` here and becomes
    /// the scale for each canvas when one is written.
    public var thumbnailRender: RenderOptions {
        var options = render
        options.format = .png
        options.size = .thumbnail
        options.area = nil
        options.dpi = nil
        return options
    }

    /// The key of the thumbnail's settings (`thumbnailRender`).
    public var thumbnailKey: String { Self.key(of: thumbnailRender) }

    static func key(of options: RenderOptions) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain values cannot fail; an empty key would only force a re-render.
        return (try? encoder.encode(options)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
