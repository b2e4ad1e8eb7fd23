import EaselCairo
import EaselSupport
import FoundationEssentials

/// Decoded images shared by every render in the process: a batch whose cards use the same
/// photo (a logo, a frame) decodes it once. An image is known by its file's bytes (their
/// count and two checksums, 96 bits in all), never by where the file is or when it
/// changed: a file changed or replaced decodes again, the same photo copied into two
/// folders decodes once, and a file deleted and another written in its place within a
/// clock tick — same inode, size and time — cannot be mistaken for it (which a key of file
/// identity and modification time allowed). Pixel buffers are immutable, so renders on any
/// thread share them. An image being decoded is decoded once: a render that asks for it
/// meanwhile waits for that decoding. An image is kept only from its second decoding on:
/// a folder whose cards each have photos of their own (the app's way) never fills the cache
/// with photos no other card will ask for, while a logo on every card is kept from the
/// second card. The least recently used images go when the cache passes its byte limit,
/// which follows the memory the process may use.
public final class SharedImageCache: Sendable {
    /// The process's cache: an eighth of the memory the process may use (its cgroup's limit,
    /// or the machine's memory), at most 96 MiB, so that a batch stays under 200 MB whatever
    /// its folder (a folder of cards sharing 60 photos peaked at 228 MiB with 256 MiB).
    public static let shared = SharedImageCache(maxBytes: min(96 << 20, ProcessMemory.availableBytes / 8))

    /// Keys decoded once and not kept, newest last (at most `maxSeen`): a second decoding
    /// of one of them keeps the image.
    private static let maxSeen = 4096

    private struct State {
        var images: [String: PixelBuffer] = [:]
        var order: [String] = []  // least recently used first
        var bytes = 0
        var decodes = 0
        /// Keys decoded once and not kept (see `maxSeen`), with their order of arrival.
        var seen: Set<String> = []
        var seenOrder: [String] = []
        /// Keys asked for by another render while being decoded (kept at once).
        var wantedAgain: Set<String> = []
        /// Keys being decoded now, by some thread.
        var decoding: Set<String> = []
    }

    private let state = Locked(State())
    /// Signalled whenever a decoding ends, for the threads waiting for one.
    private let decodingEnded = Condition()
    /// The most bytes of pixels kept.
    public let maxBytes: Int

    /// A cache keeping at most `maxBytes` of pixels.
    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// How many images were decoded (not found in the cache) so far.
    public var decodes: Int { state.withLock { $0.decodes } }

    /// The key of an image file's `bytes`: their count and their CRC-64 and CRC-32, so that
    /// two different files sharing a key would take a collision of both (about one in 2^96).
    static func key(of bytes: [UInt8]) -> String { Checksums.contentKey(of: bytes) }

    /// The decoded image for `key`, made by `decode` when it is not cached; when another
    /// thread is decoding the same key, waits for it instead (a failed or uncacheable
    /// decoding leaves the waiters to decode for themselves).
    func image(for key: String?, decode: () throws -> PixelBuffer) rethrows -> PixelBuffer {
        guard let key else {
            let image = try decode()
            state.withLock { $0.decodes += 1 }
            return image
        }
        while true {
            enum Step {
                case cached(PixelBuffer)
                case wait, decode
            }
            let step = state.withLock { state -> Step in
                if let image = state.images[key] {
                    state.order.removeAll { $0 == key }
                    state.order.append(key)
                    return .cached(image)
                }
                if state.decoding.contains(key) {
                    // Asked for again while decoding: a second use, so the image is kept.
                    state.wantedAgain.insert(key)
                    return .wait
                }
                state.decoding.insert(key)
                return .decode
            }
            switch step {
            case .cached(let image): return image
            case .wait:
                decodingEnded.lock()
                // Checked again under the condition's lock: the decoding may have ended already.
                while state.withLock({ $0.decoding.contains(key) }) { decodingEnded.wait() }
                decodingEnded.unlock()
            case .decode:
                defer {
                    state.withLock {
                        _ = $0.decoding.remove(key)
                        _ = $0.wantedAgain.remove(key)
                    }
                    decodingEnded.lock()
                    decodingEnded.broadcast()
                    decodingEnded.unlock()
                }
                let image = try decode()
                insert(image, for: key)
                return image
            }
        }
    }

    private func insert(_ image: PixelBuffer, for key: String) {
        state.withLock { state in
            state.decodes += 1
            let size = image.stride * image.height
            guard size <= maxBytes, state.images[key] == nil else { return }
            // Kept from the second decoding (or a second render's asking) on; the first is
            // only remembered.
            guard state.seen.remove(key) != nil || state.wantedAgain.contains(key) else {
                state.seen.insert(key)
                state.seenOrder.append(key)
                if state.seenOrder.count > Self.maxSeen {
                    state.seenOrder.removeFirst(state.seenOrder.count - Self.maxSeen / 2)
                    state.seen = Set(state.seenOrder)
                }
                return
            }
            state.images[key] = image
            state.order.append(key)
            state.bytes += size
            while state.bytes > maxBytes, let oldest = state.order.first {
                state.order.removeFirst()
                if let evicted = state.images.removeValue(forKey: oldest) { state.bytes -= evicted.stride * evicted.height }
            }
        }
    }
}
