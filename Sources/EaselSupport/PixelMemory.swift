import Glibc

/// Memory for pixel buffers; a large one mapped on its own, on the kernel's 2 MiB pages where
/// it offers them.
///
/// Why: a page of fresh memory costs the kernel a fault when first written, and on a virtual
/// machine about 1.4 µs each: touching a band of 1300x512 pixels (2.6 MB) took 0.9 ms in 4 KiB
/// pages and 0.1 ms in 2 MiB ones. A buffer of 2 MiB or more is mapped by itself, aligned to
/// 2 MiB, and the whole 2 MiB pages inside it are advised onto the kernel's transparent huge
/// pages (`madvise`): no page is larger than the buffer, and unmapping it gives its memory
/// back at once (through malloc, buffers of this size ended up in its heap, where freed
/// memory stays). Where the kernel offers no huge pages the advice is ignored.
package struct PixelMemory: @unchecked Sendable {
    /// The kernel's huge page size on x86-64 and arm64.
    package static let hugePage = 2 << 20

    /// The first byte, aligned for any pixel format.
    package let bytes: UnsafeMutableRawPointer
    /// The length of the mapping when the memory is mapped by itself; 0 when it is malloc's.
    private let mappedLength: Int

    /// Whether the bytes are known to be zero (a new mapping is).
    package var isZeroed: Bool { mappedLength > 0 }

    /// At least `byteCount` bytes; give them back with `release()`.
    package init(byteCount: Int) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard byteCount >= Self.hugePage, pageSize > 0 else {
            self.init(bytes: .allocate(byteCount: max(1, byteCount), alignment: 16), mappedLength: 0)
            return
        }
        let length = (byteCount + pageSize - 1) / pageSize * pageSize
        // Room to slide to a 2 MiB boundary; the slack on either side is unmapped again.
        guard let mapped = mmap(nil, length + Self.hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else {
            self.init(bytes: .allocate(byteCount: byteCount, alignment: 16), mappedLength: 0)
            return
        }
        let address = UInt(bitPattern: mapped)
        let start = (address + UInt(Self.hugePage) - 1) / UInt(Self.hugePage) * UInt(Self.hugePage)
        let lead = Int(start - address)
        if lead > 0 { munmap(mapped, lead) }
        munmap(mapped + lead + length, Self.hugePage - lead)  // lead < hugePage: never empty
        let bytes = mapped + lead
        _ = madvise(bytes, byteCount / Self.hugePage * Self.hugePage, MADV_HUGEPAGE)
        self.init(bytes: bytes, mappedLength: length)
    }

    private init(bytes: UnsafeMutableRawPointer, mappedLength: Int) {
        self.bytes = bytes
        self.mappedLength = mappedLength
    }

    /// Gives the memory back (once, by its one owner).
    package func release() {
        if mappedLength > 0 { munmap(bytes, mappedLength) } else { bytes.deallocate() }
    }
}
