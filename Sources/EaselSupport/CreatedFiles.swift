import FoundationEssentials
import Glibc

/// The files an edit writes beside its document before the document itself is saved (an
/// imported photo), recorded per thread so that an edit that fails after writing them can
/// take them away again: a refused edit changes nothing in the folder.
package enum CreatedFiles {
    /// The files recorded on this thread, innermost collection last.
    private static let collections = ThreadLocal<[[String]]> { [] }

    /// Records that `path` was just made for the edit running on this thread (nothing when
    /// none is collecting).
    package static func record(_ path: String) {
        guard !collections.value.isEmpty else { return }
        collections.value[collections.value.count - 1].append(path)
    }

    /// Runs `body`; when it throws, removes every file recorded while it ran, then rethrows.
    package static func removingOnFailure<T>(_ body: () throws -> T) throws -> T {
        collections.value.append([])
        do {
            let result = try body()
            let made = collections.value.removeLast()
            // An enclosing collection owns them now: its failure takes them away too.
            if !collections.value.isEmpty { collections.value[collections.value.count - 1] += made }
            return result
        } catch {
            for path in collections.value.removeLast() { unlink(path) }
            throw error
        }
    }
}
