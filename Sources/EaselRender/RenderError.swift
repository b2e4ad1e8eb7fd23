import EaselGeometry
import EaselCairo

/// Why rendering, encoding or writing an image failed.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A cairo surface or context failed, or an image was over the size limits.
    case cairo(CairoError)
    /// The requested image is larger than the limit; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: String)
    /// An output size that cannot be drawn (zero, negative, not finite, under one pixel).
    case invalidSize(String)
    /// A scene whose groups do not balance (an end without a beginning, or a group left open).
    case unbalancedGroups(file: String, problem: String)
    /// The document's type is registered but cannot be rendered (it is not a `RenderableDocument`).
    case unsupportedDocument(file: String, type: String)
    case png(PNGError)
    /// A font the scene names could not be loaded.
    case font(FontError)
    /// Writing the output failed.
    case io(path: String, message: String)
    /// Drawing went past the scene's deadline and was stopped.
    case timedOut(file: String)

    /// A one-line message for the user, naming the file where one is known.
    public var description: String {
        switch self {
        case .cairo(let error): return error.description
        case .tooLarge(let width, let height, let limit):
            return "an image of \(width)x\(height) pixels is over the limit (\(limit))"
        case .invalidSize(let message): return message
        case .unbalancedGroups(let file, let problem): return file.isEmpty ? problem : "\(file): \(problem)"
        case .unsupportedDocument(let file, let type):
            return "\(file): Easel cannot render a \(type) document (its type is not a RenderableDocument)"
        case .png(let error): return error.description
        case .font(let error): return error.description
        case .io(let path, let message): return "\(path): \(message)"
        case .timedOut(let file):
            let problem = "drawing took longer than the time allowed and was stopped"
            return file.isEmpty ? problem : "\(file): \(problem)"
        }
    }

    /// Runs `body`, turning the errors of the cairo edge into render errors.
    static func wrapping<T>(_ body: () throws -> T) throws(RenderError) -> T {
        do {
            return try body()
        } catch let error as RenderError {
            throw error
        } catch let error as CairoError {
            throw .cairo(error)
        } catch let error as PNGError {
            throw .png(error)
        } catch let error as FontError {
            throw .font(error)
        } catch {
            preconditionFailure("an error the cairo edge does not throw: \(error)")
        }
    }
}
