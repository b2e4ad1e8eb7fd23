import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// A document's real path (its folder's links resolved), made for one document or, the
/// folder resolved once, for every name in it: the two agree.
@Suite("Real paths of a folder's documents")
struct RealPathTests {
    @Test func aFolderResolvedOnceGivesEachNameItsRealPath() throws {
        let scratch = TemporaryFolder()
        let real = scratch.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = scratch.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let resolved = try #require(StateFolder.resolvedFolder(link.path))
        #expect(resolved == StateFolder.resolvedFolder(real.path))
        for name in ["card.rwcard", "a b.drawing", "missing-yet.png"] {
            let one = StateFolder.realPath(of: link.appendingPathComponent(name))
            #expect(StateFolder.realPath(of: name, inResolvedFolder: resolved) == one)
            #expect(one == resolved + "/" + name && !one.contains("/link/"))
        }
        #expect(StateFolder.realPath(of: "x", inResolvedFolder: "/") == "/x")
        #expect(StateFolder.resolvedFolder(scratch.url.appendingPathComponent("nowhere").path) == nil)
    }
}
