import EaselSupport
import Glibc

/// Memory for the first band buffers of a banded PNG export, whose pages a thread that
/// would otherwise wait has touched already.
///
/// A new process's first band on each core started with about 1.4 ms of page faults: 2.6 MB
/// of fresh memory for a 1300-pixel-wide band, each 4 KiB page zeroed by the kernel on first
/// touch. A single export's main thread waits about as long for its document, which is read
/// and decoded on another core while the command line is parsed (`easel`'s `EarlyOpen`);
/// touching the pages then takes those faults off the export's path.
///
/// The band's size is not known while the document is being read, so each region is
/// reserved (address space only) for the widest band an export may have, and touched from
/// its start, in turn with the others, for as long as the wait lasts, up to
/// `warmBytes` in all. A band wider than what was touched faults in the rest itself, as it
/// would have anyway; regions no export takes are given back by `discard`.
package enum WarmBandMemory {
    /// The most bytes touched in all, spread evenly over the regions: two bands 1,536
    /// pixels wide (a card is 1,300). Pages touched beyond a band's size are only given back
    /// (at the process's end, on its path), and a wait long enough to touch them all is a
    /// document so large that its faults matter less.
    static let warmBytes = 6 << 20
    /// Touched per step in each region, so a waiting thread looks at what it waits for
    /// every few dozen microseconds.
    static let stepBytes = 32 << 10
    /// The widest band: `FastPNGWriter.bandRows` rows of the widest image an export may have.
    static let regionBytes = FastPNGWriter.bandRows * RenderLimits.maxOutputSide * 4

    private struct Reserve {
        var regions: [Region] = []
        /// Bytes touched in each region so far (the same for all: they are touched in turn).
        var touched = 0
        /// Where touching stops in each region.
        var limit = 0
    }

    private static let reserve = Locked(Reserve())

    /// Reserves one region for each of `count` band buffers (address space only: no page is
    /// touched yet, and the reservation is not charged against the memory limit).
    package static func prepare(count: Int) {
        reserve.withLock { reserve in
            guard reserve.regions.isEmpty, count > 0 else { return }
            for _ in 0..<count {
                guard let region = Region(byteCount: regionBytes) else { break }
                reserve.regions.append(region)
            }
            reserve.touched = 0
            reserve.limit = reserve.regions.isEmpty ? 0 : warmBytes / reserve.regions.count
        }
    }

    /// Touches the next step of every region; false once there is nothing left to touch
    /// (or nothing is reserved), when the caller should just wait.
    package static func warmStep() -> Bool {
        reserve.withLock { reserve in
            guard !reserve.regions.isEmpty, reserve.touched < reserve.limit else { return false }
            let end = min(reserve.limit, reserve.touched + stepBytes)
            for region in reserve.regions {
                // A write: a read would map the kernel's shared page of zeros, and the fault
                // would come again at the band's first write.
                for offset in stride(from: reserve.touched, to: end, by: 4096) {
                    region.bytes.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
                }
            }
            reserve.touched = end
            return end < reserve.limit
        }
    }

    /// A region of `byteCount` bytes or more, its first pages touched; nil when none is left.
    static func take(byteCount: Int) -> Region? {
        reserve.withLock { reserve in
            guard byteCount <= regionBytes else { return nil }
            return reserve.regions.popLast()
        }
    }

    /// How many regions are reserved and not taken yet.
    package static var reservedCount: Int { reserve.withLock { $0.regions.count } }

    /// Gives back the regions no export took.
    package static func discard() {
        reserve.withLock { $0 = Reserve() }
    }

    /// Anonymous memory of its own, given back when the last reference goes. Reserved
    /// without swap space (`MAP_NORESERVE`): only the pages touched count.
    final class Region: @unchecked Sendable {
        let bytes: UnsafeMutableRawPointer
        let byteCount: Int

        init?(byteCount: Int) {
            let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            guard let mapped, mapped != MAP_FAILED else { return nil }
            bytes = mapped
            self.byteCount = byteCount
        }

        deinit { munmap(bytes, byteCount) }
    }
}
