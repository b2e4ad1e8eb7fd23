import EaselBatch
import EaselSupport
import Foundation

/// The render cache's second tier, in Easel's state folder (`…/easel/render-cache`): it
/// survives restarts, and replicas sharing the state folder share it. One file per entry,
/// named by a hash of its key: a line of JSON (the key, the ETag, the revision, the source
/// stamps, the output's length and checksum), then the output's bytes. An entry is used only
/// when its key matches exactly, every stamp still does and the bytes are whole and
/// unchanged; written atomically; the oldest files (by last use) go first when the folder
/// passes its byte limit. A damaged or foreign file is a miss, never an error.
final class DiskRenderCache: Sendable {
    let folder: URL
    let maxBytes: Int

    private struct Header: Codable {
        var key: String
        var etag: String
        var revision: String
        var sources: [Source]
        /// The output's length and FNV-1a hash: a file cut short or changed on disk is a miss.
        var byteCount: Int
        var checksum: UInt64
        struct Source: Codable {
            var path: String
            var stamp: FileStamp?
        }
    }

    init(folder: URL, maxBytes: Int) {
        self.folder = folder
        self.maxBytes = maxBytes
    }

    private func file(for key: String) -> URL {
        folder.appendingPathComponent(String(FNV1a.hash(key), radix: 16) + ".render")
    }

    func entry(for key: String) -> RenderCache.Entry? {
        let url = file(for: key)
        guard let bytes = try? FileIO.readBytes(at: url.path, maxBytes: 256 << 20),
            let newline = bytes.firstIndex(of: 0x0A),
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<newline])), header.key == key,
            bytes.count - newline - 1 == header.byteCount,
            header.sources.allSatisfy({ FileStamp.of($0.path) == $0.stamp })
        else { return nil }
        let output = Array(bytes[(newline + 1)...])
        guard FNV1a.hash(output) == header.checksum else { return nil }
        // Last use is the modification time: eviction keeps what is used.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return RenderCache.Entry(
            bytes: output, etag: header.etag, revision: header.revision,
            sources: header.sources.map { ($0.path, $0.stamp) })
    }

    func store(_ entry: RenderCache.Entry, for key: String) {
        guard entry.byteCount < maxBytes else { return }
        let bytes = entry.bytes
        let header = Header(
            key: key, etag: entry.etag, revision: entry.revision,
            sources: entry.sources.map { Header.Source(path: $0.path, stamp: $0.stamp) }, byteCount: bytes.count,
            checksum: FNV1a.hash(bytes))
        guard let json = try? JSONEncoder().encode(header) else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.writeDeferringSync(Array(json) + [0x0A] + bytes, to: file(for: key).path)
        } catch {
            return  // a cache that cannot be written is only slower
        }
        evict()
    }

    /// The block a file's size is rounded up to when the folder is measured.
    static let blockBytes = 4096

    /// Removes the least recently used files until the folder is within `maxBytes`.
    private func evict() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys) else {
            return
        }
        var entries = files.filter { $0.pathExtension == "render" }.compactMap { url -> (URL, Int, Date)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
            // The disk a file takes, whole blocks: a flood of tiny renders costs what it fills.
            let size = ((values.fileSize ?? 0) + Self.blockBytes - 1) / Self.blockBytes * Self.blockBytes
            return (url, size, values.contentModificationDate ?? .distantPast)
        }
        var total = entries.reduce(0) { $0 + $1.1 }
        entries.sort { $0.2 < $1.2 }
        for (url, size, _) in entries where total > maxBytes {
            try? FileManager.default.removeItem(at: url)
            total -= size
        }
    }
}
