import EaselCairo
import EaselSupport
import Foundation

/// Decoded images shared by every render in the process: a batch whose cards use the same
/// photo (a logo, a frame) decodes it once. An image is known by its file's identity and
/// version (device, inode, size, modification time), so a file changed or replaced is
/// decoded again; pixel buffers are immutable, so renders on any thread share them. The
/// least recently used images go when the cache passes its byte limit.
public final class SharedImageCache: Sendable {
    /// The process's cache.
    public static let shared = SharedImageCache(maxBytes: 256 << 20)

    private struct State {
        var images: [String: PixelBuffer] = [:]
        var order: [String] = []  // least recently used first
        var bytes = 0
        var decodes = 0
    }

    private let state = Locked(State())
    /// The most bytes of pixels kept.
    public let maxBytes: Int

    /// A cache keeping at most `maxBytes` of pixels.
    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// How many images were decoded (not found in the cache) so far.
    public var decodes: Int { state.withLock { $0.decodes } }

    /// The identity and version of the file at `path`, or nil when it cannot be read.
    static func key(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// The decoded image for `key`, made by `decode` when it is not cached.
    func image(for key: String?, decode: () throws -> PixelBuffer) rethrows -> PixelBuffer {
        if let key,
            let cached = state.withLock({ state -> PixelBuffer? in
                guard let image = state.images[key] else { return nil }
                state.order.removeAll { $0 == key }
                state.order.append(key)
                return image
            })
        {
            return cached
        }
        let image = try decode()
        state.withLock { state in
            state.decodes += 1
            guard let key else { return }
            let size = image.stride * image.height
            guard size <= maxBytes, state.images[key] == nil else { return }
            state.images[key] = image
            state.order.append(key)
            state.bytes += size
            while state.bytes > maxBytes, let oldest = state.order.first {
                state.order.removeFirst()
                if let evicted = state.images.removeValue(forKey: oldest) { state.bytes -= evicted.stride * evicted.height }
            }
        }
        return image
    }
}
