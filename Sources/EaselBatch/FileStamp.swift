import EaselGeometry
import FoundationEssentials
import Glibc

/// What identifies a file's version cheaply: size, modification time (nanoseconds) and
/// inode. Any write, `touch`, or replacement by rename changes it.
public struct FileStamp: Codable, Hashable, Sendable {
    /// The file's size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modified: Int64
    /// The file's inode number, which changes when the file is replaced by a rename.
    public var inode: UInt64
    /// The status-change time (ctime), in nanoseconds since 1970: set by the kernel on every
    /// write, and unlike the modification time never set back by a program (`touch -d`,
    /// `cp -p`, `rsync -t`, a same-size rewrite that restores the old mtime). 0 when unknown
    /// (a stamp recorded before it was kept), which matches no file, so the next check
    /// takes the file for changed, once.
    public var changed: Int64

    /// A stamp from known values (`of(_:)` reads them from a file).
    public init(size: Int64, modified: Int64, inode: UInt64, changed: Int64 = 0) {
        self.size = size
        self.modified = modified
        self.inode = inode
        self.changed = changed
    }

    private enum Key: String, CodingKey { case size, modified, inode, changed }

    /// Reads a stamp; one written before `changed` was kept reads it as 0 (unknown).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            size: try container.decode(Int64.self, forKey: .size), modified: try container.decode(Int64.self, forKey: .modified),
            inode: try container.decode(UInt64.self, forKey: .inode),
            changed: try container.decodeIfPresent(Int64.self, forKey: .changed) ?? 0)
    }

    /// The stamp of the file at `path` (following a final symbolic link), or nil when it
    /// does not exist.
    public static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(
            size: Int64(status.st_size),
            // Wrapping arithmetic: a stamp is compared, never read as a time, and a file may claim any date.
            modified: Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec),
            inode: UInt64(status.st_ino),
            changed: Int64(status.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_ctim.tv_nsec))
    }
}
