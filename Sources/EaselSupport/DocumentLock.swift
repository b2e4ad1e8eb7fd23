import Foundation

/// An advisory lock on a document, so that two easel processes never edit it at once:
/// an exclusive `flock` on a hidden lock file beside it (`.NAME.easel-lock`; the document
/// itself cannot carry the lock, because saving replaces its file). Held from opening to
/// saving; released when the value is released or the process ends, however it ends.
package final class DocumentLock {
    private let fd: Int32
    package let url: URL

    package static func lockURL(for document: URL) -> URL {
        document.deletingLastPathComponent().appendingPathComponent(".\(document.lastPathComponent).easel-lock")
    }

    /// Takes the lock, waiting up to `timeout` seconds for another holder to finish.
    package init(for document: URL, timeout: Double = 5) throws(DocumentError) {
        url = Self.lockURL(for: document)
        fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw DocumentError(
                file: document.path, kind: .io(FileIO.describeErrno("cannot create the lock file \(url.lastPathComponent)")))
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw DocumentError(
                    file: document.path,
                    kind: .io(
                        "another easel is editing this document (it holds \(url.lastPathComponent)); try again when it has finished"
                    ))
            }
            usleep(20_000)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
