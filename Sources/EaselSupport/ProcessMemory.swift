import CEaselSystem
import Foundation

/// This process's memory: its use, from /proc/self/status, and how malloc keeps it.
package enum ProcessMemory {
    /// The peak resident set size ("high water mark") in bytes, or nil where /proc is absent.
    package static var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    /// Keeps blocks of up to 32 MiB in malloc's heaps, and what is freed there, instead of
    /// mapping each block anew and unmapping it when freed: the next blocks then reuse pages
    /// already touched instead of faulting in fresh ones. For a process that ends soon after
    /// (a single export: its parsed text, freed once decoded, becomes its scene), as memory
    /// goes back to the system only at its end.
    package static func keepLargeBlocksInHeap() {
        easel_keep_large_blocks_in_heap()
    }
}
