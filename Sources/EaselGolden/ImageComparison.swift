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
        let clusters = Clusters.find(in: deltas, width: width, height: height, threshold: noiseFloor)
        return DifferenceStatistics(
            width: width, height: height, differingPixels: differing, pixelsDifferingAtAll: atAll,
            differingRatio: Double(differing) / Double(max(1, width * height)),
            maxChannelDelta: largest, meanChannelDelta: differing > 0 ? Double(sum) / Double(differing) : 0,
            clusters: clusters)
    }

    /// The smallest tolerance under which the comparison would pass (for failure messages).
    public static func passingTolerance(for statistics: DifferenceStatistics) -> Tolerance {
        .fuzzy(maxDelta: statistics.maxChannelDelta, maxPixels: statistics.differingPixels)
    }
}

/// Groups differing pixels into clusters: 8-connected components, with boxes closer than a
/// few pixels merged, so one changed shape is one box rather than a hundred.
enum Clusters {
    static let mergeDistance = 4
    static let maxListed = 20

    static func find(in deltas: [UInt8], width: Int, height: Int, threshold: Int) -> [DifferenceStatistics.Box] {
        var label = [Int32](repeating: -1, count: deltas.count)
        var boxes: [DifferenceStatistics.Box] = []
        var stack: [Int] = []
        for start in deltas.indices where Int(deltas[start]) > threshold && label[start] < 0 {
            var box = DifferenceStatistics.Box(x: start % width, y: start / width, width: 1, height: 1, pixels: 0)
            var (x0, y0, x1, y1) = (box.x, box.y, box.x, box.y)
            label[start] = Int32(boxes.count)
            stack.append(start)
            while let index = stack.popLast() {
                box.pixels += 1
                let (x, y) = (index % width, index / width)
                x0 = min(x0, x)
                y0 = min(y0, y)
                x1 = max(x1, x)
                y1 = max(y1, y)
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let (nx, ny) = (x + dx, y + dy)
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let neighbour = ny * width + nx
                        if label[neighbour] < 0 && Int(deltas[neighbour]) > threshold {
                            label[neighbour] = Int32(boxes.count)
                            stack.append(neighbour)
                        }
                    }
                }
            }
            box.x = x0
            box.y = y0
            box.width = x1 - x0 + 1
            box.height = y1 - y0 + 1
            boxes.append(box)
        }
        // Merge boxes that touch or nearly touch, until none do.
        var merged = true
        while merged {
            merged = false
            outer: for i in boxes.indices {
                for j in boxes.indices where j > i && near(boxes[i], boxes[j]) {
                    boxes[i] = union(boxes[i], boxes[j])
                    boxes.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        return Array(boxes.sorted { $0.pixels > $1.pixels }.prefix(maxListed))
    }

    static func near(_ a: DifferenceStatistics.Box, _ b: DifferenceStatistics.Box) -> Bool {
        a.x - mergeDistance <= b.x + b.width && b.x - mergeDistance <= a.x + a.width
            && a.y - mergeDistance <= b.y + b.height && b.y - mergeDistance <= a.y + a.height
    }

    static func union(_ a: DifferenceStatistics.Box, _ b: DifferenceStatistics.Box) -> DifferenceStatistics.Box {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        let x1 = max(a.x + a.width, b.x + b.width), y1 = max(a.y + a.height, b.y + b.height)
        return DifferenceStatistics.Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0, pixels: a.pixels + b.pixels)
    }
}
