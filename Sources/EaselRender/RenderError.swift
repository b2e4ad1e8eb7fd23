import CEaselCairo

/// Why rendering, encoding or writing an image failed.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A cairo call left its object in an error state.
    case cairo(operation: String, status: String)
    /// The requested image is larger than the limit; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: String)
    /// A size that cannot be drawn (zero, negative or not finite).
    case invalidSize(String)
    case png(PNGError)
    /// Writing the output failed.
    case io(path: String, message: String)

    public var description: String {
        switch self {
        case .cairo(let operation, let status): return "cairo failed in \(operation): \(status)"
        case .tooLarge(let width, let height, let limit): return "an image of \(width)x\(height) pixels is over the limit (\(limit))"
        case .invalidSize(let message): return message
        case .png(let error): return error.description
        case .io(let path, let message): return "\(path): \(message)"
        }
    }

    static func cairo(_ status: cairo_status_t, in operation: String) -> RenderError {
        .cairo(operation: operation, status: String(cString: cairo_status_to_string(status)))
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

    public var description: String {
        switch self {
        case .notPNG(let m): return "not a PNG image: \(m)"
        case .truncated(let m): return "truncated PNG: \(m)"
        case .corrupt(let m): return "corrupt PNG: \(m)"
        case .tooLarge(let m): return "PNG too large: \(m)"
        case .outOfMemory: return "out of memory while handling a PNG"
        case .encodeFailed(let m): return "PNG encoding failed: \(m)"
        }
    }
}
