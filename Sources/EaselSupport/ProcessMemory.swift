import Foundation

/// This process's memory use, from /proc/self/status.
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
}

extension ProcessMemory {
    /// The memory this process may use: its cgroup's limit (cgroup v2 `memory.max`, or v1's
    /// `memory.limit_in_bytes`) when one is set and lower than the machine's memory, else
    /// the machine's memory. Read once.
    package static let availableBytes: Int = {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        for file in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                let limit = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), limit > 0
            else { continue }
            return min(limit, physical)
        }
        return physical
    }()
}
