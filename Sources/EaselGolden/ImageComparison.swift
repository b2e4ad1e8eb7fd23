import EaselGeometry
import EaselRender
import EaselCairo

/// What differs between two images of the same size.
public struct DifferenceStatistics: Hashable, Sendable, Codable {
    /// The images' width in pixels.
    public var width: Int
    /// The images' height in pixels.
    public var height: Int
    /// Pixels whose largest channel difference is above the noise floor.
    public var differingPixels: Int
    /// Pixels that differ at all, including those at or below the noise floor.
    public var pixelsDifferingAtAll: Int
    /// `differingPixels` as a fraction of all pixels, 0...1.
    public var differingRatio: Double
    /// The largest channel difference of any pixel (0...255).
    public var maxChannelDelta: Int
    /// The mean of the largest channel difference over the differing pixels.
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

/// Compares images pixel by pixel.
public enum ImageComparator {
    /// Compares premultiplied pixels; images of different sizes are a mismatch, never a pass.
    public static func compare(_ actual: RasterImage, _ expected: RasterImage, tolerance: Tolerance = .default)
        -> ComparisonResult
    {
        guard actual.width == expected.width, actual.height == expected.height else {
            return .sizeMismatch(actual: (actual.width, actual.height), expected: (expected.width, expected.height))
        }
        let deltas = channelDeltas(actual, expected)
        guard deltas.contains(where: { $0 > 0 }) else { return .identical }
        let statistics = statisticsOf(deltas, width: actual.width, height: actual.height, noiseFloor: tolerance.noiseFloor)
        let passed =
            tolerance.maxPixels.allows(statistics.differingPixels, of: actual.width * actual.height)
            && (statistics.differingPixels == 0 || statistics.maxChannelDelta <= tolerance.maxChannelDelta)
        return .different(statistics, passed: passed)
    }

    /// The largest channel difference of each pixel, row by row, on premultiplied values.
    public static func channelDeltas(_ a: RasterImage, _ b: RasterImage) -> [UInt8] {
        var deltas = [UInt8](repeating: 0, count: a.width * a.height)
        a.withUnsafePixels { pa in
            b.withUnsafePixels { pb in
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        let va =
                            pa.load(fromByteOffset: y * a.stride + x * 4, as: UInt32.self) | (a.isOpaqueFormat ? 0xFF00_0000 : 0)
                        let vb =
                            pb.load(fromByteOffset: y * b.stride + x * 4, as: UInt32.self) | (b.isOpaqueFormat ? 0xFF00_0000 : 0)
                        if va == vb { continue }
                        var largest: UInt32 = 0
                        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
                            let ca = (va >> shift) & 0xFF, cb = (vb >> shift) & 0xFF
                            largest = max(largest, ca > cb ? ca - cb : cb - ca)
                        }
                        deltas[y * a.width + x] = UInt8(largest)
                    }
                }
            }
        }
        return deltas
    }

    static func statisticsOf(_ deltas: [UInt8], width: Int, height: Int, noiseFloor: Int) -> DifferenceStatistics {
        var differing = 0, atAll = 0, largest = 0, sum = 0
        for delta in deltas where delta > 0 {
            atAll += 1
            if Int(delta) > noiseFloor {
                differing += 1
                sum += Int(delta)
                largest = max(largest, Int(delta))
            }
        }
        let (clusters, count) = Clusters.find(in: deltas, width: width, height: height, threshold: noiseFloor)
        return DifferenceStatistics(
            width: width, height: height, differingPixels: differing, pixelsDifferingAtAll: atAll,
            differingRatio: Double(differing) / Double(max(1, width * height)),
            maxChannelDelta: largest, meanChannelDelta: differing > 0 ? Double(sum) / Double(differing) : 0,
            clusters: clusters, clusterCount: count)
    }

    /// The smallest tolerance under which the comparison would pass (for failure messages).
    /// The statistics count differences above `noiseFloor`, so the suggestion keeps that
    /// floor: with a lower one, more pixels would differ and it would fail when used.
    public static func passingTolerance(for statistics: DifferenceStatistics, noiseFloor: Int) -> Tolerance {
        .fuzzy(maxDelta: statistics.maxChannelDelta, maxPixels: statistics.differingPixels, noiseFloor: noiseFloor)
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
    static func find(in deltas: [UInt8], width: Int, height: Int, threshold: Int) -> ([DifferenceStatistics.Box], Int) {
        let columns = (width + cellSize - 1) / cellSize, rows = (height + cellSize - 1) / cellSize
        // Per cell: differing pixels and their bounding box (min x, min y, max x, max y).
        var count = [Int32](repeating: 0, count: columns * rows)
        var bounds = [Int32](repeating: 0, count: columns * rows * 4)
        deltas.withUnsafeBufferPointer { delta in
            for y in 0..<height {
                let row = y * width, cellRow = (y / cellSize) * columns
                for x in 0..<width where Int(delta[row + x]) > threshold {
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
