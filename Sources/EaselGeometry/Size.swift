/// A width and a height, in canvas units. May be zero or negative where a document says so;
/// the model layer decides which sizes it accepts.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent, in canvas units.
    public var width: Double
    /// The vertical extent, in canvas units.
    public var height: Double

    /// A size as given; nothing is checked or clamped.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No width and no height.
    public static let zero = Size(width: 0, height: 0)

    /// True when neither side is NaN or infinite.
    public var isFinite: Bool { width.isFinite && height.isFinite }

    /// `WxH` with at most four decimals, for example `640x480`.
    public var description: String { "\(formatNumber(width))x\(formatNumber(height))" }

    /// The largest size with this size's aspect ratio that fits inside `bounds`
    /// (aspect-fit: never cropped). A size with a zero side fits as `.zero`.
    public func aspectFit(in bounds: Size) -> Size {
        guard width > 0, height > 0, bounds.width > 0, bounds.height > 0 else { return .zero }
        let scale = min(bounds.width / width, bounds.height / height)
        return Size(width: width * scale, height: height * scale)
    }
}
