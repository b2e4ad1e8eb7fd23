import Testing
import Foundation
import EaselSupport
import EaselTestSupport

/// Calls `changes` until `done` says what was reported is enough, for at most 5 s; returns
/// everything reported.
private func changes(of watcher: FolderWatcher, until done: ([String]) -> Bool) -> [String] {
    var seen: [String] = []
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        seen += watcher.changes(timeout: 0.05)
        if done(seen) { break }
    }
    return seen
}

/// Makes `count` folders, each with a folder in it, under `folder`: a tree that would cost
/// `2 * count` watches if it were entered.
private func makeTree(_ folder: String, count: Int) throws {
    for index in 0..<count {
        try FileManager.default.createDirectory(atPath: "\(folder)/f\(index)/inner", withIntermediateDirectories: true)
    }
}

@Suite("The folder watcher never follows a link")
struct FolderWatcherLinkTests {
    /// The red team's attack: a folder made, then swapped for a link before the watcher
    /// gets to it. The link's target (a big tree, or `/`) must not be watched.
    @Test(arguments: ["tree", "/"])
    func aFolderSwappedForALinkIsNotEntered(target: String) throws {
        let scratch = TemporaryFolder()
        let watched = scratch.path + "/watched"
        let tree = scratch.path + "/tree"
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        try makeTree(tree, count: 40)
        let watcher = try FolderWatcher(roots: [(watched, true)]) { _ in false }
        #expect(watcher.folderCount == 1)
        // inotify reports the folder made; by the time the watcher reads that, it is a link.
        try FileManager.default.createDirectory(atPath: watched + "/new", withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: watched + "/new")
        try FileManager.default.createSymbolicLink(
            atPath: watched + "/new", withDestinationPath: target == "/" ? "/" : tree)
        let seen = changes(of: watcher) { $0.contains(watched + "/new") && $0.count >= 3 }
        #expect(seen.contains(watched + "/new"), "\(seen)")
        #expect(watcher.folderCount == 1, "only the watched folder: \(watcher.folderCount) watched")
        // Nothing in the link's target is reported either: a file written there, then one
        // in the watched folder (inotify keeps events in order: once the second is
        // reported, the first would have been).
        try Data("x".utf8).write(to: URL(fileURLWithPath: tree + "/f0/inner/file"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: watched + "/marker"))
        let later = changes(of: watcher) { $0.contains(watched + "/marker") }
        #expect(Set(later) == [watched + "/marker"], "\(later)")
    }

    /// Links already there when the watch starts, and made later, are left alone too.
    @Test func linkedSubfoldersAreNeverEntered() throws {
        let scratch = TemporaryFolder()
        let watched = scratch.path + "/watched"
        try FileManager.default.createDirectory(atPath: watched + "/real", withIntermediateDirectories: true)
        try makeTree(scratch.path + "/tree", count: 10)
        try FileManager.default.createSymbolicLink(atPath: watched + "/before", withDestinationPath: scratch.path + "/tree")
        try FileManager.default.createSymbolicLink(atPath: watched + "/root", withDestinationPath: "/")
        let watcher = try FolderWatcher(roots: [(watched, true)]) { _ in false }
        #expect(watcher.folderCount == 2, "the folder and real/")
        try FileManager.default.createSymbolicLink(atPath: watched + "/after", withDestinationPath: scratch.path + "/tree")
        _ = changes(of: watcher) { $0.contains(watched + "/after") }
        #expect(watcher.folderCount == 2)
    }

    /// A root that is itself a link is the caller's choice: watched through it, and its
    /// changes reported under the path as named.
    @Test func aRootThatIsALinkIsWatchedAsNamed() throws {
        let scratch = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: scratch.path + "/real/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/named", withDestinationPath: scratch.path + "/real")
        let watcher = try FolderWatcher(roots: [(scratch.path + "/named", true)]) { _ in false }
        #expect(watcher.folderCount == 2)
        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path + "/real/sub/file"))
        let seen = changes(of: watcher) { $0.contains(scratch.path + "/named/sub/file") }
        #expect(seen.contains(scratch.path + "/named/sub/file"), "\(seen)")
    }

    /// However big the tree, at most `maxFolders` folders are watched, and the warning says
    /// so once.
    @Test func theNumberOfWatchedFoldersIsBounded() throws {
        let scratch = TemporaryFolder()
        let watched = scratch.path + "/watched"
        try makeTree(watched, count: 20)
        let warnings = Locked([String]())
        let watcher = try FolderWatcher(
            roots: [(watched, true)], maxFolders: 10,
            warn: { message in
                warnings.withLock { $0.append(message) }
            }
        ) { _ in false }
        #expect(watcher.folderCount == 10)
        try makeTree(watched + "/more", count: 5)
        _ = changes(of: watcher) { $0.contains(watched + "/more") }
        #expect(watcher.folderCount == 10)
        let said = warnings.withLock { $0 }
        #expect(said.count == 1 && said[0].contains("more than 10 folders") && said[0].contains(watched), "\(said)")
    }
}

@Suite("A replaced watched folder is watched again")
struct FolderWatcherReplacedRootTests {
    /// What sync tools do: the folder removed (or moved aside), a new one moved into its
    /// place. The new folder is reported (everything in it may be new), and files written
    /// in it later are seen; the old one, moved aside, is no longer watched.
    @Test(arguments: ["removed", "moved aside"])
    func aNewFolderInThePlaceOfTheRootIsWatched(how: String) throws {
        let scratch = TemporaryFolder()
        let watched = scratch.path + "/watched"
        try FileManager.default.createDirectory(atPath: watched + "/sub", withIntermediateDirectories: true)
        let watcher = try FolderWatcher(roots: [(watched, true)]) { _ in false }
        if how == "removed" {
            try FileManager.default.removeItem(atPath: watched)
        } else {
            try FileManager.default.moveItem(atPath: watched, toPath: scratch.path + "/aside")
        }
        try FileManager.default.createDirectory(atPath: scratch.path + "/staging/sub", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: scratch.path + "/staging", toPath: watched)
        let rescan = changes(of: watcher) { $0.contains(watched) }
        #expect(rescan.contains(watched), "the new folder is reported: \(rescan)")
        #expect(watcher.folderCount == 2, "the new folder and its sub/")
        if how == "moved aside" {
            try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path + "/aside/sub/old"))
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: watched + "/sub/document"))
        let seen = changes(of: watcher) { $0.contains(watched + "/sub/document") }
        #expect(Set(seen) == [watched + "/sub/document"], "\(seen)")
        #expect(watcher.failure == nil)
    }

    /// A root that does not come back within the grace period is a failure naming it.
    @Test func aRootThatDoesNotComeBackIsAFailure() throws {
        let scratch = TemporaryFolder()
        let watched = scratch.path + "/watched"
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        let watcher = try FolderWatcher(roots: [(watched, false)], replacedRootGrace: 0.2) { _ in false }
        try FileManager.default.removeItem(atPath: watched)
        let deadline = Date().addingTimeInterval(5)
        while watcher.failure == nil && Date() < deadline { _ = watcher.changes(timeout: 0.05) }
        let message = watcher.failure.map { "\($0)" } ?? ""
        #expect(message.contains(watched) && message.contains("removed or replaced"), "\(message)")
    }
}
