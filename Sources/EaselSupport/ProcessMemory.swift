import FoundationEssentials
import Glibc

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
    /// the machine's memory. Read once, with plain reads (Foundation's string reading and
    /// trimming cost half a millisecond in a new process, on the way to a single export's
    /// first decoded photo).
    package static let availableBytes: Int = {
        let (pages, pageSize) = (sysconf(Int32(_SC_PHYS_PAGES)), sysconf(Int32(_SC_PAGESIZE)))
        let product = max(0, pages).multipliedReportingOverflow(by: max(0, pageSize))
        let physical = product.overflow ? Int.max : product.partialValue
        for file in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            guard let bytes = try? FileIO.readBytes(at: file, maxBytes: 64),
                let limit = Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), limit > 0
            else { continue }
            return min(limit, physical)
        }
        return physical
    }()
}
