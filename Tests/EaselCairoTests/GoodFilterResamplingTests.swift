import Foundation
import Testing
@testable import EaselCairo
import CEaselCairo

/// Colour glyphs resampled by Easel's copy of cairo's GOOD filter arithmetic against cairo
/// painting the same bitmap through the same matrix: the same bytes, at text sizes and far
/// beyond, at any angle, stretched and skewed, whole or cut to a part.
@Suite("GOOD filter resampling")
struct GoodFilterResamplingTests {
    /// Linear maps from strike pixels to device pixels: uniform scales at many angles, and
    /// stretched, skewed and mirrored ones.
    static func linears(ppem: Double) -> [(xx: Double, yx: Double, xy: Double, yy: Double)] {
        var result: [(xx: Double, yx: Double, xy: Double, yy: Double)] = []
        for size in [3.0, 9.7, 17, 23.5, 40, 64, 81.25, 109, 150, 181, 333] {
            let scale = size / ppem
            for degrees in [0.0, 2, -2, 7.5, 45, 90, 137, 180, -91] {
                let angle = degrees * .pi / 180
                result.append((scale * cos(angle), scale * sin(angle), -scale * sin(angle), scale * cos(angle)))
            }
        }
        result += [(0.3, 0, 0.1, 0.7), (1.6, 0.2, 0, 0.45), (-0.5, 0, 0, 0.5), (0.62, 0, 0, -0.62), (1, 0, 0, 1), (2, 0, 0, 2)]
        return result
    }

    @Test("The same bytes as cairo's paint for every matrix, whole and in part")
    func sameBytesAsCairo() throws {
        let (face, glyphs) = try ColorGlyphTests.emoji()
        let strike = try #require(face.colorStrike)
        var compared = 0
        for glyph in glyphs {
            let bitmap = try #require(strike.bitmap(for: glyph))
            for linear in Self.linears(ppem: strike.xPPEM) {
                let whole = try #require(CairoContext.deviceBox(of: bitmap, through: linear, limit: 1e6))
                let part = PixelBox(
                    minX: whole.minX + whole.width / 3, minY: whole.minY + whole.height / 4, maxX: whole.maxX - 1,
                    maxY: whole.maxY - whole.height / 5)
                for region in [whole, part] where !region.isEmpty {
                    var placement = cairo_matrix_t(
                        xx: linear.xx, yx: linear.yx, xy: linear.xy, yy: linear.yy, x0: Double(-region.minX),
                        y0: Double(-region.minY))
                    let shrink = 1 / max(hypot(linear.xx, linear.xy), hypot(linear.yx, linear.yy))
                    guard
                        let ours = GoodFilterResampling.resample(
                            bitmap.image, placement: placement, offset: (Double(bitmap.left), Double(-bitmap.top)),
                            width: region.width, height: region.height)
                    else {
                        // cairo reduces GOOD to BILINEAR (or NEAREST) below a shrink of 4/3 and for
                        // an exact half along the axes: those are its own.
                        #expect(shrink < 1.34 || abs(shrink - 2) < 0.01, "matrix \(linear) left to cairo")
                        continue
                    }
                    let cairos = try CairoContext.resampledByCairo(bitmap, placement: &placement, region: region)
                    let (count, worst) = ours.withUnsafeBytes { a in
                        cairos.withUnsafeBytes { b in
                            zip(a, b).reduce(into: (0, 0)) { result, pair in
                                guard pair.0 != pair.1 else { return }
                                result = (result.0 + 1, max(result.1, abs(Int(pair.0) - Int(pair.1))))
                            }
                        }
                    }
                    #expect(
                        count == 0,
                        "glyph \(glyph), matrix \(linear), region \(region): \(count) bytes differ, by up to \(worst)")
                    compared += 1
                }
            }
        }
        #expect(compared > 300)
    }

    @Test("What cairo draws with BILINEAR or NEAREST is left to cairo")
    func reducedFiltersLeftToCairo() throws {
        let (face, glyphs) = try ColorGlyphTests.emoji()
        let strike = try #require(face.colorStrike)
        let bitmap = try #require(strike.bitmap(for: glyphs[0]))
        // One to one, enlarged, shrunk by less than 4/3, halved along the axes at a whole pixel.
        for linear in [(1.0, 0.0, 0.0, 1.0), (2.5, 0, 0, 2.5), (0.8, 0.1, -0.1, 0.8), (0.5, 0, 0, 0.5), (0, 1, -1, 0)] {
            let placement = cairo_matrix_t(xx: linear.0, yx: linear.1, xy: linear.2, yy: linear.3, x0: 7, y0: 9)
            #expect(
                GoodFilterResampling.resample(
                    bitmap.image, placement: placement, offset: (Double(bitmap.left), Double(-bitmap.top)), width: 40,
                    height: 40) == nil)
        }
        // Shrunk by 2.7: GOOD's convolution.
        let shrunk = cairo_matrix_t(xx: 0.37, yx: 0, xy: 0, yy: 0.37, x0: 7, y0: 9)
        #expect(
            GoodFilterResampling.resample(
                bitmap.image, placement: shrunk, offset: (Double(bitmap.left), Double(-bitmap.top)), width: 40, height: 40)
                != nil)
    }

    @Test("cairo's GOOD kernel: each phase's weights sum to one")
    func kernelWeights() {
        for scale in [1.0, 1.4, 2, 3.7, 16] {
            let (width, bits, weights) = SeparableKernel.weights(scale: scale)
            #expect(weights.count == (1 << bits) * width)
            for phase in 0..<(1 << bits) {
                #expect(weights[phase * width..<(phase + 1) * width].reduce(0, +) == 65536)
            }
        }
        // A scale of one: two taps, 256 phases, the weight moving from the second pixel to the first.
        let (width, bits, weights) = SeparableKernel.weights(scale: 1)
        #expect(width == 2 && bits == 8)
        #expect(weights[0] < weights[1] && weights[255 * 2] > weights[255 * 2 + 1])
    }
}
