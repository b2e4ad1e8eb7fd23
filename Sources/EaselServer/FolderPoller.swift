import Foundation

/// Finds what changed in a folder by looking at every file (its size, times and inode), for
/// file systems whose other writers inotify does not see (NFS written from other machines):
/// each call says which paths are new, gone or different since the last. Hidden names
/// (Easel's locks, an editor's temporary files) are left out, and so is anything past
/// `maxEntries`, so one look stays bounded.
final class FolderPoller {
    private let root: String
    private var known: [String: [Int64]] = [:]
    /// The most files and folders one look visits.
    static let maxEntries = 200_000

    init(root: String) {
        self.root = root
        known = look()
    }

    /// The paths (absolute) that appeared, went or changed since the last call.
    func changes() -> [String] {
        let now = look()
        var changed: [String] = []
        for (path, stamp) in now where known[path] != stamp { changed.append(path) }
        for path in known.keys where now[path] == nil { changed.append(path) }
        known = now
        return changed.sorted()
    }

    private func look() -> [String: [Int64]] {
        var stamps: [String: [Int64]] = [:]
        var folders = [root]
        while let folder = folders.popLast(), stamps.count < Self.maxEntries {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = folder + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    folders.append(path)
                    continue
                }
                stamps[path] = [
                    Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec),
                    Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec), Int64(bitPattern: UInt64(status.st_ino)),
                ]
            }
        }
        return stamps
    }
}
