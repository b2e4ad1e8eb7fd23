import EaselRender
import EaselSupport
import FoundationEssentials

/// What a goldens folder remembers about its goldens, in `.easel-golden-settings.json`:
/// how they were rendered, the tolerance they are verified with, and the regions of each
/// golden whose differences never count (a clock, a random photo). `record` writes the
/// render options and keeps the rest; people edit `tolerance` and `ignore` by hand:
///
/// ```json
/// {
///   "render": { "format": "png", "size": { "scale": 1 }, ... },
///   "tolerance": { "metric": { "kind": "perceptual", "threshold": 0.1 }, "maxPixels": { "count": 4 } },
///   "ignore": { "Cards/clock": [ { "x": 10, "y": 20, "width": 200, "height": 40 } ] }
/// }
/// ```
public struct GoldenSettings: Codable, Hashable, Sendable {
    /// The render options the goldens were recorded with.
    public var render: RenderOptions
    /// The tolerance verify uses unless told otherwise; nil: the default.
    public var tolerance: Tolerance?
    /// Ignored regions, by golden name (a relative path without `.png`), in the golden's pixels.
    public var ignore: [String: [PixelRect]]

    /// Settings for goldens rendered with `render`.
    public init(render: RenderOptions, tolerance: Tolerance? = nil, ignore: [String: [PixelRect]] = [:]) {
        self.render = render
        self.tolerance = tolerance
        self.ignore = ignore
    }

    /// The file's name in a goldens folder.
    public static let fileName = ".easel-golden-settings.json"

    private enum Key: String, CodingKey, CaseIterable { case render, tolerance, ignore }

    /// Reads settings; a file holding only render options (as the first version wrote) is
    /// read as those.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.contains(.render) else {
            self.init(render: try RenderOptions(from: decoder))
            return
        }
        try refuseUnknownKeys(in: decoder, known: Key.allCases.map(\.rawValue))
        let ignore = try container.decodeIfPresent([String: [PixelRect]].self, forKey: .ignore) ?? [:]
        self.init(
            render: try container.decode(RenderOptions.self, forKey: .render),
            tolerance: try container.decodeIfPresent(Tolerance.self, forKey: .tolerance), ignore: ignore)
        for (name, regions) in ignore {
            for (index, region) in regions.enumerated() where !region.isPlausible {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [Key.ignore, AnyKey(name), AnyKey(index)],
                        debugDescription:
                            "an ignored region needs a width and height from 1 to \(PixelRect.limit) and a corner within ±\(PixelRect.limit), not \(region)"
                    ))
            }
        }
    }

    /// Writes the settings; empty `ignore` and a nil `tolerance` are left out.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(render, forKey: .render)
        try container.encodeIfPresent(tolerance, forKey: .tolerance)
        if !ignore.isEmpty { try container.encode(ignore, forKey: .ignore) }
    }

    /// Reads the settings file at `path`: nil when there is none, an error naming the file
    /// and the key path when it cannot be used (never silently ignored).
    public static func read(at path: String) throws(DocumentError) -> GoldenSettings? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try decodeJSONFile(GoldenSettings.self, at: path, maxBytes: 4 << 20, what: "the golden settings")
    }

    /// Writes the settings to `path`, atomically, keys sorted so the file diffs well.
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(Array(try encoder.encode(self)), to: path)
    }
}
