import Foundation

/// Plain POSIX file reading with an upper bound, so a huge or endless file (a FIFO,
/// /dev/zero) cannot exhaust memory.
package enum FileIO {
    package static func readBytes(at path: String, maxBytes: Int) throws(DocumentError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentError(file: path, kind: .io(describeErrno("cannot open the file"))) }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw DocumentError(file: path, kind: .io("is a folder, not a file"))
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
