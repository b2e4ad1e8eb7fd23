import Foundation
import Glibc

/// Watches folders with inotify for files written, created, moved or deleted (what an
/// editor saving a document or an image does), for `easel export --watch`. Folders made
/// inside a watched folder are watched too. Hidden files (Easel's own temporary files, an
/// editor's swap files) and paths `ignoring` says are Easel's outputs are not changes.
/// `easel serve` uses it for its change events.
package final class FolderWatcher {
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private var recursiveWatches: Set<Int32> = []
    private let ignoring: (String) -> Bool

    /// Watches `roots`, each with every folder below it when its `recursive` is set; throws
    /// when inotify cannot be used.
    package init(roots: [(path: String, recursive: Bool)], ignoring: @escaping (String) -> Bool) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw WatchError("inotify is not available: \(String(cString: strerror(errno)))") }
        self.ignoring = ignoring
        for root in roots { try watch(root.path, recursive: root.recursive) }
    }

    /// How many folders are watched.
    package var folderCount: Int { folders.count }

    deinit { close(descriptor) }

    package struct WatchError: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    private static let mask: UInt32 =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE) | UInt32(IN_DELETE)

    private func watch(_ folder: String, recursive: Bool) throws {
        let wd = inotify_add_watch(descriptor, folder, Self.mask)
        guard wd >= 0 else { throw WatchError("\(folder): cannot be watched: \(String(cString: strerror(errno)))") }
        folders[wd] = folder
        guard recursive else { return }
        recursiveWatches.insert(wd)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = folder + "/" + name
            var status = stat()
            if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, !ignoring(path) {
                try? watch(path, recursive: true)
            }
        }
    }

    /// Waits up to `timeout` seconds and returns the paths that changed (empty when none).
    package func changes(timeout: Double) -> [String] {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var changed: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset = nameStart + length
                guard let folder = folders[wd], !name.isEmpty, !name.hasPrefix(".") else { continue }
                let path = folder + "/" + name
                if recursiveWatches.contains(wd) && mask & UInt32(IN_ISDIR) != 0
                    && mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 && !ignoring(path)
                {
                    try? watch(path, recursive: true)
                }
                if !ignoring(path) { changed.append(path) }
            }
        }
        return changed
    }
}
