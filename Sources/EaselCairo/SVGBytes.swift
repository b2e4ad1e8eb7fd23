import Glibc

/// Byte-level helpers for the rewrites of cairo's SVG (`SVGUniformMasks`, `SVGPageClips`): an
/// SVG may hold megabytes of embedded photos, so it is searched and cut as bytes, never as a
/// Swift string.
enum SVGBytes {
    /// The first index of `needle` in `haystack` at or after `start` (by `memchr` for its
    /// first byte: an SVG may hold megabytes of embedded photos).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start >= 0 else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            guard let base = hay.baseAddress else { return nil }
            var index = start
            while index + needle.count <= hay.count {
                guard let found = memchr(base + index, Int32(first), hay.count - index) else { return nil }
                index = base.distance(to: UnsafeRawPointer(found))
                guard index + needle.count <= hay.count else { return nil }
                if memcmp(base + index, needle, needle.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }

    /// `svg` without `ranges` (in order, not overlapping).
    static func removing(_ ranges: [Range<Int>], from svg: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(svg.count)
        var copied = 0
        for range in ranges {
            result += svg[copied..<range.lowerBound]
            copied = range.upperBound
        }
        result += svg[copied...]
        return result
    }
}
