import Foundation

/// Waits until `condition` holds, looking every 20 ms for at most `seconds`; true when it
/// held. A bounded wait on a state, never a fixed sleep, and it suspends rather than
/// blocks: the threads Swift concurrency runs tests on stay free meanwhile. The limit is
/// generous (a sanitizer build on a busy machine is slow) and costs nothing when the
/// condition comes true early.
public func eventually(within seconds: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}

/// Runs `action` on a thread of its own the moment `condition` holds (looking every 10 ms
/// for at most `seconds`), and returns whether it held. For what must happen at a moment, as
/// a signal sent while a process is still at work: a test's own task may wait long for one
/// of Swift concurrency's few threads, which other tests hold (on two cores, two), and
/// this thread is not one of them.
public func whenTrue(
    within seconds: Double = 30, _ condition: @escaping @Sendable () -> Bool, do action: @escaping @Sendable () -> Void = {}
) async -> Bool {
    await withCheckedContinuation { continuation in
        Thread {
            let deadline = Date().addingTimeInterval(seconds)
            var held = condition()
            while !held && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)  // the polling interval of a bounded wait
                held = condition()
            }
            if held { action() }
            continuation.resume(returning: held)
        }.start()
    }
}

extension Process {
    /// Waits for the process to end, on a thread of its own (a blocking wait must not hold
    /// one of the few threads Swift concurrency has), and returns its exit status.
    @discardableResult
    public func exited() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                self.waitUntilExit()
                continuation.resume(returning: self.terminationStatus)
            }.start()
        }
    }

    /// Waits up to `seconds` for the process to end by itself; if it has not, kills it
    /// (SIGKILL) then and there, and waits for that. All on a thread of its own, so that the
    /// moment of the kill does not wait for one of Swift concurrency's threads. True when it
    /// ended by itself.
    public func exited(within seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                let deadline = Date().addingTimeInterval(seconds)
                while isRunning && Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.005)  // the polling interval of a bounded wait
                }
                let endedByItself = !isRunning
                if !endedByItself { kill(processIdentifier, SIGKILL) }
                waitUntilExit()
                continuation.resume(returning: endedByItself)
            }.start()
        }
    }
}

/// Returns once the file system's clock has moved past `url`'s modification time, so that
/// a file written now gets a later one (timestamps advance in ticks of a few milliseconds:
/// two writes within one tick look the same). Checks a probe file beside it, at most a
/// second; a bounded wait on the clock, never a fixed sleep.
public func waitForTheNextFileTime(after url: URL) throws {
    let probe = url.deletingLastPathComponent().appendingPathComponent(".easel-clock-probe-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: probe) }
    func modified(_ path: String) -> timespec? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mtim : nil
    }
    guard let reference = modified(url.path) else { return }
    let deadline = Date().addingTimeInterval(1)
    repeat {
        try Data().write(to: probe)
        if let now = modified(probe.path), (now.tv_sec, now.tv_nsec) > (reference.tv_sec, reference.tv_nsec) { return }
    } while Date() < deadline
}
