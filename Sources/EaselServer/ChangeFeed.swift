import EaselCairo
import EaselDocuments
import EaselSupport
import Foundation

/// Watches the served folder (inotify, every folder below it, and with `--watch-poll` a
/// look at every file now and then, for network file systems whose other writers inotify
/// does not see) and tells every subscriber which documents changed, whoever changed them:
/// an edit over HTTP, an `easel` command, any program, another replica. Each subscriber's
/// backlog is bounded: a client that stops reading loses old events, not the server's memory.
///
/// Every event has an id that replicas agree on: the changed file's status-change time
/// (nanoseconds, as the file system keeps it) and its path. A client that reconnects, to
/// this replica or another, names the last id it saw (`Last-Event-ID`) and is sent the
/// events after it that this server still holds (the last `replayLimit`), or, when it
/// missed more than that or more than this server has seen, told to look again (`resync`).
final class ChangeFeed: Sendable {
    /// One change: a document saved, created or removed, or another file (an image) changed.
    struct Event: Encodable, Sendable {
        /// The path relative to the served folder.
        var path: String
        /// "changed", "removed", or "resource" for a file that is not a document.
        var kind: String
        /// The document's revision after the change.
        var revision: String?
        /// When the change happened: the file's status-change time in nanoseconds (the time it
        /// was seen gone, for a removal). Not sent in the event's data: it is its id's.
        var time: Int64 = 0

        /// The SSE id: `TIME-PATHHASH`, the same on every replica for the same write.
        var id: String { "\(time)-\(String(FNV1a.hash(path), radix: 16))" }

        private enum CodingKeys: String, CodingKey { case path, kind, revision }
    }

    /// What a reconnecting client is sent first.
    enum Replay {
        /// The events after the one it saw last, oldest first.
        case events([Event])
        /// It missed more than this server holds: it should load what it shows again.
        case resync
    }

    /// The most events kept for clients that reconnect.
    static let replayLimit = 1024

    private let folder: ServedFolder
    private let registry: DocumentRegistry
    private let maxSubscribers: Int
    private let subscribers = Locked([UUID: AsyncStream<Event?>.Continuation]())
    private let running = Locked(true)
    /// The last events, oldest first, and the time from which the list is whole (the start,
    /// then the oldest event dropped): a client that saw something older missed some.
    private let history = Locked((events: [Event](), wholeSince: Int64(Date().timeIntervalSince1970 * 1e9)))
    /// How often to look at every file too (nil: inotify alone).
    private let pollSeconds: Double?
    /// Why watching failed, when it did (readiness reports it).
    let failure = Locked<String?>(nil)

    init(folder: ServedFolder, registry: DocumentRegistry, maxSubscribers: Int, pollSeconds: Double? = nil) {
        self.folder = folder
        self.registry = registry
        self.maxSubscribers = maxSubscribers
        self.pollSeconds = pollSeconds
    }

    /// Starts the watching thread.
    func start() {
        let watcher: OwnedByThread<FolderWatcher>
        do {
            watcher = OwnedByThread(try FolderWatcher(roots: [(folder.realPath, true)]) { _ in false })
        } catch {
            failure.withLock { $0 = "\(error)" }
            return
        }
        // The folder as it was named, and what it was when the watch began: a folder replaced
        // (moved aside and made again, or a link to it pointed elsewhere, as atomic deploys
        // do) is no longer the one watched, so readiness fails until it is back.
        let named = folder.url.path
        let watched = Self.identity(of: named)
        let poller = pollSeconds.map { _ in OwnedByThread(FolderPoller(root: folder.realPath)) }
        let thread = Thread { [self] in
            var lastBeat = Date(), lastLook = Date(), lastPoll = Date()
            while running.withLock({ $0 }) {
                if Date().timeIntervalSince(lastLook) > 1 {
                    lastLook = Date()
                    let replaced = Self.identity(of: named) != watched
                    failure.withLock {
                        $0 =
                            replaced
                            ? "the served folder was replaced or moved since the server started watching it; restart the server to serve the folder now there"
                            : nil
                    }
                }
                var changed = watcher.value.changes(timeout: 0.2)
                if let poller, let pollSeconds, Date().timeIntervalSince(lastPoll) >= pollSeconds {
                    lastPoll = Date()
                    changed += poller.value.changes()
                }
                var seen = Set<String>()
                for path in changed {
                    guard let event = event(for: path), seen.insert(event.path).inserted else { continue }
                    broadcast(event)
                }
                // A comment line now and then: a client that went away is noticed (when the
                // write fails) and its stream's place freed, within seconds.
                if Date().timeIntervalSince(lastBeat) > 5 {
                    lastBeat = Date()
                    broadcast(nil)
                }
            }
            withExtendedLifetime(watcher) {}
        }
        thread.name = "easel-serve-watch"
        thread.start()
    }

    /// The device and inode of what `path` names now (links followed); nil when nothing.
    static func identity(of path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// Stops watching and ends every subscriber's stream (graceful shutdown).
    func stop() {
        running.withLock { $0 = false }
        let all = subscribers.withLock { subscribers -> [AsyncStream<Event?>.Continuation] in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }

    /// What a client that saw `lastEventID` last missed, from what this server holds.
    func replay(after lastEventID: String) -> Replay {
        let parts = lastEventID.split(separator: "-")
        guard parts.count == 2, let time = Int64(parts[0]) else { return .resync }
        let (events, wholeSince) = history.withLock { ($0.events, $0.wholeSince) }
        guard time >= wholeSince else { return .resync }
        // After it: later, or as late and of another file (the same write seen twice is one).
        guard let seen = events.lastIndex(where: { $0.id == lastEventID }) else {
            return .events(events.filter { $0.time > time })
        }
        return .events(Array(events[(seen + 1)...]).filter { $0.time >= time })
    }

    /// A stream of events (nil: a heartbeat), from now until `unsubscribe` or `stop`; nil
    /// when `maxSubscribers` streams are already open.
    func subscribe() -> (id: UUID, events: AsyncStream<Event?>)? {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Event?>.makeStream(bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        guard running.withLock({ $0 }) else {
            continuation.finish()
            return (id, stream)
        }
        let admitted = subscribers.withLock { subscribers -> Bool in
            guard subscribers.count < maxSubscribers else { return false }
            subscribers[id] = continuation
            return true
        }
        guard admitted else {
            continuation.finish()
            return nil
        }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        subscribers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }

    private func broadcast(_ event: Event?) {
        if let event {
            history.withLock { history in
                history.events.append(event)
                if history.events.count > Self.replayLimit {
                    history.wholeSince = history.events.removeFirst().time + 1
                }
            }
        }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// A file's status-change time in nanoseconds, or now when it is gone.
    static func changeTime(of path: String) -> Int64 {
        var status = stat()
        guard lstat(path, &status) == 0 else { return Int64(Date().timeIntervalSince1970 * 1e9) }
        return Int64(status.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_ctim.tv_nsec)
    }

    /// The event for a changed path: the document it is or belongs to (a package's
    /// content), or a resource.
    private func event(for path: String) -> Event? {
        guard path.hasPrefix(folder.realPath + "/") else { return nil }
        let relative = String(path.dropFirst(folder.realPath.count + 1))
        let components = relative.split(separator: "/").map(String.init)
        // The innermost enclosing path a registered type reads (a package folder, or the file).
        for count in stride(from: components.count, through: 1, by: -1) {
            let candidate = components.prefix(count).joined(separator: "/")
            let url = URL(fileURLWithPath: folder.realPath + "/" + candidate)
            guard let location = registry.location(of: url) else { continue }
            let time = Self.changeTime(of: location.contentFile.path)
            // Read only as the document routes reach it, through no link: a link named like a
            // document (to a file outside the folder) is no document of the folder's.
            let content = location.contentFile.path
            guard content.hasPrefix(folder.realPath + "/"),
                folder.plainPath(String(content.dropFirst(folder.realPath.count + 1)))?.type == S_IFREG,
                let bytes = try? FileIO.readBytes(at: content, maxBytes: 256 << 20)
            else {
                return Event(path: candidate, kind: "removed", revision: nil, time: time)
            }
            return Event(path: candidate, kind: "changed", revision: DocumentService.revision(of: bytes), time: time)
        }
        // A resource is an image a document may show (by its first bytes, not through a
        // link), or a file gone: the names of the folder's other files are not told.
        if let plain = folder.plainPath(relative) {
            guard plain.type == S_IFREG, ImageFormat.sniff(FileIO.head(of: plain.path, count: 12) ?? []) != nil else {
                return nil
            }
        } else if FileIO.entryExists(atPath: path) {
            return nil
        }
        return Event(path: relative, kind: "resource", revision: nil, time: Self.changeTime(of: path))
    }
}

/// A value handed to the one thread that uses it from then on.
private struct OwnedByThread<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
