import CEaselCairo

/// Why a cairo surface, context or image could not be made or drawn on. Every cairo call
/// is followed by a status check that throws one of these instead of drawing on silently
/// in an error state.
public enum CairoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A cairo call left its object in an error state.
    case failed(operation: String, status: String)
    /// The requested image is larger than the limit; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: String)
    /// An image size with no area (zero or negative).
    case noArea(width: Int, height: Int)
    /// Writing or reading a file through cairo failed.
    case io(path: String, message: String)
    /// A PDF's images given as deflated rows (`VectorSurface.embed`) were not where cairo
    /// writes them; the PDF must be drawn again without.
    case imagesNotEmbedded

    /// A one-line message for the user, with the sizes or file involved.
    public var description: String {
        switch self {
        case .failed(let operation, let status): return "cairo failed in \(operation): \(status)"
        case .tooLarge(let width, let height, let limit):
            return "an image of \(width)x\(height) pixels is over the limit (\(limit))"
        case .noArea(let width, let height): return "an image of \(width)x\(height) pixels has no area"
        case .io(let path, let message): return "\(path): \(message)"
        case .imagesNotEmbedded: return "the PDF's images could not be put in as Easel deflated them"
        }
    }

    /// The error for a cairo status other than success.
    static func status(_ status: cairo_status_t, in operation: String) -> CairoError {
        .failed(operation: operation, status: String(cString: cairo_status_to_string(status)))
    }
}

/// Why a PNG could not be decoded or encoded.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    case notPNG(String)
    case truncated(String)
    case corrupt(String)
    case tooLarge(String)
    case outOfMemory
    case encodeFailed(String)
    /// The decode ran past its deadline and was stopped.
    case pastDeadline

    /// A one-line message for the user, with libpng's own explanation where there is one.
    public var description: String {
        switch self {
        case .notPNG(let m): return "not a PNG image: \(m)"
        case .truncated(let m): return "truncated PNG: \(m)"
        case .corrupt(let m): return "corrupt PNG: \(m)"
        case .tooLarge(let m): return "PNG too large: \(m)"
        case .outOfMemory: return "out of memory while handling a PNG"
        case .encodeFailed(let m): return "PNG encoding failed: \(m)"
        case .pastDeadline: return "PNG: the decode ran past its deadline and was stopped"
        }
    }
}
