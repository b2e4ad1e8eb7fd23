import CEaselPixels
import EaselSupport

extension PixelBuffer {
    /// The image resampled to `width` x `height` pixels, each no more than the image's own
    /// side: each pixel the mean of the image's pixels under its rectangle, weighted by how
    /// much of each it covers (premultiplied values, as a box filter averages them), rows
    /// shared among `threads` cores. A photo drawn at a half to three quarters of its pixels
    /// is resampled so once to the size it is drawn at: cairo then draws it near 1:1 with
    /// its bilinear filter instead of its GOOD filter's separable convolution, which costs
    /// several times as much per pixel. The damage note and content key are not carried over.
    public func resampled(toWidth width: Int, height: Int, threads: Int = 1) -> PixelBuffer {
        let width = min(max(1, width), self.width), height = min(max(1, height), self.height)
        let columns = AreaWeights(source: self.width, target: width)
        let rows = AreaWeights(source: self.height, target: height)
        let result = PixelBuffer(width: width, height: height)
        let source = UncheckedSendable(bytes), target = UncheckedSendable(result.bytes)
        let (sourceStride, targetStride) = (stride, result.stride)
        let across = columns.padded()
        let sourceWidth = self.width
        Parallel.forEach(count: height, workers: threads) { y in
            // The C kernel (CEaselPixels), in vector lanes.
            let taps = rows.range(of: y)
            let sourceRows = taps.map {
                UnsafePointer<UInt8>?(source.value.assumingMemoryBound(to: UInt8.self) + rows.sources[$0] * sourceStride)
            }
            let rowWeights = taps.map { rows.weights[$0] }
            var column = [UInt16](repeating: 0, count: sourceWidth * 4)
            easel_box_reduce_row(
                sourceRows, rowWeights, sourceRows.count, sourceWidth, &column, across.sources, across.weights,
                across.taps, width, target.value.assumingMemoryBound(to: UInt8.self) + y * targetStride)
        }
        result.reducedFrom = fullSize
        return result
    }
}

/// How much of each source pixel along one side falls in each target pixel when `source`
/// pixels are shrunk to `target`: for target pixel `t`, the sources `sources[range(of: t)]`
/// with weights in 256ths that add up to exactly 256.
struct AreaWeights: Sendable {
    private(set) var sources: [Int] = []
    private(set) var weights: [UInt16] = []
    private var starts: [Int] = [0]

    init(source: Int, target: Int) {
        let span = Double(source) / Double(target)
        for t in 0..<target {
            let left = Double(t) * span, right = min(Double(source), Double(t + 1) * span)
            let first = Int(left.rounded(.down)), last = min(source - 1, Int(right.rounded(.up)) - 1)
            var taps: [(source: Int, weight: Int)] = []
            for s in first...max(first, last) {
                let covered = min(right, Double(s + 1)) - max(left, Double(s))
                let weight = Int((covered / (right - left) * 256).rounded())
                if weight > 0 { taps.append((s, weight)) }
            }
            // Rounding can leave the weights a little off 256: the largest takes the difference.
            if let largest = taps.indices.max(by: { taps[$0].weight < taps[$1].weight }) {
                taps[largest].weight += 256 - taps.reduce(0) { $0 + $1.weight }
            }
            for tap in taps {
                sources.append(tap.source)
                weights.append(UInt16(tap.weight))
            }
            starts.append(sources.count)
        }
    }

    /// The taps of target pixel `index`.
    func range(of index: Int) -> Range<Int> { starts[index]..<starts[index + 1] }

    /// The same taps with as many for every target pixel (`taps`, the most any has): target
    /// pixel `t`'s are `sources[t * taps ..< (t + 1) * taps]` and the same of `weights`, those
    /// past its own with weight 0 (and its last source), for a loop with no branch on the count.
    func padded() -> (taps: Int, sources: [Int], weights: [UInt16]) {
        let count = starts.count - 1
        let taps = max(1, (0..<count).map { starts[$0 + 1] - starts[$0] }.max() ?? 0)
        var paddedSources = [Int](repeating: 0, count: count * taps)
        var paddedWeights = [UInt16](repeating: 0, count: count * taps)
        for target in 0..<count {
            let own = range(of: target)
            for k in 0..<taps {
                // A target pixel with no taps (a reduction so steep that every weight rounds to
                // 0) reads source pixel 0, which every side has, with weight 0.
                paddedSources[target * taps + k] = own.isEmpty ? 0 : sources[min(own.lowerBound + k, own.upperBound - 1)]
                paddedWeights[target * taps + k] = own.lowerBound + k < own.upperBound ? weights[own.lowerBound + k] : 0
            }
        }
        return (taps, paddedSources, paddedWeights)
    }
}
