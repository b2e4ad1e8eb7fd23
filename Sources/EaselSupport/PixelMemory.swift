import Glibc

/// Memory for large pixel buffers, on the kernel's 2 MiB pages where it offers them.
///
/// Why: a page of fresh memory costs the kernel a fault when first written, and on a virtual
/// machine about 1.4 µs each: touching a band of 1300x512 pixels (2.6 MB) took 0.9 ms in 4 KiB
/// pages and 0.1 ms in 2 MiB ones. A buffer of 2 MiB or more is aligned to 2 MiB and the whole
/// 2 MiB pages inside it are marked for the kernel's transparent huge pages (`madvise`), so no
/// page is larger than the buffer (its memory use is what it was); where the kernel does not
/// offer them the advice is ignored.
package enum PixelMemory {
    /// The kernel's huge page size on x86-64 and arm64.
    static let hugePage = 2 << 20

    /// `byteCount` bytes aligned for any pixel format; release with `deallocate()`.
    package static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        guard byteCount >= hugePage else { return .allocate(byteCount: max(1, byteCount), alignment: 16) }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: hugePage)
        _ = madvise(bytes, byteCount / hugePage * hugePage, MADV_HUGEPAGE)
        return bytes
    }
}
