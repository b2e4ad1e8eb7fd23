import Foundation

/// An advisory lock on a document, so that two easel processes never edit it at once: an
/// exclusive `flock` on a lock file in Easel's state folder (the document itself cannot
/// carry the lock, because saving replaces its file, and nothing is left beside it). Held
/// from opening to saving; released when the value is released or the process ends,
/// however it ends.
package final class DocumentLock {
    private let fd: Int32
    /// The lock file.
    package let url: URL

    /// Takes the lock at `lockFile` for `document`, waiting up to `timeout` seconds for
    /// another holder to finish. The lock file is opened without following links.
    package init(at lockFile: URL, for document: URL, timeout: Double = 5) throws(DocumentError) {
        url = lockFile
        fd = open(lockFile.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DocumentError(
                file: document.path, kind: .io(FileIO.describeErrno("cannot create the lock file \(lockFile.path)")))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw DocumentError(file: document.path, kind: .io("the lock file \(lockFile.path) is not a regular file; remove it"))
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw DocumentError(
                    file: document.path,
                    kind: .io("another easel is editing this document; try again when it has finished"))
            }
            usleep(20_000)
        }
    }

    /// Takes the lock only if it is free now; nil when another process holds it.
    package static func tryLocking(_ lockFile: URL, for document: URL) -> DocumentLock? {
        try? DocumentLock(at: lockFile, for: document, timeout: 0)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
