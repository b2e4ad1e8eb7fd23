import EaselSupport

/// One of N stable partitions of a document list: a document belongs to shard
/// `hash(relative path) mod N`, so the partition does not depend on which machine scans
/// the folder, on the order of the scan, or on other documents being added or removed.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    /// How many shards the documents are split into (at least 1).
    public let count: Int

    /// Shard `index` of `count`; nil unless 1 ≤ index ≤ count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 ≤ K ≤ N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    /// True when the document at `relativePath` (its manifest key) belongs to this shard.
    public func contains(_ relativePath: String) -> Bool {
        Int(FNV1a.hash(relativePath) % UInt64(count)) == index - 1
    }

    /// `K/N`, as the command line takes it.
    public var description: String { "\(index)/\(count)" }
}
