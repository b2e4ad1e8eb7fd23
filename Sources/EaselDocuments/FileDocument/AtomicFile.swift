import Foundation

/// Atomic replacement of a file: the bytes go to a temporary file in the same folder,
/// which is flushed to disk and then renamed over the target. Readers see the old file or
/// the new one, never a mix; a failure at any step leaves the original byte-for-byte intact
/// and removes the temporary file.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(DocumentError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).easel-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else {
            throw DocumentError(file: path, kind: .io(FileIO.describeErrno("cannot create a temporary file in \(folder)")))
        }
        var failure: DocumentError?
        var written = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Foundation.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = DocumentError(file: path, kind: .io(FileIO.describeErrno("cannot write")))
                    return
                }
                written += count
            }
        }
        if failure == nil, fsync(fd) != 0 {
            failure = DocumentError(file: path, kind: .io(FileIO.describeErrno("cannot flush to disk")))
        }
        if close(fd) != 0, failure == nil {
            failure = DocumentError(file: path, kind: .io(FileIO.describeErrno("cannot close")))
        }
        if failure == nil, rename(temporary, path) != 0 {
            failure = DocumentError(file: path, kind: .io(FileIO.describeErrno("cannot replace the file")))
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // Make the rename itself durable.
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }
}
