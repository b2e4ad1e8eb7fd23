/// A width and a height, in canvas units. May be zero or negative where a document says so;
/// the model layer decides which sizes it accepts.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var isFinite: Bool { width.isFinite && height.isFinite }

    public var description: String { "\(formatNumber(width))x\(formatNumber(height))" }

    /// The largest size with this size's aspect ratio that fits inside `bounds`
    /// (aspect-fit: never cropped). A size with a zero side fits as `.zero`.
    public func aspectFit(in bounds: Size) -> Size {
        guard width > 0, height > 0, bounds.width > 0, bounds.height > 0 else { return .zero }
        let scale = min(bounds.width / width, bounds.height / height)
        return Size(width: width * scale, height: height * scale)
    }
}
