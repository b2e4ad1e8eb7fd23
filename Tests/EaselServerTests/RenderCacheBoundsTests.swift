import Testing

@testable import EaselServer

/// The render cache holds at most its bytes, counting what remembering each render takes
/// (its key above all), and at most `maxEntries` renders: a flood of tiny renders with long
/// keys cannot grow it past its limit, nor make finding the oldest entry slow.
@Suite("The render cache's bounds")
struct RenderCacheBoundsTests {
    static func entry(bytes: Int) -> RenderCache.Entry {
        RenderCache.Entry(bytes: [UInt8](repeating: 7, count: bytes), etag: "\"e\"", revision: "r", sources: [])
    }

    @Test func longKeysAreCountedAgainstTheBytes() {
        let cache = RenderCache(maxBytes: 1 << 20)
        let padding = String(repeating: "0,", count: 2_500)  // an only= list of 2,500 indices
        for index in 0..<1_000 { cache.store(Self.entry(bytes: 1), for: "\(index)?only=\(padding)") }
        let usage = cache.usage
        #expect(usage.bytes <= 1 << 20)
        #expect(usage.entries < 210, "\(usage.entries) entries of 5 KB keys in 1 MiB")
        #expect(cache.entry(for: "999?only=\(padding)", includingDisk: false) != nil, "the newest is kept")
        #expect(cache.entry(for: "0?only=\(padding)", includingDisk: false) == nil, "the oldest went first")
    }

    @Test func everyResponseOfACachedRenderSharesItsBuffer() {
        // Forty slow readers of a 32 MB render held 31 MB each when each response copied it.
        let cache = RenderCache(maxBytes: 1 << 24)
        cache.store(Self.entry(bytes: 1 << 20), for: "render.png?width=4000")
        let first = cache.entry(for: "render.png?width=4000", includingDisk: false)?.output
        let second = cache.entry(for: "render.png?width=4000", includingDisk: false)?.output
        let addresses = [first, second].map { $0?.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(addresses[0] != nil && addresses[0] == addresses[1] && first?.readableBytes == 1 << 20)
    }

    @Test func tinyRendersStopAtTheMostEntries() {
        let cache = RenderCache(maxBytes: 1 << 30)
        for index in 0..<(RenderCache.maxEntries + 500) { cache.store(Self.entry(bytes: 70), for: "render.png?area=\(index)") }
        #expect(cache.usage.entries == RenderCache.maxEntries)
        #expect(cache.entry(for: "render.png?area=499", includingDisk: false) == nil)
        #expect(cache.entry(for: "render.png?area=500", includingDisk: false) != nil)
    }
}
