import EaselSupport
import FoundationEssentials
import Glibc

/// What an output folder records of the runs that wrote it, whatever their shard counts:
/// one manifest (`.easel-manifest.json`) keyed by document, and a journal a shard
/// (`.easel-journal-K-of-N.jsonl`; an unsharded run is 1 of 1) appends a line to as each
/// document finishes. Every run reads the manifest and every journal, the newest record of
/// a document winning, so 8 shards, then 16, then one process render nothing twice. A
/// journal is folded into the manifest, under the folder's lock, only when no live run holds
/// its shard's lease (`ShardLease`): never under a run still appending to it.
public enum OutputFolderState {
    /// The manifest's file name in the output folder.
    public static let manifestName = ".easel-manifest.json"
    /// Taken while journals are folded into the manifest, so two runs never write it at once.
    static let lockName = ".easel-manifest.lock"
    /// Manifests and journals of Easel versions before shard-independent state, read and folded.
    static let legacyPrefix = ".easel-manifest-"

    /// The journal of `shard` (1 of 1 for an unsharded run).
    public static func journalName(for shard: Shard?) -> String {
        ".easel-journal-\(identity(of: shard)).jsonl"
    }

    /// The lease of `shard` (1 of 1 for an unsharded run).
    public static func leaseName(for shard: Shard?) -> String { ".easel-lease-\(identity(of: shard))" }

    static func identity(of shard: Shard?) -> String { "\(shard?.index ?? 1)-of-\(shard?.count ?? 1)" }

    /// The shard identity (`3-of-8`) a journal or legacy manifest's name stands for.
    static func identity(inName name: String) -> String? {
        for (prefix, suffixes) in [(".easel-journal-", [".jsonl"]), (legacyPrefix, [".json", ".json.journal"])] {
            guard name.hasPrefix(prefix), let suffix = suffixes.first(where: name.hasSuffix) else { continue }
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            let parts = middle.split(separator: "-")
            if parts.count == 3, parts[1] == "of", Int(parts[0]) != nil, Int(parts[2]) != nil { return String(middle) }
        }
        return nil
    }

    /// The files of `folder` holding records: the manifest, its old journal, every shard's
    /// journal and legacy per-shard manifests, with the shard identity of each (nil for the
    /// manifest and its journal).
    static func recordFiles(in folder: URL) -> [(url: URL, identity: String?)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var files: [(URL, String?)] = [(folder.appendingPathComponent(manifestName), nil)]
        files.append((folder.appendingPathComponent(manifestName + ".journal"), nil))
        for name in names.sorted() {
            if let identity = identity(inName: name) { files.append((folder.appendingPathComponent(name), identity)) }
        }
        return files
    }

    /// Everything the folder records: the manifest with every journal and legacy file read
    /// over it, the newest record of each document winning (a torn last line, from a run
    /// killed mid-write, is ignored; an unreadable manifest counts as empty, with the reason).
    public static func load(_ folder: URL) -> (manifest: ExportManifest, problem: String?) {
        var merged = ExportManifest()
        var problem: String?
        for (url, _) in recordFiles(in: folder) {
            if url.lastPathComponent.hasSuffix(".json") {
                let (manifest, trouble) = ExportManifest.load(from: url)
                problem = problem ?? trouble
                for (key, entry) in manifest.entries { merged.keepNewer(entry, for: key) }
            } else {
                for record in ExportManifest.journalRecords(at: url) { merged.keepNewer(record.entry, for: record.key) }
            }
        }
        return (merged, problem)
    }

    /// Folds into the manifest the journals no live run appends to (the lease of their
    /// shard is free, or is `own`), and removes them; waits at most `timeout` seconds for
    /// the folder's lock (another run folding), and leaves everything for later past it.
    public static func consolidate(_ folder: URL, own: ShardLease?, timeout: TimeInterval = 30) throws {
        guard let lock = try FileLock(at: folder.appendingPathComponent(lockName), wait: timeout) else { return }
        defer { withExtendedLifetime(lock) {} }
        let files = recordFiles(in: folder)
        var folded: [URL] = []
        for (url, identity) in files {
            guard let identity, FileManager.default.fileExists(atPath: url.path) else { continue }
            if identity == own?.identity {
                folded.append(url)
            } else if let other = try? FileLock(at: folder.appendingPathComponent(".easel-lease-\(identity)"), wait: 0) {
                // No live run holds that shard's lease: its journal is finished.
                withExtendedLifetime(other) { folded.append(url) }
            }
        }
        let foldable = Set(folded.map(\.path))
        var manifest = ExportManifest()
        for (url, identity) in files where identity == nil || foldable.contains(url.path) {
            if url.lastPathComponent.hasSuffix(".json") {
                for (key, entry) in ExportManifest.load(from: url).manifest.entries { manifest.keepNewer(entry, for: key) }
            } else {
                for record in ExportManifest.journalRecords(at: url) { manifest.keepNewer(record.entry, for: record.key) }
            }
        }
        try manifest.save(to: folder.appendingPathComponent(manifestName))  // removes the manifest's own journal
        for url in folded { try? FileManager.default.removeItem(at: url) }
    }
}

/// A shard's lease on an output folder: an `flock`ed file (`.easel-lease-K-of-N`) held while
/// a run of that shard writes, released by the kernel when the process ends however it
/// ends. A second run of the same shard waits for it or is refused, saying who holds it.
public final class ShardLease: @unchecked Sendable {
    /// `K-of-N`, as the lease's and the journal's names have it.
    public let identity: String
    private let lock: FileLock

    /// Takes the lease of `shard` on `folder`, waiting at most `wait` seconds; throws,
    /// naming the holder, when another run holds it past that.
    public init(folder: URL, shard: Shard?, wait: TimeInterval) throws(BatchError) {
        identity = OutputFolderState.identity(of: shard)
        let url = folder.appendingPathComponent(OutputFolderState.leaseName(for: shard))
        let taken: FileLock?
        do {
            taken = try FileLock(at: url, wait: wait)
        } catch {
            throw BatchError(message: "cannot take the lease \(url.path): \(error)")
        }
        guard let taken else {
            let holder = (try? String(contentsOf: url, encoding: .utf8))?.trimmingWhitespaceAndNewlines
            throw BatchError(
                message:
                    "shard \(identity.replacing("-of-", with: "/")) of \(folder.path) is being exported by another run (\(holder?.isEmpty == false ? holder! : "its holder is unknown")); wait for it, or give --lease-wait SECONDS"
            )
        }
        lock = taken
        lock.describeHolder(
            "pid \(getpid()) on \(ProcessInfo.processInfo.hostName) since \(Date().formatted(.iso8601))")
    }
}

/// An exclusive `flock` on a file of the user's folder, opened without following links or
/// blocking on a planted pipe, and only if it is a regular file; released when the value
/// goes (or the process ends).
final class FileLock: @unchecked Sendable {
    private let fd: Int32

    /// Takes the lock, trying every 50 ms for at most `wait` seconds; nil when another holds it.
    init?(at url: URL, wait: TimeInterval) throws {
        fd = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BatchError(message: "cannot open \(url.path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw BatchError(message: "\(url.path) is not a regular file")
        }
        let deadline = Date().addingTimeInterval(max(0, min(wait, 86_400)))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                return nil
            }
            usleep(50_000)
        }
    }

    deinit { close(fd) }

    /// Writes who holds the lock into its file, for the message another run shows.
    func describeHolder(_ text: String) {
        _ = ftruncate(fd, 0)
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
}
