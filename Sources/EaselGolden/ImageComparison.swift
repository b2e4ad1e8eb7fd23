import FoundationEssentials
import Glibc
import EaselGeometry
import EaselRender
import EaselCairo

/// What differs between two images of the same size.
public struct DifferenceStatistics: Hashable, Sendable, Codable {
    /// The images' width in pixels.
    public var width: Int
    /// The images' height in pixels.
    public var height: Int
    /// Pixels that differ and count against the tolerance: above the noise floor (channel
    /// metric) or the threshold and not anti-aliased (perceptual), outside ignored regions.
    public var differingPixels: Int
    /// Pixels that differ at all, including tolerated, anti-aliased and ignored ones.
    public var pixelsDifferingAtAll: Int
    /// Pixels beyond the threshold found to be anti-aliased, and so not counted (perceptual metric).
    public var antialiasedPixels: Int
    /// Differing pixels inside ignored regions.
    public var ignoredPixels: Int
    /// `differingPixels` as a fraction of all pixels, 0...1.
    public var differingRatio: Double
    /// The largest channel difference (0...255) of the counted pixels.
    public var maxChannelDelta: Int
    /// The mean of the largest channel difference over the counted pixels.
    public var meanChannelDelta: Double
    /// Bounding boxes of clusters of differing pixels, largest first (at most 20).
    public var clusters: [Box]
    /// How many clusters there are in all (`clusters` lists the largest 20).
    public var clusterCount: Int

    /// A rectangle of pixels around one cluster of changes, in image pixel coordinates.
    public struct Box: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The box's top-left pixel and its size, in pixels.
        public var x: Int, y: Int, width: Int, height: Int
        /// How many pixels inside the box differ beyond the noise floor.
        public var pixels: Int
        /// `WxH at (x, y)`, for failure messages.
        public var description: String { "\(width)x\(height) at (\(x), \(y))" }
    }
}

/// The outcome of comparing an image with its golden.
public enum ComparisonResult: Sendable {
    case identical
    case sizeMismatch(actual: (width: Int, height: Int), expected: (width: Int, height: Int))
    /// Different pixels, within (`passed`) or beyond the tolerance.
    case different(DifferenceStatistics, passed: Bool)

    /// True when identical, or different only within the tolerance.
    public var passed: Bool {
        switch self {
        case .identical: return true
        case .sizeMismatch: return false
        case .different(_, let passed): return passed
        }
    }
}

/// A rectangle of pixels (for ignored regions), in image pixel coordinates from the top left.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The top-left pixel and the size, in pixels.
    public var x: Int, y: Int, width: Int, height: Int

    /// A rectangle `width` by `height` pixels whose top-left pixel is (x, y).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when the pixel (px, py) is inside (whatever the numbers: a distance past `Int`
    /// is outside, never a trap).
    public func contains(x px: Int, y py: Int) -> Bool {
        let (dx, pastX) = px.subtractingReportingOverflow(x), (dy, pastY) = py.subtractingReportingOverflow(y)
        return px >= x && py >= y && !pastX && !pastY && dx < width && dy < height
    }

    /// The largest side, and the farthest corner from the origin, a settings file may give:
    /// no image is larger (an output is at most 100 million pixels).
    public static let limit = 1_000_000

    /// Whether the region's numbers are within `limit` (a positive size, a corner near the image).
    public var isPlausible: Bool {
        (1...Self.limit).contains(width) && (1...Self.limit).contains(height) && (-Self.limit...Self.limit).contains(x)
            && (-Self.limit...Self.limit).contains(y)
    }

    /// `WxH at (x, y)`.
    public var description: String { "\(width)x\(height) at (\(x), \(y))" }
}

/// How each pixel of two images of the same size was judged, row by row: what the verdict,
/// the statistics and the composite's colours all come from, so they always agree.
public struct DifferenceMap: Sendable {
    /// One pixel's judgement.
    public enum Judgement: UInt8, Sendable {
        /// Identical.
        case same = 0
        /// Different, but within the noise floor (channel metric) or the threshold (perceptual).
        case tolerated
        /// Different beyond the threshold, but an anti-aliased pixel (perceptual metric).
        case antialiased
        /// Different, but inside an ignored region.
        case ignored
        /// Different, and counted against the tolerance.
        case counted
    }

    /// The images' size in pixels.
    public let width: Int, height: Int
    /// One judgement per pixel, row by row.
    public internal(set) var judgements: [Judgement]

    /// The judgement of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> Judgement { judgements[y * width + x] }

    /// Counts gathered while judging, for the statistics.
    var differingAtAll = 0, antialiased = 0, ignored = 0, counted = 0
    /// The largest and the sum of the counted pixels' largest channel differences.
    var largestDelta = 0, deltaSum = 0
}

/// Compares images pixel by pixel.
public enum ImageComparator {
    /// Compares premultiplied pixels; images of different sizes are a mismatch, never a pass.
    /// Differences inside `ignoring` never count (they are drawn hatched in a composite).
    public static func compare(
        _ actual: RasterImage, _ expected: RasterImage, tolerance: Tolerance = .default, ignoring: [PixelRect] = []
    ) -> ComparisonResult {
        guard actual.width == expected.width, actual.height == expected.height else {
            return .sizeMismatch(actual: (actual.width, actual.height), expected: (expected.width, expected.height))
        }
        if identical(actual, expected) { return .identical }
        let map = differenceMap(actual, expected, tolerance: tolerance, ignoring: ignoring)
        guard map.differingAtAll > 0 else { return .identical }
        let statistics = statisticsOf(map)
        var passed = tolerance.maxPixels.allows(statistics.differingPixels, of: actual.width * actual.height)
        if tolerance.metric == .channelDelta && statistics.differingPixels > 0 {
            passed = passed && statistics.maxChannelDelta <= tolerance.maxChannelDelta
        }
        return .different(statistics, passed: passed)
    }

    /// True when every pixel is the same, row by row with `memcmp` (the common case of a
    /// passing golden costs a few milliseconds, not a judgement of every pixel).
    static func identical(_ a: RasterImage, _ b: RasterImage) -> Bool {
        guard a.isOpaqueFormat == b.isOpaqueFormat else { return false }  // compared pixel by pixel instead
        let rowBytes = a.width * 4
        return a.withUnsafePixels { pa in
            b.withUnsafePixels { pb in
                for y in 0..<a.height where memcmp(pa.baseAddress! + y * a.stride, pb.baseAddress! + y * b.stride, rowBytes) != 0
                {
                    if a.isOpaqueFormat {
                        // RGB24's top byte is padding: compare without it.
                        for x in 0..<a.width
                        where
                            (pa.load(fromByteOffset: y * a.stride + x * 4, as: UInt32.self)
                            ^ pb.load(fromByteOffset: y * b.stride + x * 4, as: UInt32.self)) & 0x00FF_FFFF != 0
                        {
                            return false
                        }
                    } else {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// Judges every pixel of two images of the same size (precondition).
    public static func differenceMap(
        _ actual: RasterImage, _ expected: RasterImage, tolerance: Tolerance, ignoring: [PixelRect] = []
    ) -> DifferenceMap {
        precondition(actual.width == expected.width && actual.height == expected.height, "images of different sizes")
        let width = actual.width, height = actual.height
        var map = DifferenceMap(width: width, height: height, judgements: Array(repeating: .same, count: width * height))
        var allowed = 0.0
        var perceptual = false, countsAntialiasing = true
        if case .perceptual(let threshold, let counts) = tolerance.metric {
            allowed = PerceptualDifference.allowedDelta(threshold: threshold)
            perceptual = true
            countsAntialiasing = counts
        }
        let noiseFloor = tolerance.noiseFloor
        actual.withUnsafePixels { pa in
            expected.withUnsafePixels { pe in
                let a = PerceptualDifference.Pixels(
                    base: UnsafeRawPointer(pa.baseAddress!), stride: actual.stride, width: width, height: height,
                    opaque: actual.isOpaqueFormat ? 0xFF00_0000 : 0)
                let e = PerceptualDifference.Pixels(
                    base: UnsafeRawPointer(pe.baseAddress!), stride: expected.stride, width: width, height: height,
                    opaque: expected.isOpaqueFormat ? 0xFF00_0000 : 0)
                map.judgements.withUnsafeMutableBufferPointer { judgements in
                    for y in 0..<height {
                        for x in 0..<width {
                            let va = a[x, y], ve = e[x, y]
                            if va == ve { continue }
                            map.differingAtAll += 1
                            let delta = Int(largestChannelDifference(va, ve))
                            var judgement: DifferenceMap.Judgement
                            if !perceptual {
                                judgement = delta <= noiseFloor ? .tolerated : .counted
                            } else if PerceptualDifference.delta(va, ve) <= allowed {
                                judgement = .tolerated
                            } else if !countsAntialiasing
                                && (PerceptualDifference.isAntialiased(a, x: x, y: y, other: e)
                                    || PerceptualDifference.isAntialiased(e, x: x, y: y, other: a))
                            {
                                judgement = .antialiased
                            } else {
                                judgement = .counted
                            }
                            if judgement != .tolerated && !ignoring.isEmpty
                                && ignoring.contains(where: { $0.contains(x: x, y: y) })
                            {
                                judgement = .ignored
                            }
                            switch judgement {
                            case .counted:
                                map.counted += 1
                                map.deltaSum += delta
                                map.largestDelta = max(map.largestDelta, delta)
                            case .antialiased: map.antialiased += 1
                            case .ignored: map.ignored += 1
                            case .same, .tolerated: break
                            }
                            judgements[y * width + x] = judgement
                        }
                    }
                }
            }
        }
        return map
    }

    @inline(__always)
    static func largestChannelDifference(_ a: UInt32, _ b: UInt32) -> UInt8 {
        var largest: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
            largest = max(largest, ca > cb ? ca - cb : cb - ca)
        }
        return UInt8(largest)
    }

    static func statisticsOf(_ map: DifferenceMap) -> DifferenceStatistics {
        let (clusters, clusterCount) = map.counted > 0 ? Clusters.find(in: map) : ([], 0)
        return DifferenceStatistics(
            width: map.width, height: map.height, differingPixels: map.counted, pixelsDifferingAtAll: map.differingAtAll,
            antialiasedPixels: map.antialiased, ignoredPixels: map.ignored,
            differingRatio: Double(map.counted) / Double(max(1, map.width * map.height)),
            maxChannelDelta: map.largestDelta,
            meanChannelDelta: map.counted > 0 ? Double(map.deltaSum) / Double(map.counted) : 0,
            clusters: clusters, clusterCount: clusterCount)
    }

    /// The smallest tolerance under which the comparison would pass (for failure messages):
    /// the same metric and floor or threshold, with room for exactly the pixels that
    /// differed (so it passes when used: a lower floor would count more pixels).
    public static func passingTolerance(for statistics: DifferenceStatistics, tolerance: Tolerance) -> Tolerance {
        switch tolerance.metric {
        case .channelDelta:
            return .fuzzy(
                maxDelta: statistics.maxChannelDelta, maxPixels: statistics.differingPixels, noiseFloor: tolerance.noiseFloor)
        case .perceptual:
            var suggestion = tolerance
            suggestion.maxPixels = .count(statistics.differingPixels)
            return suggestion
        }
    }
}

/// Groups differing pixels into clusters in one pass over a coarse grid: the image is cut
/// into cells of `cellSize` pixels, a cell with a differing pixel is on, and on cells that
/// touch (8-connected) are one cluster, joined with a union-find. Pixels a few apart are one
/// cluster, so one changed shape is one box rather than a hundred; the cost is linear in the
/// pixels whatever the pattern of differences (a cluster-by-cluster merge was cubic).
enum Clusters {
    static let cellSize = 4
    static let maxListed = 20

    /// The largest `maxListed` clusters' boxes, largest first, and how many clusters there are.
    static func find(in map: DifferenceMap) -> ([DifferenceStatistics.Box], Int) {
        let width = map.width, height = map.height
        let columns = (width + cellSize - 1) / cellSize, rows = (height + cellSize - 1) / cellSize
        // Per cell: differing pixels and their bounding box (min x, min y, max x, max y).
        var count = [Int32](repeating: 0, count: columns * rows)
        var bounds = [Int32](repeating: 0, count: columns * rows * 4)
        map.judgements.withUnsafeBufferPointer { judgements in
            for y in 0..<height {
                let row = y * width, cellRow = (y / cellSize) * columns
                for x in 0..<width where judgements[row + x] == .counted {
                    let cell = cellRow + x / cellSize
                    if count[cell] == 0 {
                        bounds[cell * 4] = Int32(x)
                        bounds[cell * 4 + 1] = Int32(y)
                        bounds[cell * 4 + 2] = Int32(x)
                        bounds[cell * 4 + 3] = Int32(y)
                    } else {
                        bounds[cell * 4] = min(bounds[cell * 4], Int32(x))
                        bounds[cell * 4 + 2] = max(bounds[cell * 4 + 2], Int32(x))
                        bounds[cell * 4 + 3] = Int32(y)
                    }
                    count[cell] += 1
                }
            }
        }
        var parent = Array(0..<Int32(columns * rows))
        func root(_ cell: Int32) -> Int32 {
            var cell = cell
            while parent[Int(cell)] != cell {
                parent[Int(cell)] = parent[Int(parent[Int(cell)])]
                cell = parent[Int(cell)]
            }
            return cell
        }
        func join(_ a: Int, _ b: Int) {
            let ra = root(Int32(a)), rb = root(Int32(b))
            if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
        }
        for row in 0..<rows {
            for column in 0..<columns where count[row * columns + column] > 0 {
                let cell = row * columns + column
                // Neighbours already visited: left, and the three above.
                if column > 0 && count[cell - 1] > 0 { join(cell, cell - 1) }
                if row > 0 {
                    for dx in -1...1 where column + dx >= 0 && column + dx < columns && count[cell - columns + dx] > 0 {
                        join(cell, cell - columns + dx)
                    }
                }
            }
        }
        var boxes: [Int32: DifferenceStatistics.Box] = [:]
        for cell in 0..<(columns * rows) where count[cell] > 0 {
            let r = root(Int32(cell))
            let (x0, y0, x1, y1) = (
                Int(bounds[cell * 4]), Int(bounds[cell * 4 + 1]), Int(bounds[cell * 4 + 2]), Int(bounds[cell * 4 + 3])
            )
            if var box = boxes[r] {
                let bx1 = max(box.x + box.width - 1, x1), by1 = max(box.y + box.height - 1, y1)
                box.x = min(box.x, x0)
                box.y = min(box.y, y0)
                box.width = bx1 - box.x + 1
                box.height = by1 - box.y + 1
                box.pixels += Int(count[cell])
                boxes[r] = box
            } else {
                boxes[r] = DifferenceStatistics.Box(
                    x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, pixels: Int(count[cell]))
            }
        }
        let sorted = boxes.values.sorted { ($0.pixels, -$0.y, -$0.x) > ($1.pixels, -$1.y, -$1.x) }
        return (Array(sorted.prefix(maxListed)), boxes.count)
    }
}
