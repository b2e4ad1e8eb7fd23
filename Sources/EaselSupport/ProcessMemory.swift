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
