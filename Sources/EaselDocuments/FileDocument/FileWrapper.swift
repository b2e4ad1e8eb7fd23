import EaselGeometry
import EaselSupport
import FoundationEssentials
import Glibc

/// A file's contents as a value, in the spirit of Foundation's `FileWrapper` (which Linux
/// lacks): a regular file's bytes, or a directory of named children.
public enum FileWrapper: Hashable, Sendable {
    case regularFile([UInt8])
    case directory([String: FileWrapper])

    /// The bytes of a regular file, or nil for a directory.
    public var regularFileContents: [UInt8]? {
        if case .regularFile(let bytes) = self { return bytes }
        return nil
    }

    /// The bytes of `contentFile`, the content of the document at `url` that this wrapper
    /// holds: the wrapper itself when it is that file, or a file directly inside the package;
    /// nil when it holds no such file.
    package func content(at contentFile: URL, of url: URL) -> [UInt8]? {
        switch self {
        case .regularFile(let bytes): return contentFile.path == url.path ? bytes : nil
        case .directory(let children):
            guard contentFile.deletingLastPathComponent().path == url.path else { return nil }
            return children[contentFile.lastPathComponent]?.regularFileContents
        }
    }

    /// This wrapper with `contentFile` (as in `content(at:of:)`) holding `bytes`; unchanged
    /// when it holds no such file.
    package func replacingContent(at contentFile: URL, of url: URL, with bytes: [UInt8]) -> FileWrapper {
        switch self {
        case .regularFile: return contentFile.path == url.path ? .regularFile(bytes) : self
        case .directory(var children):
            guard contentFile.deletingLastPathComponent().path == url.path else { return self }
            children[contentFile.lastPathComponent] = .regularFile(bytes)
            return .directory(children)
        }
    }

    /// The size in bytes of the largest regular file in the wrapper (itself, or any child).
    public var largestRegularFileSize: Int {
        switch self {
        case .regularFile(let bytes): return bytes.count
        case .directory(let children): return children.values.map(\.largestRegularFileSize).max() ?? 0
        }
    }

    /// Reads a regular file (refusing one over `maxBytes` before reading it) or a directory tree.
    public init(contentsOf url: URL, maxBytes: Int = 64 << 20) throws(DocumentError) {
        try self.init(contentsOf: url, maxBytes: maxBytes, onlyReading: nil)
    }

    /// Reads a regular file as `init(contentsOf:maxBytes:)` does; of a directory, only the
    /// files directly inside it that `only` lists (a folder among them is read as empty).
    /// A package is opened for its content file alone: its images are read when drawn, and a
    /// package holding gigabytes of other files, or a pipe, opens as a small one does.
    package init(contentsOf url: URL, maxBytes: Int, onlyReading only: Set<String>?) throws(DocumentError) {
        let path = url.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw DocumentError(file: path, kind: .io(String(cString: strerror(errno))))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw DocumentError(file: path, kind: .io("cannot list the folder: \(FileIO.reason(error))"))
            }
            var children: [String: FileWrapper] = [:]
            for name in names.sorted() where only?.contains(name) ?? true {
                // A package's files are inside it: a symbolic link (which could lead
                // anywhere) is not part of the wrapper.
                var child = stat()
                guard lstat(url.appendingPathComponent(name).path, &child) == 0, (child.st_mode & S_IFMT) != S_IFLNK else {
                    continue
                }
                if only != nil, (child.st_mode & S_IFMT) == S_IFDIR {
                    children[name] = .directory([:])
                    continue
                }
                children[name] = try FileWrapper(contentsOf: url.appendingPathComponent(name), maxBytes: maxBytes)
            }
            self = .directory(children)
            return
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentError(file: path, kind: .io("not a regular file"))
        }
        if Int(status.st_size) > maxBytes {
            throw DocumentError(
                file: path, kind: .limitExceeded("the file is \(status.st_size) bytes, over the limit of \(maxBytes) bytes"))
        }
        self = .regularFile(try FileIO.readBytes(at: path, maxBytes: maxBytes))
    }

    /// The first half of `write(to:)`: every regular file written and flushed under a
    /// temporary name beside its target (folders are created), nothing replaced yet. Commit
    /// each prepared file, or discard them all.
    package func prepareWrite(to url: URL) throws(DocumentError) -> [PreparedFile] {
        switch self {
        case .regularFile(let bytes):
            return [try AtomicFile.prepare(bytes, to: url.path)]
        case .directory(let children):
            do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
                throw DocumentError(file: url.path, kind: .io("cannot create the folder: \(FileIO.reason(error))"))
            }
            var prepared: [PreparedFile] = []
            for (name, child) in children.sorted(by: { $0.key < $1.key }) {
                do {
                    prepared += try child.prepareWrite(to: url.appendingPathComponent(name))
                } catch {
                    for file in prepared { file.discard() }
                    throw error
                }
            }
            return prepared
        }
    }

    /// Writes the wrapper to `url` atomically (see `AtomicFile`); a directory is written
    /// child by child.
    public func write(to url: URL) throws(DocumentError) {
        let prepared = try prepareWrite(to: url)
        for (index, file) in prepared.enumerated() {
            do { try file.commit() } catch {
                for rest in prepared.dropFirst(index + 1) { rest.discard() }
                throw error
            }
        }
    }
}
