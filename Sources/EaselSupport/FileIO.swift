import Foundation

/// Plain POSIX file reading with an upper bound, so a huge or endless file (a FIFO,
/// /dev/zero) cannot exhaust memory.
package enum FileIO {
    /// Reads at most `maxBytes` of the file at `path`. Unless `allowingStreams` (for paths a
    /// user names, such as a pipe from `<(…)`), only a regular file is read: the file is
    /// opened without blocking (a FIFO planted in a folder cannot hang Easel) and checked
    /// with `fstat` after opening.
    package static func readBytes(at path: String, maxBytes: Int, allowingStreams: Bool = false) throws(DocumentError) -> [UInt8]
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (allowingStreams ? 0 : O_NONBLOCK))
        guard fd >= 0 else { throw DocumentError(file: path, kind: .io(describeErrno("cannot open the file"))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw DocumentError(file: path, kind: .io(describeErrno("cannot read the file"))) }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw DocumentError(file: path, kind: .io("is a folder, not a file"))
        }
        if !allowingStreams {
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                throw DocumentError(file: path, kind: .io("is not a regular file (a pipe, device or socket); it was not read"))
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DocumentError(file: path, kind: .io(describeErrno("cannot read the file")))
            }
            if count == 0 { return bytes }
            if bytes.count + count > maxBytes {
                throw DocumentError(file: path, kind: .limitExceeded("the file is larger than the limit of \(maxBytes) bytes"))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    package static func describeErrno(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }
}
