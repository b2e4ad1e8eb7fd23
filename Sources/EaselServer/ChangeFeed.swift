import EaselDocuments
import EaselSupport
import Foundation

/// Watches the served folder (inotify, every folder below it) and tells every subscriber
/// which documents changed, whoever changed them: an edit over HTTP, an `easel` command, or
/// any program writing the folder. Each subscriber's backlog is bounded: a client that
/// stops reading loses old events, not the server's memory.
final class ChangeFeed: Sendable {
    /// One change: a document saved, created or removed, or another file (an image) changed.
    struct Event: Encodable, Sendable {
        /// The path relative to the served folder.
        var path: String
        /// "changed", "removed", or "resource" for a file that is not a document.
        var kind: String
        /// The document's revision after the change.
        var revision: String?
    }

    private let folder: ServedFolder
    private let registry: DocumentRegistry
    private let maxSubscribers: Int
    private let subscribers = Locked([UUID: AsyncStream<Event?>.Continuation]())
    private let running = Locked(true)
    /// Why watching failed, when it did (readiness reports it).
    let failure = Locked<String?>(nil)

    init(folder: ServedFolder, registry: DocumentRegistry, maxSubscribers: Int) {
        self.folder = folder
        self.registry = registry
        self.maxSubscribers = maxSubscribers
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
        let thread = Thread { [self] in
            var lastBeat = Date(), lastLook = Date()
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
                let changed = watcher.value.changes(timeout: 0.2)
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
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
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
            guard let bytes = try? FileIO.readBytes(at: location.contentFile.path, maxBytes: 256 << 20) else {
                return Event(path: candidate, kind: "removed", revision: nil)
            }
            return Event(path: candidate, kind: "changed", revision: DocumentService.revision(of: bytes))
        }
        return Event(path: relative, kind: "resource", revision: nil)
    }
}

/// A value handed to the one thread that uses it from then on.
private struct OwnedByThread<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
