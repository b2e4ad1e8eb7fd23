import FoundationEssentials
import Glibc

/// Writing to standard output and standard error with POSIX `write`, so that a stream that
/// cannot take the bytes (a full disk, `>/dev/full`, a closed descriptor) is an error Easel
/// reports, not a crash: Foundation's `FileHandle.write(_: Data)` traps on any failure.
/// A reader that went away (a closed pipe) still ends the process by SIGPIPE, as for any
/// Unix tool.
package enum StandardStreams {
    /// Opens /dev/null, read-only, on any of descriptors 0, 1 and 2 that is closed (`easel
    /// info >&-`). Otherwise the next file Easel opens would take that number, and what it
    /// prints would go into that file: an export's output or a document. Read-only, so
    /// that printing to a closed stream still fails and says so.
    package static func reserveClosedDescriptors() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// Writes all of `bytes` to standard output; on failure, says so on standard error and
    /// exits with status 1 (the output is incomplete, and nothing further can be shown).
    package static func writeOutput(_ bytes: some Collection<UInt8>) {
        if let failure = write(bytes, to: STDOUT_FILENO) {
            writeError(Array("easel: error: cannot write to standard output: \(String(cString: strerror(failure)))\n".utf8))
            exit(1)
        }
    }

    /// Writes `bytes` to standard error; a failure there has nowhere to be reported and is
    /// ignored.
    package static func writeError(_ bytes: some Collection<UInt8>) {
        _ = write(bytes, to: STDERR_FILENO)
    }

    /// Writes all of `bytes` to `fd`; the `errno` of a failure, nil on success.
    private static func write(_ bytes: some Collection<UInt8>, to fd: Int32) -> Int32? {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let count = array.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return nil
    }
}
