import EaselGeometry
import FoundationEssentials
import Glibc
import EaselDocuments

/// What a batch export made, and from what, kept in the output folder so that the next run
/// renders only what changed. A document is up to date when its file, every image it
/// uses, the render options and Easel's renderer version are as recorded, and its outputs
/// still exist. Checking this costs a few `stat` calls per document, no reading.
public struct ExportManifest: Codable, Sendable {
    /// Bumped whenever a rendering change alters output pixels, so old outputs are redone
    /// (3: strips of 256 rows, where a photo drawn scaled can differ by a level or two).
    public static let rendererVersion = "easel-renderer-3"
    /// The manifest format version this Easel reads and writes; another version is ignored.
    public static let currentVersion = 1

    /// An image a document used, and the version of its file when the output was made.
    public struct ImageStamp: Codable, Hashable, Sendable {
        /// The image's name as the document gives it.
        public var name: String
        /// nil: missing or refused when the output was made.
        public var stamp: FileStamp?

        /// A record for the image `name`; pass nil when it was missing or refused.
        public init(name: String, stamp: FileStamp?) {
            self.name = name
            self.stamp = stamp
        }
    }

    /// What one document's outputs were made from.
    public struct Entry: Codable, Hashable, Sendable {
        /// The `rendererVersion` that made the outputs.
        public var rendererVersion: String
        /// The output settings' key (see `OutputSettings.key`) the outputs were made with.
        public var optionsKey: String
        /// The version of the document's content file, stamped before rendering.
        public var document: FileStamp
        /// Every image the document used, with its version then.
        public var images: [ImageStamp]
        /// Output files, relative to the output folder (the main output).
        public var outputs: [String]
        /// Each output's own stamp once written (the thumbnail's too), so an output changed
        /// or replaced since is made again; nil in manifests from before outputs were stamped.
        public var outputStamps: [String: FileStamp]?
        /// The thumbnail written with the output, relative to the output folder, if any.
        public var thumbnail: String?
        /// The key of the settings the thumbnail was made with.
        public var thumbnailKey: String?
        /// When the outputs were made (nanoseconds since 1970): of two records of a document
        /// from different runs, the newer counts. nil in manifests from before it was kept.
        public var madeAt: Int64?

        /// A record of outputs made from these inputs.
        public init(
            rendererVersion: String, optionsKey: String, document: FileStamp, images: [ImageStamp], outputs: [String],
            outputStamps: [String: FileStamp]? = nil, thumbnail: String? = nil, thumbnailKey: String? = nil,
            madeAt: Int64? = nil
        ) {
            self.rendererVersion = rendererVersion
            self.optionsKey = optionsKey
            self.document = document
            self.images = images
            self.outputs = outputs
            self.outputStamps = outputStamps
            self.thumbnail = thumbnail
            self.thumbnailKey = thumbnailKey
            self.madeAt = madeAt
        }

        /// Every file the entry says was written: the outputs and the thumbnail.
        public var writtenFiles: [String] { outputs + (thumbnail.map { [$0] } ?? []) }
    }

    /// The format version the manifest was written in.
    public var version = ExportManifest.currentVersion
    /// What each document's outputs were made from, by the document's key (its relative path).
    public var entries: [String: Entry] = [:]

    /// An empty manifest, with which every document counts as out of date.
    public init() {}

    /// Keeps `entry` for `key` unless the record there is newer (made later).
    public mutating func keepNewer(_ entry: Entry, for key: String) {
        if let known = entries[key], (known.madeAt ?? 0) > (entry.madeAt ?? 0) { return }
        entries[key] = entry
    }

    /// The journal beside a manifest of earlier Easel versions (`NAME.journal`), read and folded.
    static func journalURL(for manifest: URL) -> URL { manifest.appendingPathExtension("journal") }

    /// The records of the journal at `url`, oldest first (a torn last line, from a run
    /// killed mid-write, is left out; a missing journal has none).
    public static func journalRecords(at url: URL) -> [JournalRecord] {
        guard let journal = try? FileIO.readBytes(at: url.path, maxBytes: 1 << 30) else { return [] }
        let decoder = JSONDecoder()
        return journal.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(JournalRecord.self, from: Data($0)) }
    }

    /// One line of the journal: a document finished since the manifest was last written.
    public struct JournalRecord: Codable, Sendable {
        /// The document's key in `entries`.
        public var key: String
        /// What its outputs were made from.
        public var entry: Entry

        /// A journal line recording `entry` for the document `key`.
        public init(key: String, entry: Entry) {
            self.key = key
            self.entry = entry
        }
    }

    /// Loads the manifest, or an empty one (with the reason) when it is missing or unreadable.
    public static func load(from url: URL) -> (manifest: ExportManifest, problem: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (ExportManifest(), nil) }
        do {
            let data = Data(try FileIO.readBytes(at: url.path, maxBytes: 1 << 30))
            let manifest = try JSONDecoder().decode(ExportManifest.self, from: data)
            guard manifest.version == currentVersion else {
                return (ExportManifest(), "the manifest \(url.path) is of another version; everything is rendered again")
            }
            return (manifest, nil)
        } catch {
            return (ExportManifest(), "the manifest \(url.path) is unreadable (\(error)); everything is rendered again")
        }
    }

    /// Writes the manifest atomically and removes the journal it now contains.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(self)), to: url.path)
        try? FileManager.default.removeItem(at: Self.journalURL(for: url))
    }
}

/// Appends journal records with one `write` each (O_APPEND), so records never interleave
/// and a kill leaves at most one torn line at the end.
final class ManifestJournal: @unchecked Sendable {
    private let fd: Int32
    private let encoder = JSONEncoder()
    private let lock = Locked()

    init?(at url: URL) {
        // The output folder is the user's: a link or a FIFO planted at the journal's name
        // must not make Easel write elsewhere or block, so the journal is opened without
        // following links or blocking, and used only if it is a regular file.
        fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        if fd < 0 { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    func append(key: String, entry: ExportManifest.Entry) {
        guard var line = try? encoder.encode(ExportManifest.JournalRecord(key: key, entry: entry)) else { return }
        line.append(UInt8(ascii: "\n"))
        lock.withLock { _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
    }
}

extension ExportManifest {
    /// The up-to-date rule: true when `entry` still describes the document at `location`
    /// rendered with `optionsKey` into `outputFolder` — its content file, every image it
    /// used (resolved in its resource folder), the options and the renderer version are as
    /// recorded, and its outputs exist. A few `stat` calls, no reading.
    public static func isUpToDate(
        _ entry: Entry, location: DocumentLocation, optionsKey: String, output: String, outputFolder: URL
    ) -> Bool {
        // The output this run would write is the one recorded: a name that changed since (a
        // new document now shares the old name, so both keep their extensions) is made anew.
        guard entry.outputs == [output], entry.rendererVersion == rendererVersion, entry.optionsKey == optionsKey,
            FileStamp.of(location.contentFile.path) == entry.document
        else { return false }
        let folder = location.resourceFolder
        for image in entry.images {
            let current: FileStamp?
            switch FolderFileResolver.resolve(image.name, inFolder: folder) {
            case .file(let url): current = FileStamp.of(url.path)
            case .missing, .refused: current = nil
            }
            if current != image.stamp { return false }
        }
        // Each output is still the very file written: not gone, not replaced, not edited.
        guard let stamps = entry.outputStamps else { return false }
        return entry.outputs.allSatisfy { output in
            stamps[output] != nil && FileStamp.of(outputFolder.appendingPathComponent(output).path) == stamps[output]
        }
    }

    /// True when `entry` records the thumbnail `path`, made with `key`, and it is still the
    /// very file written (the document and images are checked by `isUpToDate`).
    public static func thumbnailIsUpToDate(_ entry: Entry, path: String, key: String, outputFolder: URL) -> Bool {
        guard entry.thumbnail == path, entry.thumbnailKey == key, let stamp = entry.outputStamps?[path] else { return false }
        return FileStamp.of(outputFolder.appendingPathComponent(path).path) == stamp
    }
}
