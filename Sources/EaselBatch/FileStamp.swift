import EaselGeometry
import Foundation

/// What identifies a file's version cheaply: size, modification time (nanoseconds) and
/// inode. Any write, `touch`, or replacement by rename changes it.
public struct FileStamp: Codable, Hashable, Sendable {
    /// The file's size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modified: Int64
    /// The file's inode number, which changes when the file is replaced by a rename.
    public var inode: UInt64

    /// A stamp from known values (`of(_:)` reads them from a file).
    public init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// The stamp of the file at `path` (following a final symbolic link), or nil when it
    /// does not exist.
    public static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(
            size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            inode: UInt64(status.st_ino))
    }
}
