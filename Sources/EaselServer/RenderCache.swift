import EaselBatch
import EaselSupport
import Foundation
import NIOCore

/// Rendered outputs kept in memory, least recently used out first, within a byte limit.
/// An entry remembers the stamps (size, modification time, inode) of the document and of
/// every image it drew, and is used only while all of them still match: a document edited
/// by anyone, or an image replaced, is rendered again, with no need to read or parse
/// anything to find that out.
final class RenderCache: Sendable {
    struct Entry: Sendable {
        /// The output, in the buffer every response that sends it shares (a response to a
        /// client that reads slowly holds a reference, not a copy of its own).
        let output: ByteBuffer
        var etag: String
        var revision: String
        /// The files the output was made from, and their stamps then (nil: missing then).
        var sources: [(path: String, stamp: FileStamp?)]

        init(bytes: [UInt8], etag: String, revision: String, sources: [(path: String, stamp: FileStamp?)]) {
            self.output = ByteBuffer(bytes: bytes)
            self.etag = etag
            self.revision = revision
            self.sources = sources
        }

        /// The output's size in bytes.
        var byteCount: Int { output.readableBytes }
        /// A copy of the output's bytes (for the disk tier).
        var bytes: [UInt8] { Array(output.readableBytesView) }
    }

    /// The most bytes kept in memory: each entry's output, and what remembering it takes
    /// (`cost(of:key:)`).
    let maxBytes: Int
    /// The most entries kept, whatever their size: the oldest is found by a look through
    /// them all, under the lock lookups take too.
    static let maxEntries = 16_384
    /// The tier on disk, when there is one.
    let disk: DiskRenderCache?
    private struct State {
        var entries: [String: (entry: Entry, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }
    private let state = Locked(State())

    init(maxBytes: Int, disk: DiskRenderCache? = nil) {
        self.maxBytes = maxBytes
        self.disk = disk
    }

    /// The entry for `key` if its sources are unchanged on disk: from memory, else from the
    /// disk tier (and then kept in memory too). `includingDisk: false` looks in memory only (for callers on an event loop).
    func entry(for key: String, includingDisk: Bool = true) -> Entry? {
        guard
            let found = state.withLock({ state -> Entry? in
                guard let found = state.entries[key] else { return nil }
                state.clock += 1
                state.entries[key]?.lastUse = state.clock
                return found.entry
            })
        else {
            guard includingDisk, let stored = disk?.entry(for: key) else { return nil }
            keepInMemory(stored, for: key)
            return stored
        }
        for source in found.sources where FileStamp.of(source.path) != source.stamp {
            remove(key)
            return nil
        }
        return found
    }

    /// Keeps `entry` under `key`, dropping the least recently used entries to stay within
    /// `maxBytes` (an output larger than that is not kept).
    func store(_ entry: Entry, for key: String) {
        keepInMemory(entry, for: key)
        disk?.store(entry, for: key)
    }

    /// What keeping `entry` under `key` costs in memory: its output, its key and the names
    /// and stamps of its sources, and a little for the entry itself. A flood of tiny renders
    /// with long keys (`only=0,1,2,…`) is counted at what it holds, not at its few bytes of PNG.
    static func cost(of entry: Entry, key: String) -> Int {
        let sources = entry.sources.reduce(0) { $0 + $1.path.utf8.count + 64 }
        return entry.byteCount + key.utf8.count + entry.etag.utf8.count + entry.revision.utf8.count + sources + 256
    }

    private func keepInMemory(_ entry: Entry, for key: String) {
        let cost = Self.cost(of: entry, key: key)
        guard cost <= maxBytes else { return }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= Self.cost(of: old.entry, key: key) }
            state.clock += 1
            state.entries[key] = (entry, state.clock)
            state.bytes += cost
            while state.bytes > maxBytes || state.entries.count > Self.maxEntries,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.bytes -= Self.cost(of: oldest.value.entry, key: oldest.key)
                state.entries[oldest.key] = nil
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= Self.cost(of: old.entry, key: key) }
        }
    }

    /// Entries and bytes held now.
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }
}
