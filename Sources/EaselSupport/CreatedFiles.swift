import Foundation

/// The files an edit writes beside its document before the document itself is saved (an
/// imported photo), recorded per thread so that an edit that fails after writing them can
/// take them away again: a refused edit changes nothing in the folder.
package enum CreatedFiles {
    /// The files recorded on one thread, innermost collection last.
    private final class Collections {
        var stack: [[String]] = []
    }

    private static let key = "org.easel.created-files"

    private static var collections: Collections {
        let dictionary = Thread.current.threadDictionary
        if let existing = dictionary[key] as? Collections { return existing }
        let made = Collections()
        dictionary[key] = made
        return made
    }

    /// Records that `path` was just made for the edit running on this thread (nothing when
    /// none is collecting).
    package static func record(_ path: String) {
        let collections = collections
        guard !collections.stack.isEmpty else { return }
        collections.stack[collections.stack.count - 1].append(path)
    }

    /// Runs `body`; when it throws, removes every file recorded while it ran, then rethrows.
    package static func removingOnFailure<T>(_ body: () throws -> T) throws -> T {
        let collections = collections
        collections.stack.append([])
        do {
            let result = try body()
            let made = collections.stack.removeLast()
            // An enclosing collection owns them now: its failure takes them away too.
            if !collections.stack.isEmpty { collections.stack[collections.stack.count - 1] += made }
            return result
        } catch {
            for path in collections.stack.removeLast() { unlink(path) }
            throw error
        }
    }
}
