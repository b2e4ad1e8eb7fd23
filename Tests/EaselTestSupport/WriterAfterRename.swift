import Foundation
import Glibc

/// Another program that writes a file the moment it is renamed into place (inotify's
/// `IN_MOVED_TO` on its folder), as a sync tool or a second editor might, landing while the
/// program that renamed it is still at work: for checks that what Easel remembers of a save
/// is what it wrote, not the file read back.
public final class WriterAfterRename: Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts watching `folder`; at the first rename of a file called `name` into it, writes
    /// `bytes` over that file in place (as a plain program writes). Watches for at most ten
    /// seconds. Throws when inotify cannot watch the folder.
    public init(writing bytes: [UInt8], toFileNamed name: String, in folder: URL) throws {
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watch >= 0, inotify_add_watch(watch, folder.path, UInt32(IN_MOVED_TO)) >= 0 else {
            if watch >= 0 { close(watch) }
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
        let target = folder.appendingPathComponent(name)
        let done = done
        DispatchQueue.global().async {
            defer {
                close(watch)
                done.signal()
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            for _ in 0..<100 {
                var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 100) == 1 else { continue }
                let count = read(watch, &buffer, buffer.count)
                guard count > 0, Self.names(in: buffer[..<count]).contains(name) else { continue }
                try? Data(bytes).write(to: target)
                return
            }
        }
    }

    /// Waits (at most fifteen seconds) until the writer wrote or gave up; true when it ended.
    public func finished() -> Bool { done.wait(timeout: .now() + 15) == .success }

    /// The file names of the inotify events in `bytes`.
    private static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let length = bytes.withUnsafeBytes { raw in
                Int(raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self).len)
            }
            let name = bytes[(offset + header)..<min(bytes.endIndex, offset + header + length)].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset += header + length
        }
        return names
    }
}
