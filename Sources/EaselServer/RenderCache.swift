import EaselBatch
import EaselSupport
import Foundation

/// Rendered outputs kept in memory, least recently used out first, within a byte limit.
/// An entry remembers the stamps (size, modification time, inode) of the document and of
/// every image it drew, and is used only while all of them still match: a document edited
/// by anyone, or an image replaced, is rendered again, with no need to read or parse
/// anything to find that out.
final class RenderCache: Sendable {
    struct Entry: Sendable {
        var bytes: [UInt8]
        var etag: String
        var revision: String
        /// The files the output was made from, and their stamps then (nil: missing then).
        var sources: [(path: String, stamp: FileStamp?)]
    }

    /// The most bytes of output kept in memory.
    let maxBytes: Int
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

    private func keepInMemory(_ entry: Entry, for key: String) {
        guard entry.bytes.count <= maxBytes else { return }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= old.entry.bytes.count }
            state.clock += 1
            state.entries[key] = (entry, state.clock)
            state.bytes += entry.bytes.count
            while state.bytes > maxBytes, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.bytes -= oldest.value.entry.bytes.count
                state.entries[oldest.key] = nil
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.entry.bytes.count }
        }
    }

    /// Entries and bytes held now.
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }
}
