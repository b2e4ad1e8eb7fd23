import CEaselSystem
import FoundationEssentials
import Glibc

/// Atomic replacement of a file: the bytes go to a temporary file in the same folder,
/// which is flushed to disk and then renamed over the target. Readers see the old file or
/// the new one, never a mix; a failure at any step leaves the original byte-for-byte intact
/// and removes the temporary file.
///
/// In two phases when several files must change together (a document and its undo
/// history): `prepare` writes and flushes every temporary file — where a full disk or a
/// read-only folder fails, before anything visible changed — and `commit` only renames.
package enum AtomicFile {
    /// The steps of a save, named so that tests can make one of them fail.
    package enum Step: Sendable { case create, write, flush, rename }

    /// Writes `bytes` to `path` atomically.
    package static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(DocumentError) {
        try write(bytes, to: path, permissions: permissions, failingAt: nil)
    }

    /// Writes `bytes` to `path` atomically (a reader sees the old file or the new one, and a
    /// killed process leaves no half-written file) without waiting for the disk: the caller
    /// makes many such writes durable at once with `FileIO.syncFileSystem` (a batch's
    /// outputs, whose manifest records their stamps and is saved only after the sync).
    package static func writeDeferringSync(_ bytes: [UInt8], to path: String) throws(DocumentError) {
        let prepared = try prepare(bytes, to: path, permissions: 0o644, failingAt: nil, durable: false)
        try prepared.commit(failingAt: nil)
    }

    /// `failingAt` simulates an I/O error at that step (tests only), exercising the same
    /// clean-up as a real failure.
    package static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644, failingAt injected: Step?)
        throws(DocumentError)
    {
        let prepared = try prepare(bytes, to: path, permissions: permissions, failingAt: injected)
        try prepared.commit(failingAt: injected)
    }

    /// Writes and flushes `bytes` to a temporary file beside `path`; nothing at `path`
    /// changes until the result is committed.
    package static func prepare(
        _ bytes: [UInt8], to path: String, permissions: mode_t = 0o644, failingAt injected: Step? = nil, durable: Bool = true
    ) throws(DocumentError) -> PreparedFile {
        let stream = try AtomicFileStream(to: path, permissions: permissions, failingAt: injected)
        bytes.withUnsafeBytes { stream.append($0) }
        return try stream.finish(durable: durable)
    }
}

/// A file written piece by piece under a temporary name beside its target (an export's
/// PNG chunks as they are deflated), then flushed and renamed over the target as
/// `AtomicFile` does: until then the target is untouched, and a failure removes the
/// temporary file. Appends may come from any thread, one at a time; the first failure is
/// kept and reported by `finish`.
package final class AtomicFileStream: @unchecked Sendable {
    /// The file being replaced.
    package let target: String
    private let temporary: String
    private let injected: AtomicFile.Step?
    private let writebackEvery: Int?
    private let lock = Locked(State())

    private struct State {
        var fd: Int32 = -1
        var written = 0
        /// Where the bytes not yet handed to the disk start.
        var writebackFrom = 0
        var failure: DocumentError?
    }

    /// Creates the temporary file (never following a link planted at its name); it takes
    /// the permissions of the file it replaces, or `permissions` when there is none. With
    /// `writebackEvery`, the disk starts writing each time that many bytes have been
    /// appended, so the flush at the end has less left to wait for.
    package init(
        to path: String, permissions: mode_t = 0o644, writebackEvery: Int? = nil, failingAt injected: AtomicFile.Step? = nil
    ) throws(DocumentError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        // The temporary name never contains the document's: the Cards app loads every file
        // whose name contains ".rwcard", and a save killed mid-way may leave this file behind.
        let temporary = folder + "/.easel-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        // A replaced file keeps its permissions.
        var existing = stat()
        let mode = lstat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG ? existing.st_mode & 0o7777 : permissions
        // Registered before it exists: a signal handled on another thread between the open
        // and a registration after it would leave the file behind (seen under load in CI).
        PendingTemporaryFiles.add(temporary)
        // O_EXCL with O_CREAT never follows a symbolic link planted at the temporary name.
        let fd = injected == .create ? -1 : open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        if injected == .create { errno = EIO }
        guard fd >= 0 else {
            let reason = FileIO.describeErrno("cannot create a temporary file in \(folder)")
            PendingTemporaryFiles.forget(temporary)  // not ours: never unlinked
            throw DocumentError(file: path, kind: .io(reason))
        }
        self.target = path
        self.temporary = temporary
        self.injected = injected
        self.writebackEvery = writebackEvery
        lock.withLock { $0.fd = fd }
    }

    deinit {
        // Never finished (an error on the way): the temporary file goes.
        lock.withLock { state in
            if state.fd >= 0 {
                close(state.fd)
                PendingTemporaryFiles.remove(temporary)
            }
        }
    }

    /// How many bytes have been appended so far.
    package var bytesWritten: Int { lock.withLock { $0.written } }

    /// Writes `bytes` at the end of the file. After a failure, appends do nothing.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock { state in
            guard state.failure == nil, state.fd >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                // A simulated full disk takes half the bytes, then fails.
                let simulatedFull = injected == .write && state.written > 0
                let chunk = injected == .write ? max(1, (bytes.count - offset) / 2) : bytes.count - offset
                let count = simulatedFull ? -1 : Glibc.write(state.fd, bytes.baseAddress! + offset, chunk)
                if simulatedFull { errno = ENOSPC }
                if count < 0 {
                    if errno == EINTR { continue }
                    state.failure = DocumentError(file: target, kind: .io(FileIO.describeErrno("cannot write")))
                    return
                }
                offset += count
                state.written += count
            }
            if let writebackEvery, state.written - state.writebackFrom >= writebackEvery {
                // Only a start: an error shows again at the flush, which is checked.
                _ = easel_start_writeback(state.fd, Int64(state.writebackFrom), Int64(state.written - state.writebackFrom))
                state.writebackFrom = state.written
            }
        }
    }

    /// Flushes the file (unless not `durable`: a batch flushes its outputs at once later)
    /// and closes it, ready to replace the target; throws the first failure of the way,
    /// removing the temporary file.
    package func finish(durable: Bool = true) throws(DocumentError) -> PreparedFile {
        let outcome: DocumentError? = lock.withLock { state in
            var failure = state.failure
            if failure == nil, injected == .flush || (durable && fsync(state.fd) != 0) {
                if injected == .flush { errno = EIO }
                failure = DocumentError(file: target, kind: .io(FileIO.describeErrno("cannot flush to disk")))
            }
            if close(state.fd) != 0, failure == nil {
                failure = DocumentError(file: target, kind: .io(FileIO.describeErrno("cannot close")))
            }
            state.fd = -1
            if failure != nil { PendingTemporaryFiles.remove(temporary) }
            return failure
        }
        if let outcome { throw outcome }
        return PreparedFile(temporary: temporary, target: target, durable: durable)
    }

    /// Flushes, closes and renames the file over the target (the whole of an atomic write).
    package func commit(durable: Bool = true) throws(DocumentError) {
        try finish(durable: durable).commit(failingAt: injected)
    }
}

/// A file written and flushed under a temporary name, waiting to replace its target.
/// Every prepared file must be committed (renamed) or discarded (removed).
package struct PreparedFile: Sendable {
    /// The temporary file holding the new bytes.
    package let temporary: String
    /// The file it replaces.
    package let target: String
    /// Whether committing waits for the rename to reach the disk.
    package var durable = true

    /// Renames the temporary file over the target, then makes the rename durable.
    package func commit(failingAt injected: AtomicFile.Step? = nil) throws(DocumentError) {
        if injected == .rename || rename(temporary, target) != 0 {
            if injected == .rename { errno = EXDEV }
            let failure = DocumentError(file: target, kind: .io(FileIO.describeErrno("cannot replace the file")))
            PendingTemporaryFiles.remove(temporary)
            throw failure
        }
        PendingTemporaryFiles.forget(temporary)
        if durable { FileIO.syncFolder(holding: target) }
    }

    /// Removes the temporary file; the target stays as it was.
    package func discard() {
        PendingTemporaryFiles.remove(temporary)
    }
}
