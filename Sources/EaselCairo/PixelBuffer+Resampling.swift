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
            // Two channels to a word (why: half the multiplications of one at a time, and the
            // same sums): a row's horizontal sum of blue and red, or green and alpha, is at most
            // 255 x 256 in each 16-bit half, since a pixel's weights add up to 256; the column's
            // sum of those, times weights adding up to 256 again, fits each 32-bit half of a UInt64.
            var blueRed = [UInt64](repeating: 0, count: width), greenAlpha = [UInt64](repeating: 0, count: width)
            blueRed.withUnsafeMutableBufferPointer { blueRed in
                greenAlpha.withUnsafeMutableBufferPointer { greenAlpha in
                    columns.withUnsafeTaps { starts, sources, weights in
                        for tap in rows.range(of: y) {
                            let rowWeight = UInt64(rows.weights[tap])
                            let pixels = (source.value + rows.sources[tap] * sourceStride).assumingMemoryBound(to: UInt32.self)
                            for x in 0..<width {
                                var pairBlueRed: UInt32 = 0, pairGreenAlpha: UInt32 = 0
                                for column in starts[x]..<starts[x + 1] {
                                    let value = pixels[sources[column]], weight = UInt32(weights[column])
                                    pairBlueRed &+= (value & 0x00FF_00FF) &* weight
                                    pairGreenAlpha &+= (value >> 8 & 0x00FF_00FF) &* weight
                                }
                                blueRed[x] &+= Self.spread(pairBlueRed) &* rowWeight
                                greenAlpha[x] &+= Self.spread(pairGreenAlpha) &* rowWeight
                            }
                        }
                    }
                    // Both weights are in 256ths: the sums are in 65536ths of a level.
                    let out = (target.value + y * targetStride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width {
                        let blue = Self.level(blueRed[x] & 0xFFFF_FFFF), red = Self.level(blueRed[x] >> 32)
                        let green = Self.level(greenAlpha[x] & 0xFFFF_FFFF), alpha = Self.level(greenAlpha[x] >> 32)
                        out[x] = blue | green << 8 | red << 16 | alpha << 24
                    }
                }
            }
        }
        result.reducedFrom = fullSize
        return result
    }

    /// The two 16-bit halves of `pair` in the two 32-bit halves of a UInt64.
    @inline(__always) private static func spread(_ pair: UInt32) -> UInt64 {
        UInt64(pair & 0xFFFF) | UInt64(pair >> 16) << 32
    }

    /// A sum in 65536ths of a level, rounded to a level.
    @inline(__always) private static func level(_ sum: UInt64) -> UInt32 {
        UInt32(min(255, (sum &+ 32768) >> 16))
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

    /// `body` given the starts (target pixel `t`'s taps are `starts[t]..<starts[t + 1]`),
    /// sources and weights without bounds checks, for the resampler's inner loop.
    func withUnsafeTaps<Result>(
        _ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<UInt16>) -> Result
    ) -> Result {
        starts.withUnsafeBufferPointer { starts in
            sources.withUnsafeBufferPointer { sources in
                weights.withUnsafeBufferPointer { weights in body(starts, sources, weights) }
            }
        }
    }
}
