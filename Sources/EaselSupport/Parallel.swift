import CEaselSystem
import FoundationEssentials

/// Work shared among threads.
package enum Parallel {
    /// How many processors the process may keep busy: its affinity mask, at most its
    /// cgroup's CPU quota (as Foundation's `activeProcessorCount` counts them, without that
    /// call's 0.4 ms in a new process, which a single export paid before its document's
    /// reading could start).
    package static var availableProcessors: Int { Int(easel_available_processor_count()) }

    /// Calls `body` once for each index in `0..<count`, on up to `workers` threads that each
    /// take the next index until none is left (so uneven items balance out); returns when
    /// every call has returned. One worker runs them in order on the calling thread.
    package static func forEach(count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let workers = max(1, min(workers, count))
        guard workers > 1 else {
            for index in 0..<count { body(index) }
            return
        }
        let next = Locked(0)
        // Joined before returning: the body never outlives this call.
        withoutActuallyEscaping(body) { body in
            let work: @Sendable () -> Void = {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < count else { return }
                    body(index)
                }
            }
            // This thread is one of the workers; a thread that cannot start leaves its share
            // to the others.
            let threads = (1..<workers).compactMap { _ in StartedThread.start(work) }
            work()
            for thread in threads { thread.join() }
        }
    }

    /// Drops `object` (the caller's only reference, set to nil) on a thread of its own, so
    /// that its deinit — unmapping tens of megabytes of pixels — overlaps with what the
    /// caller does next, such as waiting for the disk.
    package static func releaseInBackground<Object: AnyObject>(_ object: inout Object?) {
        guard let value = object else { return }
        // The reference travels as an address: the other thread only releases it.
        let address = UInt(bitPattern: Unmanaged.passRetained(value).toOpaque())
        object = nil
        _ = consume value
        // A thread of its own: Dispatch's threads are shared with Swift's tasks.
        let release: @Sendable () -> Void = {
            Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        }
        guard let thread = StartedThread.start(release) else { return release() }
        thread.detach()
    }

    /// Drops `values` (the caller's only references to them) on a thread of its own, as
    /// `releaseInBackground(_:)` drops one object.
    package static func releaseInBackground<Value>(all values: inout [Value]) {
        guard !values.isEmpty else { return }
        var box: ReleasedValues<Value>? = ReleasedValues(values)
        values = []
        releaseInBackground(&box)
    }
}

/// A thread of Easel's own, started on another processor than the caller's when the
/// process has one (`easel_thread_start_elsewhere`): left to the kernel, a new thread was
/// measured to start on the caller's own busy processor in about 40 % of starts on this
/// two-core machine kind, and to wait there 3–4 ms, while the other processor stayed idle.
/// Joined or detached exactly once.
package struct StartedThread: Sendable {
    private let handle: pthread_t

    private init(handle: pthread_t) { self.handle = handle }

    /// The body a thread runs, handed to C as a retained pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread; nil when no thread could be started (the caller then
    /// does the work itself).
    package static func start(_ body: @escaping @Sendable () -> Void) -> StartedThread? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var handle = pthread_t()
        let status = easel_thread_start_elsewhere(
            &handle,
            { context in Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run() },
            context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return StartedThread(handle: handle)
    }

    /// Waits until the thread's body has returned.
    package func join() { pthread_join(handle, nil) }

    /// Lets the thread run on without anyone waiting for it.
    package func detach() { pthread_detach(handle) }
}

/// A value handed to other threads that only read it, or that the caller knows are never
/// used at once (one render's image loader, say): the compiler cannot see that it is safe.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// Values handed to another thread to be dropped there.
private final class ReleasedValues<Value> {
    let values: [Value]
    init(_ values: [Value]) { self.values = values }
}
