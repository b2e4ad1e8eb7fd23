import CEaselSystem
import FoundationEssentials
import Glibc

/// An advisory lock on a document, so that no two editors — easel processes, `easel serve`
/// replicas on other machines sharing the folder, threads of one server — ever edit it at
/// once: the revision a client's `If-Match` names is compared, and the edit written, under
/// it. Held from opening to saving; released when the value is released or the process ends,
/// however it ends.
///
/// It lives beside the document, where every editor of the folder sees it (a state folder
/// may not be shared between replicas): one byte of the folder's hidden `.easel.lock` file,
/// at an offset taken from the document's name, locked with an open-file-description lock
/// (`F_OFD_SETLK`), which NFS honours across clients. The document itself cannot carry the
/// lock, because saving replaces its file (and a package is a folder). One empty file per
/// folder is all that is left beside the documents; its name contains no `.rwcard`, so the
/// Cards app, which loads every file whose name does, never reads it.
package final class DocumentLock {
    private let fd: Int32
    /// The lock file.
    package let url: URL

    /// The name of the lock file in a documents' folder.
    package static let fileName = ".easel.lock"

    /// Takes the lock of the document at `document`, waiting up to `timeout` seconds for
    /// another editor to finish with it.
    package init(beside document: URL, timeout: Double = 5) throws(DocumentError) {
        let folder = document.deletingLastPathComponent()
        let lockFile = folder.appendingPathComponent(Self.fileName)
        let offset = Self.byte(of: document)
        let permissions = Self.permissions(forFolder: folder.path)
        fd = try Self.locked(lockFile, for: document, permissions: permissions, timeout: timeout) {
            easel_lock_byte($0, offset) == 0
        }
        url = lockFile
    }

    /// The byte of the lock file that stands for `document`. Offsets below 2^40: each
    /// document its own byte; two names that share one only wait for each other.
    private static func byte(of document: URL) -> Int64 {
        Int64(FNV1a.hash(document.lastPathComponent) % (1 << 40))
    }

    /// Waits, up to `timeout` seconds, while an editor holds the lock of the document at
    /// `document`, and says whether none holds it now: a reader reads the document and its
    /// history as one version once no editor is between its renames (see
    /// `DocumentEditor`). Takes no lock itself, so readers never keep an editor waiting,
    /// and creates nothing. True at once when there is no lock file (no editor takes the
    /// lock without making it); false when it cannot be read, or at the timeout while an
    /// editor holds it longer (an interactive `easel edit` holds it for its whole session).
    @discardableResult
    package static func waitWhileHeld(beside document: URL, timeout: Double) -> Bool {
        let lockFile = document.deletingLastPathComponent().appendingPathComponent(Self.fileName)
        let fd = Glibc.open(lockFile.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        let offset = Self.byte(of: document)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(max(0, min(timeout, 3600)) * 1000)))
        while true {
            let held = easel_lock_byte_is_held(fd, offset)
            if held == 0 { return true }
            if held < 0 || clock.now >= deadline { return false }
            usleep(5_000)
        }
    }

    /// The shared lock file's permissions in `folder`: read and write for its owner, and
    /// for the folder's group or everyone only when the folder lets them write (and so edit
    /// its documents, and need their locks). No one else may open it at all: anyone who can
    /// open it can hold a lock on it, and so keep every editor out of the folder.
    private static func permissions(forFolder folder: String) -> mode_t {
        var status = stat()
        guard stat(folder, &status) == 0 else { return 0o600 }
        return 0o600 | (status.st_mode & S_IWGRP != 0 ? 0o060 : 0) | (status.st_mode & S_IWOTH != 0 ? 0o006 : 0)
    }

    /// Takes an exclusive `flock` on `lockFile` for `document` (the sidecar lock of earlier
    /// Easel versions), waiting up to `timeout` seconds. The file is opened without
    /// following links.
    package init(at lockFile: URL, for document: URL, timeout: Double = 5) throws(DocumentError) {
        fd = try Self.locked(lockFile, for: document, permissions: 0o600, timeout: timeout) { flock($0, LOCK_EX | LOCK_NB) == 0 }
        url = lockFile
    }

    /// Takes the sidecar lock only if it is free now; nil when another process holds it.
    package static func tryLocking(_ lockFile: URL, for document: URL) -> DocumentLock? {
        try? DocumentLock(at: lockFile, for: document, timeout: 0)
    }

    /// Opens `lockFile` (not following links; a regular file) and retries `take` on it every
    /// 20 ms until it succeeds or `timeout` seconds have passed. The descriptor is closed
    /// on every failure.
    private static func locked(
        _ lockFile: URL, for document: URL, permissions: mode_t, timeout: Double, take: (Int32) -> Bool
    ) throws(DocumentError) -> Int32 {
        let fd = Glibc.open(lockFile.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, permissions)
        guard fd >= 0 else {
            let reason = errno
            var message = FileIO.describeErrno("cannot open the lock file \(lockFile.path)")
            if reason == EACCES, FileIO.entryExists(atPath: lockFile.path) {
                message +=
                    " (it opens only for those who could write the folder when it was made: its owner can widen it with chmod, and an edit by its owner does)"
            }
            throw DocumentError(file: document.path, kind: .io(message))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw DocumentError(file: document.path, kind: .io("the lock file \(lockFile.path) is not a regular file; remove it"))
        }
        // Exactly `permissions` whatever the umask (another user who may edit the folder's
        // documents must be able to take their locks too), and mended in a file of ours that
        // has others (an earlier Easel made the shared one open to every local user).
        if status.st_uid == geteuid(), status.st_mode & 0o7777 != permissions { fchmod(fd, permissions) }
        let deadline = Date().addingTimeInterval(timeout)
        while !take(fd) {
            let reason = errno
            let busy = reason == EWOULDBLOCK || reason == EAGAIN || reason == EACCES
            guard busy || reason == EINTR, Date() < deadline else {
                close(fd)
                throw DocumentError(
                    file: document.path,
                    kind: .io(
                        busy
                            ? "another easel is editing this document; try again when it has finished"
                            : "cannot lock \(lockFile.path): \(String(cString: strerror(reason)))"))
            }
            usleep(20_000)
        }
        return fd
    }

    deinit {
        close(fd)  // releases either kind of lock
    }
}
