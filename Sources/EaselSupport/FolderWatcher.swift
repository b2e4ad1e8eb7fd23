import FoundationEssentials
import Glibc

/// Watches folders with inotify for files written, created, moved or deleted (what an
/// editor saving a document or an image does), for `easel export --watch`. Folders made
/// inside a watched folder are watched too. Hidden files (Easel's own temporary files, an
/// editor's swap files) and paths `ignoring` says are Easel's outputs are not changes.
/// `easel serve` uses it for its change events.
///
/// It never follows a link below a root: a folder swapped for a link to `/` must not cost
/// the user's whole inotify budget and seconds of CPU. Each folder is opened without
/// following a link, checked to sit in the folder it was found in, watched with
/// `IN_DONT_FOLLOW | IN_ONLYDIR`, and looked at again after: a watch on anything but the
/// folder opened is removed. At most `maxFolders` folders are watched (a warning says so
/// once). A root replaced (removed and made again, or another folder moved to its place,
/// as sync tools do) is watched again and reported as changed; one that does not come back
/// within `replacedRootGrace` seconds sets `failure`.
package final class FolderWatcher {
    /// Why watching cannot go on, naming the folder.
    package struct WatchError: Error, CustomStringConvertible {
        /// The message, naming the folder and the problem.
        package var description: String
        /// An error saying `description`.
        package init(_ description: String) { self.description = description }
    }

    /// What a folder is, whatever it is called: its device and inode.
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// A watched folder: the path its events are reported under (below the root as it was
    /// named) and the path it is watched by (the root's links resolved).
    private struct Folder {
        var path: String
        var real: String
        var identity: Identity
        var recursive: Bool
        var root: Int
    }

    /// A folder the caller asked for, and what is watched there now (nil: nothing, the
    /// folder is gone, since `lostSince`).
    private struct Root {
        var path: String
        var recursive: Bool
        var watch: Int32?
        var identity: Identity?
        var lostSince: Date?
    }

    private let descriptor: Int32
    private var folders: [Int32: Folder] = [:]
    private var roots: [Root]
    private let ignoring: (String) -> Bool
    private let maxFolders: Int
    private let replacedRootGrace: Double
    private let warn: (String) -> Void
    private var warnedAboutLimit = false

    /// Set when a root was removed or replaced and no folder came back at its path within
    /// the grace period: the watch cannot go on, and the caller should stop and say so.
    package private(set) var failure: WatchError?

    /// Watches `roots`, each with every folder below it when its `recursive` is set; throws
    /// when inotify cannot be used or a root cannot be watched. A root may be a link (the
    /// caller's choice); nothing below it is followed. `warn` gets, once each, the warning
    /// that `maxFolders` was reached and that the system's inotify limit was.
    package init(
        roots: [(path: String, recursive: Bool)], maxFolders: Int = 10_000, replacedRootGrace: Double = 10,
        warn: @escaping (String) -> Void = { StandardStreams.writeError(Array("easel: warning: \($0)\n".utf8)) },
        ignoring: @escaping (String) -> Bool
    ) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw WatchError("inotify is not available: \(String(cString: strerror(errno)))") }
        self.roots = roots.map { Root(path: $0.path, recursive: $0.recursive) }
        self.ignoring = ignoring
        self.maxFolders = maxFolders
        self.replacedRootGrace = replacedRootGrace
        self.warn = warn
        do {
            for index in self.roots.indices { try watchRoot(index) }
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// How many folders are watched.
    package var folderCount: Int { folders.count }

    deinit { close(descriptor) }

    private static let mask: UInt32 =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_DONT_FOLLOW) | UInt32(IN_ONLYDIR)

    // MARK: Watching folders

    /// Watches root `index` (and, when recursive, every folder below it) as its path names it now.
    private func watchRoot(_ index: Int) throws {
        let path = roots[index].path
        guard let resolved = realpath(path, nil) else {
            throw WatchError("\(path): cannot be watched: \(String(cString: strerror(errno)))")
        }
        let real = String(cString: resolved)
        free(resolved)
        let (watch, identity) = try walk(from: path, real: real, root: index)
        roots[index].watch = watch
        roots[index].identity = identity
        roots[index].lostSince = nil
    }

    /// Watches the folder at `real` (reported as `path`) and, when its root is recursive,
    /// the folders below it; returns its watch and identity, or throws when it cannot be
    /// watched. A folder below that cannot be watched is left out (it may be gone already).
    /// `parent` is the identity of the folder `real` was found in (nil for a root).
    @discardableResult
    private func walk(from path: String, real: String, parent: Identity? = nil, root: Int) throws -> (Int32, Identity) {
        let recursive = roots[root].recursive
        var pending: [(path: String, real: String, parent: Identity?)] = []
        var seen = Set<Identity>()
        let first = try add(path: path, real: real, parent: parent, root: root, seen: &seen)
        if recursive { pending = first.subfolders.map { (path + "/" + $0, real + "/" + $0, first.identity) } }
        // Bounded: a folder is entered once (`seen`), and at most `maxFolders` are watched.
        while let next = pending.popLast() {
            guard let added = try? add(path: next.path, real: next.real, parent: next.parent, root: root, seen: &seen)
            else { continue }
            pending += added.subfolders.map { (next.path + "/" + $0, next.real + "/" + $0, added.identity) }
        }
        return (first.watch, first.identity)
    }

    /// Watches one folder, after checking it is a folder (not a link) that sits in `parent`;
    /// returns its watch, its identity and the names of the folders in it worth watching.
    private func add(path: String, real: String, parent: Identity?, root: Int, seen: inout Set<Identity>) throws -> (
        watch: Int32, identity: Identity, subfolders: [String]
    ) {
        func failed(_ reason: String) -> WatchError { WatchError("\(path): cannot be watched: \(reason)") }
        guard folders.count < maxFolders else {
            if !warnedAboutLimit {
                warnedAboutLimit = true
                warn(
                    "\(roots[root].path): more than \(maxFolders) folders to watch; changes in the folders past that are not seen"
                )
            }
            throw failed("more than \(maxFolders) folders are watched")
        }
        // O_NOFOLLOW: a link (to `/`, say) put where a folder was is refused, not entered.
        let folder = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { throw failed(errno == ELOOP ? "it is a link" : String(cString: strerror(errno))) }
        var closeFolder = true
        defer { if closeFolder { close(folder) } }
        var status = stat()
        guard fstat(folder, &status) == 0 else { throw failed(String(cString: strerror(errno))) }
        let identity = Identity(status)
        guard seen.insert(identity).inserted else { throw failed("it is watched already") }
        if let parent {
            // A folder above swapped for a link between listing and opening would have
            // led somewhere else: what was opened must sit in the folder that was listed.
            var above = stat()
            guard fstatat(folder, "..", &above, AT_SYMLINK_NOFOLLOW) == 0, Identity(above) == parent else {
                throw failed("it moved")
            }
        }
        let watch = inotify_add_watch(descriptor, real, Self.mask)
        guard watch >= 0 else {
            if errno == ENOSPC && !warnedAboutLimit {
                warnedAboutLimit = true
                warn(
                    "\(path): the system's limit on inotify watches (fs.inotify.max_user_watches) is reached; changes in folders not watched are not seen"
                )
            }
            throw failed(String(cString: strerror(errno)))
        }
        // The path was looked up again by inotify_add_watch: it must still name the folder
        // opened (a real folder, not a link), or the watch is on something else.
        var now = stat()
        guard lstat(real, &now) == 0, (now.st_mode & S_IFMT) == S_IFDIR, Identity(now) == identity else {
            if folders[watch] == nil { inotify_rm_watch(descriptor, watch) }
            throw failed("it was replaced while it was being watched")
        }
        // inotify gives a folder watched already (moved) its old watch: it is known by its new path now.
        folders[watch] = Folder(path: path, real: real, identity: identity, recursive: roots[root].recursive, root: root)
        guard roots[root].recursive else { return (watch, identity, []) }
        closeFolder = false
        return (watch, identity, subfolders(of: folder, path: path))
    }

    /// The names of the folders (not links) in the open folder `folder`, hidden ones and
    /// those `ignoring` names left out; closes `folder`.
    private func subfolders(of folder: Int32, path: String) -> [String] {
        guard let listing = fdopendir(folder) else {
            close(folder)
            return []
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), !ignoring(path + "/" + name) else { continue }
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var status = stat()
                isFolder = fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            }
            if isFolder { names.append(name) }
        }
        return names
    }

    /// Stops watching `path` and every folder below it.
    private func unwatch(below path: String) {
        for (watch, folder) in folders where folder.path == path || folder.path.hasPrefix(path + "/") {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
    }

    /// Forgets root `index`'s folders: it was removed, moved away or replaced.
    private func lose(root index: Int) {
        for (watch, folder) in folders where folder.root == index {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
        roots[index].watch = nil
        roots[index].identity = nil
        if roots[index].lostSince == nil { roots[index].lostSince = Date() }
    }

    // MARK: Changes

    /// Waits up to `timeout` seconds and returns the paths that changed (empty when none).
    /// A root watched again after it was replaced is reported as changed (everything in it
    /// may be new). When a root is gone for good, `failure` is set.
    package func changes(timeout: Double) -> [String] {
        var changed: [String] = []
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, timeout.isNaN ? 0 : Int32(min(max(timeout * 1000, 0), 86_400_000))) > 0 { readEvents(into: &changed) }
        checkRoots(into: &changed)
        return changed
    }

    /// Reads the events waiting (at most 256 reads of 64 KiB: a folder changing without
    /// end does not keep the caller here) and adds the paths they name to `changed`.
    private func readEvents(into changed: inout [String]) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for _ in 0..<256 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            for event in InotifyEvent.events(in: buffer[..<count]) {
                handle(watch: event.watch, mask: event.mask, name: event.name, into: &changed)
            }
        }
    }

    private func handle(watch: Int32, mask: UInt32, name: String, into changed: inout [String]) {
        func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
        if has(IN_Q_OVERFLOW) {
            // Events were lost: anything may have changed.
            changed += roots.map(\.path)
            return
        }
        guard let folder = folders[watch] else { return }
        if has(IN_IGNORED) || has(IN_DELETE_SELF) || has(IN_MOVE_SELF) {
            // The folder is gone, or moved (its new place, if watched, was reported by its
            // parent); a root is looked for again at its path by `checkRoots`.
            if roots[folder.root].watch == watch {
                lose(root: folder.root)
            } else if has(IN_IGNORED) {
                folders[watch] = nil
            }
            return
        }
        guard !name.isEmpty, !name.hasPrefix(".") else { return }
        let path = folder.path + "/" + name
        guard !ignoring(path) else { return }
        if has(IN_ISDIR) && (has(IN_MOVED_FROM) || has(IN_DELETE)) { unwatch(below: path) }
        if folder.recursive && has(IN_ISDIR) && (has(IN_CREATE) || has(IN_MOVED_TO)) {
            _ = try? walk(from: path, real: folder.real + "/" + name, parent: folder.identity, root: folder.root)
        }
        changed.append(path)
    }

    /// Looks at each root's path: a folder other than the one watched there (replaced,
    /// or the caller's link pointed elsewhere) is watched instead and reported as changed;
    /// nothing there for longer than the grace period is a failure.
    private func checkRoots(into changed: inout [String]) {
        for index in roots.indices {
            var status = stat()
            let present = stat(roots[index].path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            if present, roots[index].watch != nil, roots[index].identity == Identity(status) { continue }
            if roots[index].watch != nil { lose(root: index) }
            if present, (try? watchRoot(index)) != nil {
                changed.append(roots[index].path)
                continue
            }
            let since = roots[index].lostSince ?? Date()
            roots[index].lostSince = since
            if failure == nil && Date().timeIntervalSince(since) > replacedRootGrace {
                failure = WatchError(
                    "\(roots[index].path): the watched folder was removed or replaced, and no folder came back there within \(String(printf: "%g", replacedRootGrace)) s"
                )
            }
        }
    }
}
