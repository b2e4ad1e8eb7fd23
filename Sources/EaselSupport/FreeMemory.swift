import CEaselSystem

/// The memory malloc keeps after it was freed. glibc returns little of it to the system by
/// itself (what lies between blocks still in use, in any of its per-thread arenas, stays),
/// so a server that once rendered a few large photos would hold their memory for good.
package enum FreeMemory {
    /// The bytes free in malloc's arenas when memory was last given back.
    private static let freeWhenLastReturned = Locked(0)

    /// Gives free memory back to the system when more than `threshold` bytes have come to
    /// be free since it was last given back (memory given back still counts as free);
    /// true when some was. It walks malloc's arenas, so call it when idle, not after every
    /// piece of work: memory given back costs page faults when it is used again.
    @discardableResult
    package static func returnToSystem(whenOver threshold: Int) -> Bool {
        let free = easel_free_memory_bytes()
        let due = freeWhenLastReturned.withLock { last in
            // Freed memory used again since: what is free now is the new mark.
            if free < last { last = free }
            guard free - last > threshold else { return false }
            last = free
            return true
        }
        if due { easel_return_free_memory() }
        return due
    }
}
