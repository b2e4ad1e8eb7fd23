/// One undo or redo step, stored as the change itself: how to turn the document's bytes
/// after an edit back into the bytes before it (or the other way round) by replacing one
/// range. An edit that changes one element changes one region of the saved file, so a step
/// costs about what changed, not the size of the document.
struct HistoryPatch: Equatable, Sendable {
    /// Where the replaced range starts, in bytes.
    var offset: Int
    /// How many bytes of the source are replaced.
    var removedCount: Int
    /// What replaces them.
    var replacement: [UInt8]

    /// The patch that turns `source` into `target`: everything between their common prefix
    /// and their common suffix.
    static func turning(_ source: [UInt8], into target: [UInt8]) -> HistoryPatch {
        let limit = min(source.count, target.count)
        let prefix = source.withUnsafeBufferPointer { a in
            target.withUnsafeBufferPointer { b in
                var i = 0
                while i < limit && a[i] == b[i] { i += 1 }
                return i
            }
        }
        let suffix = source.withUnsafeBufferPointer { a in
            target.withUnsafeBufferPointer { b in
                var i = 0
                while i < limit - prefix && a[a.count - 1 - i] == b[b.count - 1 - i] { i += 1 }
                return i
            }
        }
        return HistoryPatch(
            offset: prefix, removedCount: source.count - prefix - suffix,
            replacement: Array(target[prefix..<(target.count - suffix)]))
    }

    /// `bytes` with the patch applied, or nil when the patch does not fit them.
    func applied(to bytes: [UInt8]) -> [UInt8]? {
        guard offset >= 0, removedCount >= 0, offset <= bytes.count, removedCount <= bytes.count - offset else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(bytes.count - removedCount + replacement.count)
        result += bytes[..<offset]
        result += replacement
        result += bytes[(offset + removedCount)...]
        return result
    }

    /// What a step costs to keep, in bytes.
    var size: Int { replacement.count + Self.header.count + 16 }

    private static let header = Array("EASELPATCH1\n".utf8)

    /// The stored form: a header line, the offset and the removed count as 64-bit
    /// little-endian numbers, then the replacement bytes.
    var encoded: [UInt8] {
        var bytes = Self.header
        for value in [UInt64(offset), UInt64(removedCount)] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        return bytes + replacement
    }

    /// Reads the stored form; nil for anything else.
    init?(decoding bytes: [UInt8]) {
        let start = Self.header.count
        guard bytes.count >= start + 16, Array(bytes[..<start]) == Self.header else { return nil }
        func number(at index: Int) -> UInt64 {
            bytes[index..<(index + 8)].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        let offset = number(at: start), removed = number(at: start + 8)
        guard offset < UInt64(Int.max / 2), removed < UInt64(Int.max / 2) else { return nil }
        self.init(offset: Int(offset), removedCount: Int(removed), replacement: Array(bytes[(start + 16)...]))
    }

    init(offset: Int, removedCount: Int, replacement: [UInt8]) {
        self.offset = offset
        self.removedCount = removedCount
        self.replacement = replacement
    }
}
