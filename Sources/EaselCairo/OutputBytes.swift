import Glibc

/// Byte-level helpers for rewriting what cairo writes (`SVGUniformMasks`, `SVGPageClips`,
/// `PDFImageStreams`): an SVG or PDF may hold megabytes of embedded photos, so it is searched
/// and cut as bytes, never as a Swift string.
enum OutputBytes {
    /// The first index of `needle` in `haystack` at or after `start` (by `memchr` for its
    /// first byte: the file may hold megabytes of embedded photos).
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

    /// The last index of `needle` in `haystack` that ends at or before `end` (for what lies
    /// just before a known place, or near a file's end).
    static func findLast(_ needle: [UInt8], in haystack: [UInt8], before end: Int) -> Int? {
        var index = min(end, haystack.count) - needle.count
        while index >= 0 {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }

    /// `bytes` with each of `edits`' ranges (in order, not overlapping) replaced by its bytes.
    static func replacing(_ edits: [(range: Range<Int>, bytes: [UInt8])], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.bytes.count - $1.range.count })
        var copied = 0
        for edit in edits {
            result += bytes[copied..<edit.range.lowerBound]
            result += edit.bytes
            copied = edit.range.upperBound
        }
        result += bytes[copied...]
        return result
    }

    /// `bytes` without `ranges` (in order, not overlapping).
    static func removing(_ ranges: [Range<Int>], from bytes: [UInt8]) -> [UInt8] {
        replacing(ranges.map { ($0, []) }, in: bytes)
    }
}
