import Glibc

/// One event read from an inotify descriptor: the watch it came from, what happened (the
/// `IN_` flags), and the name of the file it concerns in the watched folder (empty when it
/// concerns the folder itself).
package struct InotifyEvent: Sendable {
    /// The watch descriptor `inotify_add_watch` returned for the folder.
    package var watch: Int32
    /// What happened: `IN_CREATE`, `IN_MOVED_TO`, `IN_IGNORED` and so on.
    package var mask: UInt32
    /// The file's name in the folder, or empty.
    package var name: String

    /// The events in `bytes`, as one `read` of an inotify descriptor returned them (whole
    /// records; a name running past the end is cut there).
    package static func events(in bytes: ArraySlice<UInt8>) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        let header = MemoryLayout<inotify_event>.size
        var offset = bytes.startIndex
        while offset + header <= bytes.endIndex {
            let record = bytes.withUnsafeBytes { raw in
                raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self)
            }
            let nameStart = offset + header
            let length = Int(record.len)
            let name = bytes[nameStart..<min(bytes.endIndex, nameStart + length)].prefix { $0 != 0 }
            events.append(InotifyEvent(watch: record.wd, mask: record.mask, name: String(decoding: name, as: UTF8.self)))
            offset = nameStart + length
        }
        return events
    }
}
