import CEaselSystem
import FoundationEssentials
import Glibc

/// Plain POSIX file reading with an upper bound, so a huge or endless file (a FIFO,
/// /dev/zero) cannot exhaust memory.
package enum FileIO {
    /// Reads at most `maxBytes` of the file at `path`. Unless `allowingStreams` (for paths a
    /// user names, such as a pipe from `<(…)`), only a regular file is read; a device
    /// (/dev/zero) never is. Either way the
    /// file is opened without blocking and checked with `fstat` after opening: a FIFO that no
    /// program writes to (planted in a folder, or named by mistake) is refused or reads as
    /// nothing instead of hanging Easel in `open` — holding a document's lock, it would hold
    /// up every editor of that document. A pipe with a writer (`<(…)`, a shell's pipe) is
    /// read as it comes.
    package static func readBytes(at path: String, maxBytes: Int, allowingStreams: Bool = false) throws(DocumentError) -> [UInt8]
    {
        let (fd, status) = try openForReading(path, allowingStreams: allowingStreams)
        defer { close(fd) }
        var bytes: [UInt8] = []
        if (status.st_mode & S_IFMT) == S_IFREG {
            // A regular file is read straight into an array of its size (one more byte shows
            // whether it grew meanwhile; then the rest is read as a stream's would be).
            let size = Int(status.st_size)
            guard size <= maxBytes else {
                throw DocumentError(file: path, kind: .limitExceeded("the file is larger than the limit of \(maxBytes) bytes"))
            }
            var failed = false
            bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
                count = 0
                while count < buffer.count {
                    let read = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
                    if read < 0 {
                        if errno == EINTR { continue }
                        failed = true
                        return
                    }
                    if read == 0 { return }
                    count += read
                }
            }
            if failed { throw DocumentError(file: path, kind: .io(describeErrno("cannot read the file"))) }
            if bytes.count <= size { return bytes }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DocumentError(file: path, kind: .io(describeErrno("cannot read the file")))
            }
            if count == 0 {
                // Opened without blocking, a FIFO no program has opened for writing ends at once.
                if bytes.isEmpty && (status.st_mode & S_IFMT) == S_IFIFO {
                    throw DocumentError(file: path, kind: .io("is a pipe that no program wrote to; nothing was read"))
                }
                return bytes
            }
            if bytes.count + count > maxBytes {
                throw DocumentError(file: path, kind: .limitExceeded("the file is larger than the limit of \(maxBytes) bytes"))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Opens `path` for reading and describes it: opened without blocking (a FIFO no program
    /// writes to cannot hang Easel), checked with `fstat` after opening, then set back to
    /// blocking reads. Unless `allowingStreams`, only a regular file is accepted; a folder is
    /// refused either way. The caller closes the descriptor.
    private static func openForReading(_ path: String, allowingStreams: Bool) throws(DocumentError) -> (Int32, stat) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw DocumentError(file: path, kind: .io(describeErrno("cannot open the file"))) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = DocumentError(file: path, kind: .io(describeErrno("cannot read the file")))
            close(fd)
            throw error
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw DocumentError(file: path, kind: .io("is a folder, not a file"))
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFCHR || type == S_IFBLK {
            // /dev/zero or a disk: endless or huge, and no picture or document.
            close(fd)
            throw DocumentError(file: path, kind: .io("is a device, not a file; it was not read"))
        }
        if !allowingStreams {
            guard type == S_IFREG else {
                close(fd)
                throw DocumentError(file: path, kind: .io("is not a regular file (a pipe, device or socket); it was not read"))
            }
        }
        // Reads block again: a pipe's writer may be slower than Easel.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, status)
    }

    /// Whether the regular file at `path` contains `needle`, read in pieces of at most 256 KiB
    /// through one buffer (no file-sized array: a folder's large documents cost a read each,
    /// not their size in fresh memory), no larger than the file (a card of a few kilobytes
    /// costs a few kilobytes: a 256 KiB buffer a document made a single export into the app's
    /// folder of 500 cards 9 ms slower). Throws as `readBytes` does: not a regular file, over
    /// `maxBytes`, unreadable.
    package static func fileContains(at path: String, _ needle: [UInt8], maxBytes: Int) throws(DocumentError) -> Bool {
        guard !needle.isEmpty else { return true }
        let (fd, status) = try openForReading(path, allowingStreams: false)
        defer { close(fd) }
        let overlap = needle.count - 1
        // One byte past the size, so that one read takes it all and the next sees the end
        // (a file that grows meanwhile is read on, piece by piece).
        let size = max(0, Int(status.st_size))  // a sparse file may claim up to Int64.max
        let piece = max(needle.count, size < 1 << 18 ? size + 1 : 1 << 18)
        var buffer = [UInt8](repeating: 0, count: overlap + piece)
        // The last `overlap` bytes of each piece are kept before the next, so a needle that
        // straddles two pieces is found.
        var kept = 0, total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + kept, piece) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DocumentError(file: path, kind: .io(describeErrno("cannot read the file")))
            }
            if count == 0 { return false }
            total += count
            guard total <= maxBytes else {
                throw DocumentError(file: path, kind: .limitExceeded("the file is larger than the limit of \(maxBytes) bytes"))
            }
            let available = kept + count
            // glibc's memmem (a two-way search, vectorised): a byte-by-byte scan for a name's
            // first letter stops at nearly every byte of a JSON document.
            let found = buffer.withUnsafeBytes { haystack in
                needle.withUnsafeBytes { easel_contains_bytes(haystack.baseAddress, available, $0.baseAddress, $0.count) != 0 }
            }
            if found { return true }
            kept = min(overlap, available)
            buffer.withUnsafeMutableBytes { _ = memmove($0.baseAddress!, $0.baseAddress! + available - kept, kept) }
        }
    }

    /// Whether anything is at `path` itself: a symbolic link counts even when what it leads
    /// to is missing (FileManager's `fileExists` follows it and says no, and a file written
    /// there would replace the user's link).
    /// Moves `from` to `to` in one step only if nothing is at `to` (a file or folder made
    /// beside it, put in place without ever replacing what another process made meanwhile),
    /// then makes the move durable. Returns false, moving nothing, when `to` exists.
    package static func moveIntoFreeName(_ from: String, to: String) throws(DocumentError) -> Bool {
        if easel_rename_noreplace(from, to) != 0 {
            if errno == EEXIST { return false }
            // File systems without the flag (NFS, SMB, 9p, many FUSE ones; a seccomp filter):
            // a file is linked in, which fails on a taken name just as atomically; a folder
            // (a drawing package) is checked, then renamed.
            guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(errno) else {
                throw DocumentError(file: to, kind: .io(describeErrno("cannot put the new file in place")))
            }
            var status = stat()
            if lstat(from, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                guard link(from, to) == 0 else {
                    if errno == EEXIST { return false }
                    throw DocumentError(file: to, kind: .io(describeErrno("cannot put the new file in place")))
                }
                unlink(from)
            } else {
                guard !entryExists(atPath: to) else { return false }
                guard rename(from, to) == 0 else {
                    throw DocumentError(file: to, kind: .io(describeErrno("cannot put the new folder in place")))
                }
            }
        }
        syncFolder(holding: to)
        return true
    }

    /// Makes a rename or a creation in the folder holding `path` durable (the folder's own
    /// `fsync`; a bare name's folder is the working one). Best effort: a folder that cannot
    /// be opened is left as the file system keeps it.
    package static func syncFolder(holding path: String) {
        let parent = PathNames.parent(of: path)
        let folder = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        close(folder)
    }

    package static func entryExists(atPath path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Creates the folder at `path` and any missing parents (like `mkdir -p`); the error
    /// names the folder and the system's reason (`Not a directory`, `Permission denied`).
    package static func createFolders(at path: String, permissions: mode_t = 0o755) throws(DocumentError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw DocumentError(file: path, kind: .io(String(cString: strerror(ENOTDIR))))
            }
            return
        }
        let parent = PathNames.parent(of: path)
        if !parent.isEmpty && parent != path { try createFolders(at: parent, permissions: permissions) }
        if mkdir(path, permissions) != 0 && errno != EEXIST {
            throw DocumentError(file: path, kind: .io(String(cString: strerror(errno))))
        }
    }

    package static func describeErrno(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }

    /// The first `count` bytes of the file at `path` (fewer if it is shorter), or nil when it
    /// cannot be opened or read. Opened without blocking: a FIFO gives what it has, or nothing.
    package static func head(of path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return filled > 0 ? Array(bytes[..<filled]) : nil }
            if read == 0 { break }
            filled += read
        }
        return Array(bytes[..<filled])
    }

    /// Whether `path` is a folder (or a link to one).
    package static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Why a file-system call of `FileManager` failed, in the system's words as Easel's own
    /// calls give them (`No such file or directory`), else the error as it describes itself.
    package static func reason(_ error: any Error) -> String {
        let code = (error as? CocoaError)?.underlying.flatMap { $0 as? POSIXError }?.code ?? (error as? POSIXError)?.code
        guard let code else { return "\(error)" }
        return String(cString: strerror(code.rawValue))
    }

    /// Makes every write so far durable at once (`sync(2)`; Swift's Glibc does not offer
    /// `syncfs`): what a batch does before saving its manifest, instead of a flush per output.
    package static func syncFileSystem(containing folder: String) {
        _ = folder
        sync()
    }
}
