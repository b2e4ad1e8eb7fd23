import EaselSupport
import Foundation
import Testing

/// Memory freed between blocks still in use is kept by malloc until given back: a server
/// gives it back when idle, once enough has come to be free since the last time.
@Suite("Freed memory is given back to the system")
struct FreeMemoryTests {
    /// The process's resident memory in bytes (/proc/self/statm's second field, in pages).
    private func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Not under a sanitizer: its allocator is not glibc's malloc, which this gives back from.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["EASEL_SANITIZER"] == nil))
    func memoryFreedBetweenBlocksInUseGoesBackOnceAndOnlyOnce() throws {
        // 128 MiB in small blocks, every 64th kept: almost all of it is freed, in holes malloc
        // cannot give back by itself (a block in use sits after each).
        let blocks = (0..<320_000).map { _ in malloc(400)! }
        for block in blocks { memset(block, 1, 400) }
        for (index, block) in blocks.enumerated() where index % 64 != 0 { free(block) }
        defer { for (index, block) in blocks.enumerated() where index % 64 == 0 { free(block) } }

        let before = try residentBytes()
        #expect(FreeMemory.returnToSystem(whenOver: 32 << 20))
        let after = try residentBytes()
        #expect(before - after > 64 << 20, "resident \(before >> 20) MiB before, \(after >> 20) MiB after")
        // Nothing more has been freed since: not walked and given back again.
        #expect(!FreeMemory.returnToSystem(whenOver: 32 << 20))
    }
}
