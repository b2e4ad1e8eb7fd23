import EaselTestSupport
import Foundation
import Testing

/// `easel serve` runs the easel-serve program (beside easel, else on PATH) with its
/// arguments unchanged, and without one says exactly how to build it.
@Suite("easel serve finds easel-serve beside easel or on PATH")
struct ServeLauncherTests {
    /// The build folder's easel-serve, beside the easel the tests run.
    static var easelServe: URL {
        ProcessRunner.easelExecutable.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("easel-serve")
    }

    /// A copy of easel alone in a folder of its own (a copy, not a link: easel looks beside
    /// the file it really is).
    static func easelAlone(in folder: TemporaryFolder) throws -> URL {
        let copy = folder.file("bin/easel")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ProcessRunner.easelExecutable.resolvingSymlinksInPath(), to: copy)
        return copy
    }

    @Test func withoutEaselServeItSaysHowToBuildItAndFails() throws {
        let s = CLIScratch()
        let easel = try Self.easelAlone(in: s.folder)
        let emptyFolder = s.folder.file("empty")
        try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)
        var environment = s.environment
        environment["PATH"] = emptyFolder.path
        let result = try ProcessRunner.run(easel, ["serve", "docs"], environment: environment, currentDirectory: s.folder.url)
        #expect(result.status == 1, "\(result.stderr)")
        let path = easel.resolvingSymlinksInPath().path
        #expect(
            result.stderr
                == "easel: error: easel serve needs easel-serve, which is not installed beside \(path) or on PATH; "
                + "build it with: make install (or swift build -c release --product easel-serve)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func besideEaselServeTheHelpIsTheServersOwn() throws {
        let s = CLIScratch()
        let result = try s.run(["serve", "--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: easel-serve") && result.stdout.contains("<folder>"), "\(result.stdout)")
        #expect(result.stdout.contains("--token-file") && result.stdout.contains("--max-connections"))
        #expect(result.stdout.contains("docs/service-api.md") && !result.stdout.contains("README"))
    }

    @Test func onPathItIsFoundWhenNotBesideEasel() throws {
        let s = CLIScratch()
        let easel = try Self.easelAlone(in: s.folder)
        let onPath = s.folder.file("tools")
        try FileManager.default.createDirectory(at: onPath, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: onPath.appendingPathComponent("easel-serve"), withDestinationURL: Self.easelServe)
        var environment = s.environment
        // A relative folder is never searched: the working folder could hold anything.
        environment["PATH"] = "relative-folder:" + onPath.path
        let result = try ProcessRunner.run(easel, ["serve", "--help"], environment: environment, currentDirectory: s.folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: easel-serve") && result.stdout.contains("<folder>"), "\(result.stdout)")
    }

    @Test func argumentsPassThroughUnchangedAndTheServersStatusIsTheCommands() throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        let refused = try s.run(["serve", "docs", "--port", "70000", "--read-only"])
        #expect(refused.status == 64, "easel-serve's usage error, its exit status: \(refused.stderr)")
        #expect(refused.stderr.contains("--port must be from 0 to 65535"), "\(refused.stderr)")
        #expect(refused.stderr.contains("easel-serve"), "the usage line is easel-serve's: \(refused.stderr)")
    }
}
