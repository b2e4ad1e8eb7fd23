import EaselSupport
import Glibc
import HummingbirdCore
import NIOCore

/// Bounds the connections `easel serve` holds open (Hummingbird's `availableConnectionsDelegate`):
/// at the cap it stops accepting, and asks the connection idle the longest to close, so that
/// the next client (a health probe, a person) gets in however many idle connections a flood
/// opened; as nginx reuses keep-alive connections under pressure. A connection in the
/// middle of a request is never chosen; when every one is busy, new clients wait in the
/// listen backlog until a request ends.
///
/// The cap is reached by accepting the connection that fills it, and room is made at once
/// (the server cannot see whether anyone is waiting in the backlog without accepting them):
/// at the cap, one place is kept free for the next client.
struct ConnectionCap: AvailableConnectionsDelegate {
    /// The open connections and the cap.
    let registry: ConnectionRegistry

    mutating func connectionOpened() { registry.accepted() }

    mutating func connectionClosed() { registry.released() }

    func isAcceptingNewConnections() -> Bool { registry.admitsAnother() }

    /// File descriptors kept for the server's own use beside its connections: standard
    /// streams, the event loops' epoll, event and timer descriptors (three per core), the
    /// listening socket, the folder watch (one inotify descriptor for every watch), the log,
    /// and the files the file pool (4 threads) and the render workers open at once
    /// (documents, locks, histories, images, the disk cache). At rest on two cores the
    /// server holds about 20; 64 leaves room for the work.
    static let reservedDescriptors = 64

    /// The cap for `configured` connections: at most the process's file descriptor limit
    /// (its soft limit raised to its hard limit first, as far as the system allows) less
    /// `reservedDescriptors`, so that accepting never fails for want of a descriptor (which
    /// would leave every client, the health probe too, waiting in the backlog).
    static func effectiveLimit(configured: Int) -> Int {
        let soft = raiseDescriptorLimit()
        return max(1, min(configured, soft - reservedDescriptors))
    }

    /// Raises the soft limit on open files to the hard limit and returns the soft limit now.
    @discardableResult
    static func raiseDescriptorLimit() -> Int {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return Int.max }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(resource, &raised) == 0 { limits = raised }
        }
        // No limit (RLIM_INFINITY, all bits set) clamps to Int.max.
        return Int(clamping: limits.rlim_cur)
    }
}

/// The connections open now, and for each whether a request is in progress on it (its
/// handler is running: reading the body, waiting for a render, streaming events) and since
/// when it has been idle, so that `ConnectionCap` can close the one idle the longest.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        /// Requests whose handler is running (one, or none, on HTTP/1.1).
        var requests = 0
        /// When it last became idle (an order, not a time).
        var idleSince: UInt64
        /// Asked to close already: not chosen again.
        var closing = false
    }

    private struct State {
        /// Connections accepted and not yet closed (counted as they are accepted, before
        /// they are registered here with their channel).
        var open = 0
        var entries: [ObjectIdentifier: Entry] = [:]
        var clock: UInt64 = 0
        /// The cap wanted a connection closed when none was idle: the next to become idle
        /// (or to be registered) goes, if the server is still at the cap by then.
        var roomWanted = false
    }

    /// Connections open at once.
    let limit: Int
    private let state = Locked(State())

    /// A registry for a cap of `limit` connections (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// Connections registered now.
    var count: Int { state.withLock { $0.entries.count } }

    /// The server accepted a connection (called on the listening socket's event loop).
    func accepted() { state.withLock { $0.open += 1 } }

    /// An accepted connection closed.
    func released() { state.withLock { $0.open -= 1 } }

    /// Whether the server may accept another connection: yes below the cap; at it, no, and
    /// the connection idle the longest is asked to close (or, with none idle, the next to
    /// become idle), whose closing lets the server accept again.
    func admitsAnother() -> Bool {
        let (admits, chosen) = state.withLock { state -> (Bool, (any Channel)?) in
            guard state.open >= limit else { return (true, nil) }
            return (false, Self.chooseIdlest(&state))
        }
        Self.askToClose(chosen)
        return admits
    }

    /// A connection was accepted and set up; it is forgotten when it closes.
    func opened(_ channel: any Channel) {
        let chosen = state.withLock { state -> (any Channel)? in
            state.clock += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: state.clock)
            return Self.roomStillWanted(&state, limit: limit) ? Self.chooseIdlest(&state) : nil
        }
        channel.closeFuture.whenComplete { _ in self.state.withLock { $0.entries[ObjectIdentifier(channel)] = nil } }
        Self.askToClose(chosen)
    }

    /// A request's handler starts on `channel`: it is not idle until the handler ends.
    func requestStarted(on channel: any Channel) {
        state.withLock { state in state.entries[ObjectIdentifier(channel)]?.requests += 1 }
    }

    /// A request's handler has ended (its response written) on `channel`.
    func requestEnded(on channel: any Channel) {
        let chosen = state.withLock { state -> (any Channel)? in
            state.clock += 1
            guard var entry = state.entries[ObjectIdentifier(channel)] else { return nil }
            entry.requests -= 1
            if entry.requests == 0 { entry.idleSince = state.clock }
            state.entries[ObjectIdentifier(channel)] = entry
            return Self.roomStillWanted(&state, limit: limit) ? Self.chooseIdlest(&state) : nil
        }
        Self.askToClose(chosen)
    }

    /// Whether a close the cap wanted is still owed (the server is at the cap yet).
    private static func roomStillWanted(_ state: inout State, limit: Int) -> Bool {
        if state.roomWanted && state.open < limit { state.roomWanted = false }
        return state.roomWanted
    }

    /// The connection idle the longest, marked as closing; none (and room wanted) when every
    /// connection is busy or closing already.
    private static func chooseIdlest(_ state: inout State) -> (any Channel)? {
        var oldest: (key: ObjectIdentifier, since: UInt64)?
        for (key, entry) in state.entries where entry.requests == 0 && !entry.closing {
            if oldest.map({ entry.idleSince < $0.since }) ?? true { oldest = (key, entry.idleSince) }
        }
        guard let oldest, let entry = state.entries[oldest.key] else {
            state.roomWanted = true
            return nil
        }
        state.entries[oldest.key]?.closing = true
        state.roomWanted = false
        return entry.channel
    }

    /// Not closed outright: Hummingbird's connection handler closes it on its event loop
    /// now if no request has arrived on it meanwhile, or else once that request's response
    /// is written, so no request is cut short.
    private static func askToClose(_ channel: (any Channel)?) {
        channel?.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }
}
