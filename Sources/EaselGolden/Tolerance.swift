import EaselGeometry

/// How different two images may be and still match. Pixels are compared on premultiplied
/// 8-bit values (so colour hidden under zero alpha never counts), by one of two metrics:
///
/// `.channelDelta` (the default), the largest channel difference of each pixel:
/// - differences up to `noiseFloor` are noise and ignored entirely;
/// - of the rest, at most `maxPixels` pixels may differ (a count, or a ratio of the image),
/// - and none by more than `maxChannelDelta`.
/// The two limits are independent: a change to many pixels by a little, or to a few by a
/// lot, each fails on its own.
///
/// `.perceptual(threshold:countsAntialiasing:)`, pixelmatch's method: a pixel differs when
/// its YIQ-weighted colour difference is above `threshold` (0...1 of the largest possible)
/// and it is not an anti-aliased pixel; at most `maxPixels` may differ. `noiseFloor` and
/// `maxChannelDelta` play no part.
public struct Tolerance: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How one pixel's difference is measured.
    public enum Metric: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The largest difference of the four premultiplied channels, 0...255.
        case channelDelta
        /// The YIQ-weighted difference (Kotsarenko & Ramos) above `threshold` (0...1;
        /// pixelmatch's default is 0.1), with anti-aliased pixels (Vysniauskas) not
        /// counted unless `countsAntialiasing`.
        case perceptual(threshold: Double, countsAntialiasing: Bool)

        private enum Key: String, CodingKey, CaseIterable { case kind, threshold, countsAntialiasing }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            try refuseUnknownKeys(in: decoder, known: Key.allCases.map(\.rawValue))
            switch try container.decode(String.self, forKey: .kind) {
            case "channelDelta": self = .channelDelta
            case "perceptual":
                let threshold = try container.decode(Double.self, forKey: .threshold)
                guard (0...1).contains(threshold) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .threshold, in: container, debugDescription: "a threshold is from 0 to 1, not \(threshold)")
                }
                self = .perceptual(
                    threshold: threshold,
                    countsAntialiasing: try container.decodeIfPresent(Bool.self, forKey: .countsAntialiasing) ?? false)
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container,
                    debugDescription: "unknown metric \"\(other)\" (channelDelta or perceptual)")
            }
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .channelDelta: try container.encode("channelDelta", forKey: .kind)
            case .perceptual(let threshold, let countsAntialiasing):
                try container.encode("perceptual", forKey: .kind)
                try container.encode(threshold, forKey: .threshold)
                try container.encode(countsAntialiasing, forKey: .countsAntialiasing)
            }
        }

        /// `channel difference` or `perceptual, threshold 0.1 (anti-aliasing ignored)`.
        public var description: String {
            switch self {
            case .channelDelta: return "channel difference"
            case .perceptual(let threshold, let counts):
                return "perceptual, threshold \(threshold) (anti-aliasing \(counts ? "counted" : "ignored"))"
            }
        }
    }

    /// How many pixels may differ: an absolute count, or a fraction (0...1) of the image's pixels.
    public enum PixelLimit: Hashable, Sendable, Codable, CustomStringConvertible {
        case count(Int)
        case ratio(Double)
        /// Whichever allows more: a few pixels on any image, a small share of a large one.
        case larger(count: Int, ratio: Double)

        // Written as `{"count": 25}`, `{"ratio": 0.001}` or both (the larger), not Swift's
        // `{"count": {"_0": 25}}`.
        private enum Key: String, CodingKey, CaseIterable { case count, ratio }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            try refuseUnknownKeys(in: decoder, known: Key.allCases.map(\.rawValue))
            let count = try container.decodeIfPresent(Int.self, forKey: .count)
            let ratio = try container.decodeIfPresent(Double.self, forKey: .ratio)
            // As the command line takes them: a count of no pixels or more, a share of the image.
            if let count, count < 0 {
                throw DecodingError.dataCorruptedError(
                    forKey: .count, in: container, debugDescription: "a pixel count is 0 or more, not \(count)")
            }
            if let ratio, !(0...1).contains(ratio) {
                throw DecodingError.dataCorruptedError(
                    forKey: .ratio, in: container, debugDescription: "a ratio of the image's pixels is from 0 to 1, not \(ratio)")
            }
            switch (count, ratio) {
            case (let count?, let ratio?): self = .larger(count: count, ratio: ratio)
            case (let count?, nil): self = .count(count)
            default: self = .ratio(try container.decode(Double.self, forKey: .ratio))
            }
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .count(let count): try container.encode(count, forKey: .count)
            case .ratio(let ratio): try container.encode(ratio, forKey: .ratio)
            case .larger(let count, let ratio):
                try container.encode(count, forKey: .count)
                try container.encode(ratio, forKey: .ratio)
            }
        }

        func allows(_ differing: Int, of total: Int) -> Bool {
            switch self {
            case .count(let limit): return differing <= limit
            case .ratio(let ratio): return Double(differing) <= ratio * Double(total)
            case .larger(let count, let ratio): return differing <= count || Double(differing) <= ratio * Double(total)
            }
        }

        /// `N pixels` or `P % of pixels`, for messages.
        public var description: String {
            switch self {
            case .count(let n): return "\(n) pixels"
            case .ratio(let r): return "\(r * 100) % of pixels"
            case .larger(let n, let r): return "\(n) pixels or \(r * 100) % of pixels, whichever is more"
            }
        }
    }

    /// How one pixel's difference is measured.
    public var metric: Metric = .channelDelta
    /// Channel differences up to this (0...255) are ignored entirely (channel metric).
    public var noiseFloor: Int
    /// The most pixels that may differ beyond the noise floor.
    public var maxPixels: PixelLimit
    /// The largest channel difference (0...255) any pixel may have (channel metric).
    public var maxChannelDelta: Int

    /// A tolerance; negative noise floors and deltas count as 0.
    public init(noiseFloor: Int = 0, maxPixels: PixelLimit, maxChannelDelta: Int) {
        self.noiseFloor = max(0, noiseFloor)
        self.maxPixels = maxPixels
        self.maxChannelDelta = max(0, maxChannelDelta)
    }

    /// A perceptual tolerance: pixels whose YIQ difference is above `threshold` (0...1)
    /// and that are not anti-aliased (unless `countsAntialiasing`) differ; at most
    /// `maxPixels` may.
    public init(perceptualThreshold threshold: Double, countsAntialiasing: Bool = false, maxPixels: PixelLimit) {
        self.metric = .perceptual(threshold: min(1, max(0, threshold)), countsAntialiasing: countsAntialiasing)
        self.noiseFloor = 0
        self.maxPixels = maxPixels
        self.maxChannelDelta = 255
    }

    private enum Key: String, CodingKey, CaseIterable { case metric, noiseFloor, maxPixels, maxChannelDelta }

    /// Reads a tolerance; without `metric` it is the channel metric (as written before there
    /// were two). A limit left out is the default tolerance's (noise floor 1, difference at
    /// most 32), as on the command line, where only the options given change; a value out
    /// of range is refused with its key path, never clamped.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try refuseUnknownKeys(in: decoder, known: Key.allCases.map(\.rawValue))
        metric = try container.decodeIfPresent(Metric.self, forKey: .metric) ?? .channelDelta
        func channel(_ key: Key, default value: Int) throws -> Int {
            guard let given = try container.decodeIfPresent(Int.self, forKey: key) else { return value }
            guard (0...255).contains(given) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "a channel difference is from 0 to 255, not \(given)")
            }
            return given
        }
        maxPixels = try container.decode(PixelLimit.self, forKey: .maxPixels)
        if case .perceptual = metric {
            (noiseFloor, maxChannelDelta) = (0, 255)  // as `init(perceptualThreshold:)`: not used
        } else {
            noiseFloor = try channel(.noiseFloor, default: Tolerance.default.noiseFloor)
            maxChannelDelta = try channel(.maxChannelDelta, default: Tolerance.default.maxChannelDelta)
        }
    }

    /// Writes the tolerance; a perceptual one omits the channel metric's limits.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(metric, forKey: .metric)
        try container.encode(maxPixels, forKey: .maxPixels)
        if metric == .channelDelta {
            try container.encode(noiseFloor, forKey: .noiseFloor)
            try container.encode(maxChannelDelta, forKey: .maxChannelDelta)
        }
    }

    /// Every pixel identical.
    public static let exact = Tolerance(noiseFloor: 0, maxPixels: .count(0), maxChannelDelta: 0)
    /// Rounding noise (±1) ignored; at most 4 pixels or 1 pixel in 10,000, whichever is
    /// more, differing by at most 32 — what antialiasing jitter looks like, on a thumbnail or
    /// a poster alike, while any real change fails.
    public static let `default` = Tolerance(noiseFloor: 1, maxPixels: .larger(count: 4, ratio: 0.0001), maxChannelDelta: 32)

    /// pixelmatch's method with its default threshold: pixels whose YIQ difference is above
    /// 0.1 and that are not anti-aliased differ; at most 4 pixels or 1 in 10,000 may.
    public static let perceptual = Tolerance(perceptualThreshold: 0.1, maxPixels: .larger(count: 4, ratio: 0.0001))

    /// Up to `maxPixels` pixels differing by up to `maxDelta`, differences up to
    /// `noiseFloor` ignored.
    public static func fuzzy(maxDelta: Int, maxPixels: Int, noiseFloor: Int = 0) -> Tolerance {
        Tolerance(noiseFloor: noiseFloor, maxPixels: .count(maxPixels), maxChannelDelta: maxDelta)
    }

    /// How the tolerance is written in Swift (`.fuzzy(maxDelta: 9, maxPixels: 12, noiseFloor: 1)`).
    public var swiftSpelling: String {
        if self == .exact { return ".exact" }
        if self == .default { return ".default" }
        if self == .perceptual { return ".perceptual" }
        if case .perceptual(let threshold, let counts) = metric {
            let limit: String
            switch maxPixels {
            case .count(let count): limit = ".count(\(count))"
            case .ratio(let ratio): limit = ".ratio(\(ratio))"
            case .larger(let count, let ratio): limit = ".larger(count: \(count), ratio: \(ratio))"
            }
            return "Tolerance(perceptualThreshold: \(threshold)" + (counts ? ", countsAntialiasing: true" : "")
                + ", maxPixels: \(limit))"
        }
        switch maxPixels {
        case .count(let count):
            return ".fuzzy(maxDelta: \(maxChannelDelta), maxPixels: \(count)"
                + (noiseFloor > 0 ? ", noiseFloor: \(noiseFloor))" : ")")
        case .ratio(let ratio):
            return "Tolerance(noiseFloor: \(noiseFloor), maxPixels: .ratio(\(ratio)), maxChannelDelta: \(maxChannelDelta))"
        case .larger(let count, let ratio):
            return
                "Tolerance(noiseFloor: \(noiseFloor), maxPixels: .larger(count: \(count), ratio: \(ratio)), maxChannelDelta: \(maxChannelDelta))"
        }
    }

    /// Who a tolerance is written for: a Swift test (`.fuzzy(maxDelta: 9, maxPixels: 12)`)
    /// or a command line (`--max-delta 9 --max-pixels 12`). Failure messages suggest a
    /// tolerance in the spelling of whoever asked for the comparison.
    public enum Spelling: Sendable, Hashable {
        /// Swift source, as the assertions of EaselGoldenTesting take it.
        case swift
        /// `easel golden` options, which `verify`, `diff` and `record` take.
        case commandLine
    }

    /// How the tolerance is written for `spelling`.
    public func spelled(_ spelling: Spelling) -> String {
        switch spelling {
        case .swift: return swiftSpelling
        case .commandLine: return commandLineSpelling
        }
    }

    /// The `easel golden` options that give this tolerance (`--max-delta 9 --max-pixels 12`;
    /// the noise floor and a perceptual pixel limit only when they are not the default's).
    public var commandLineSpelling: String {
        if self == .exact { return "--tolerance exact" }
        if self == .default { return "--tolerance default" }
        if self == .perceptual { return "--tolerance perceptual" }
        func pixels(_ limit: PixelLimit) -> String {
            switch limit {
            case .count(let count): return "--max-pixels \(count)"
            case .ratio(let ratio): return "--max-pixels \(formatNumber(ratio * 100))%"
            // The command line takes a count or a percentage, not the larger of both: the
            // count is what a suggestion is made of.
            case .larger(let count, _): return "--max-pixels \(count)"
            }
        }
        var flags: [String] = []
        if case .perceptual(let threshold, let counts) = metric {
            flags = ["--metric perceptual", "--threshold \(formatNumber(threshold))"]
            if counts { flags.append("--count-antialiasing") }
            if maxPixels != Tolerance.perceptual.maxPixels { flags.append(pixels(maxPixels)) }
            return flags.joined(separator: " ")
        }
        flags = ["--max-delta \(maxChannelDelta)", pixels(maxPixels)]
        if noiseFloor != Tolerance.default.noiseFloor { flags.append("--noise-floor \(noiseFloor)") }
        return flags.joined(separator: " ")
    }

    /// "exact", "default (…)", or the three limits spelled out, for messages.
    public var description: String {
        if self == .exact { return "exact" }
        if self == .default {
            return "default (noise floor 1, at most 4 pixels or 0.01 % of pixels, whichever is more, difference at most 32)"
        }
        if case .perceptual = metric { return "\(metric), at most \(maxPixels)" }
        return "noise floor \(noiseFloor), at most \(maxPixels), difference at most \(maxChannelDelta)"
    }
}
