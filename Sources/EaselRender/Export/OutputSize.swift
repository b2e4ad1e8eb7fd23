import EaselGeometry
import EaselCairo

/// How big the output image is: a scale of the canvas, or an explicit pixel width and/or
/// height (keeping the canvas's aspect ratio when only one is given).
public enum OutputSize: Codable, Hashable, Sendable, CustomStringConvertible {
    case scale(Double)
    case width(Int)
    case height(Int)
    /// Exactly this many pixels; the canvas is stretched if the aspect ratio differs.
    case exact(width: Int, height: Int)
    /// Exactly this many pixels, the canvas scaled uniformly to fit inside (`contain`: the
    /// rest is transparent) or to fill them (`cover`: what overflows is cut), centred.
    case fitted(width: Int, height: Int, fit: Fit)

    /// How a canvas meets a box of another aspect ratio.
    public enum Fit: String, Codable, Hashable, Sendable, CaseIterable {
        /// All of the canvas shows, letterboxed with transparency.
        case contain
        /// The box is filled; the canvas's overflow is cut.
        case cover
    }

    /// The transform from a `canvas` rectangle to the output's pixels (or points) of
    /// `pixels` size: stretched per axis, or uniformly scaled and centred when fitted.
    public func canvasToOutput(canvas: Rect, pixels: (width: Int, height: Int)) -> Transform2D {
        let origin = Transform2D.translation(x: -canvas.minX, y: -canvas.minY)
        let sx = Double(pixels.width) / canvas.width, sy = Double(pixels.height) / canvas.height
        guard case .fitted(_, _, let fit) = self else { return origin.concatenating(.scale(x: sx, y: sy)) }
        let s = fit == .contain ? min(sx, sy) : max(sx, sy)
        return origin.concatenating(.scale(x: s, y: s))
            .concatenating(
                .translation(
                    x: (Double(pixels.width) - canvas.width * s) / 2, y: (Double(pixels.height) - canvas.height * s) / 2))
    }

    /// The app's share image: 1300x2000 for a card (scale 1).
    public static let share = OutputSize.scale(1)
    /// The app's thumbnail: 260x400 for a card (scale 0.2).
    public static let thumbnail = OutputSize.scale(0.2)

    /// The pixel size for a canvas; throws when it is empty or over the limits.
    public func pixelSize(for canvas: Size) throws(RenderError) -> (width: Int, height: Int) {
        let width: Double, height: Double
        switch self {
        case .scale(let s):
            guard s.isFinite, s > 0 else { throw .invalidSize("the scale must be a positive number, not \(s)") }
            (width, height) = (canvas.width * s, canvas.height * s)
        case .width(let w):
            (width, height) = (Double(w), Double(w) * canvas.height / canvas.width)
        case .height(let h):
            (width, height) = (Double(h) * canvas.width / canvas.height, Double(h))
        case .exact(let w, let h), .fitted(let w, let h, _):
            (width, height) = (Double(w), Double(h))
        }
        guard width.isFinite, height.isFinite, width < 1e9, height < 1e9 else {
            throw .tooLarge(
                width: Int(saturating: min(width, 1e9)), height: Int(saturating: min(height, 1e9)),
                limit: "\(RenderLimits.maxOutputPixels) pixels")
        }
        let pixels = (width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
        guard width >= 0.5, height >= 0.5 else {
            throw .invalidSize("the output would be \(formatNumber(width))x\(formatNumber(height)) pixels, less than one pixel")
        }
        do { try RenderLimits.checkOutput(width: pixels.width, height: pixels.height) } catch { throw .cairo(error) }
        return pixels
    }

    /// The size as the command line writes it: `scale 0.5`, `width 640`, `height 480` or `640x480`.
    public var description: String {
        switch self {
        case .scale(let s): return "scale \(formatNumber(s))"
        case .width(let w): return "width \(w)"
        case .height(let h): return "height \(h)"
        case .exact(let w, let h): return "\(w)x\(h)"
        case .fitted(let w, let h, let fit): return "\(w)x\(h) \(fit.rawValue)"
        }
    }
}

extension OutputSize {
    /// Whether the two give every canvas the same pixels (`.share` and `.scale(1)`, or
    /// `--width 1300` for a 1300-unit-wide card, spelled differently): judged on a card's
    /// canvas and on a few others of other shapes.
    public func givesSamePixels(as other: OutputSize) -> Bool {
        if self == other { return true }
        let canvases = [Size(width: 1300, height: 2000), Size(width: 800, height: 600), Size(width: 333, height: 777)]
        return canvases.allSatisfy { canvas in
            guard let mine = try? pixelSize(for: canvas), let theirs = try? other.pixelSize(for: canvas) else { return false }
            return mine == theirs
                && canvasToOutput(canvas: Rect(origin: .zero, size: canvas), pixels: mine)
                    == other.canvasToOutput(canvas: Rect(origin: .zero, size: canvas), pixels: theirs)
        }
    }
}
