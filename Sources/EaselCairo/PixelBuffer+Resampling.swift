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
        Parallel.forEach(count: height, workers: threads) { y in
            var sums = [UInt32](repeating: 0, count: width * 4)
            sums.withUnsafeMutableBufferPointer { sums in
                for tap in rows.range(of: y) {
                    let rowWeight = UInt32(rows.weights[tap])
                    let pixels = (source.value + rows.sources[tap] * sourceStride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width {
                        var blue: UInt32 = 0, green: UInt32 = 0, red: UInt32 = 0, alpha: UInt32 = 0
                        for column in columns.range(of: x) {
                            let value = pixels[columns.sources[column]], weight = UInt32(columns.weights[column])
                            blue &+= (value & 0xFF) &* weight
                            green &+= (value >> 8 & 0xFF) &* weight
                            red &+= (value >> 16 & 0xFF) &* weight
                            alpha &+= (value >> 24) &* weight
                        }
                        sums[x * 4] &+= blue &* rowWeight
                        sums[x * 4 + 1] &+= green &* rowWeight
                        sums[x * 4 + 2] &+= red &* rowWeight
                        sums[x * 4 + 3] &+= alpha &* rowWeight
                    }
                }
                // Both weights are in 256ths: the sums are in 65536ths of a level.
                let out = (target.value + y * targetStride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    func level(_ channel: Int) -> UInt32 { min(255, (sums[x * 4 + channel] &+ 32768) >> 16) }
                    out[x] = level(0) | level(1) << 8 | level(2) << 16 | level(3) << 24
                }
            }
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
}
