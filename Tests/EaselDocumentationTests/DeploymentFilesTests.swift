import EaselCairo
import EaselTestSupport
import Foundation
import Testing

/// The Dockerfile cannot be built here (no Docker engine), so its promises are checked as
/// text: its run-time stage installs deploy/runtime-packages.txt, the list `make deps`
/// installs and `easel doctor` checks; every file it copies from the build stage is one a
/// build makes; and the image runs `easel`, not as root.
@Suite("The Dockerfile installs what easel doctor checks and copies what the build makes")
struct DeploymentFilesTests {
    static let root = ProcessRunner.packageRoot

    /// The packages in deploy/runtime-packages.txt, comments left out.
    static func runtimePackages() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("deploy/runtime-packages.txt"), encoding: .utf8)
        return Set(
            text.split(separator: "\n").flatMap { line in
                (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                    .split(separator: " ").map(String.init)
            })
    }

    /// The Dockerfile's stages: each stage's instructions (continuation lines joined,
    /// comments left out), as (instruction, arguments).
    static func dockerfileStages() throws -> [[(instruction: String, arguments: String)]] {
        let text = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        var stages: [[(instruction: String, arguments: String)]] = []
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") || (trimmed.isEmpty && pending.isEmpty) { continue }
            if trimmed.hasSuffix("\\") {
                pending += String(trimmed.dropLast()) + " "
                continue
            }
            let whole = pending + trimmed
            pending = ""
            let parts = whole.split(separator: " ", maxSplits: 1)
            guard let first = parts.first else { continue }
            let instruction = first.uppercased()
            if instruction == "FROM" { stages.append([]) }
            guard !stages.isEmpty else { continue }
            stages[stages.count - 1].append((instruction, parts.count > 1 ? String(parts[1]) : ""))
        }
        return stages
    }

    @Test func theRuntimeListIsWhatEaselDoctorChecksPlusTheLinkedLibraries() throws {
        let listed = try Self.runtimePackages()
        // What `easel doctor` checks and lists (`doctor --json` prints these items).
        let checked = Set(SystemCheck.run().items.map(\.debianPackage))
        #expect(
            checked.subtracting(listed).isEmpty, "easel doctor checks packages the list lacks: \(checked.subtracting(listed))")
        // Linked ones (easel does not start without them, so doctor could not report them)
        // and the interactive session's line editor, which doctor does not check.
        #expect(
            listed.subtracting(checked) == ["zlib1g", "libisal2", "libstdc++6", "libedit2"],
            "listed but neither checked by easel doctor nor known to be linked: \(listed.subtracting(checked))")
    }

    @Test func makeDepsInstallsTheRuntimeList() throws {
        let make = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["make", "-s", "--no-print-directory", "print-APT_PACKAGES"],
            currentDirectory: Self.root)
        #expect(make.status == 0, "\(make.stderr)")
        let installed = Set(make.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        let listed = try Self.runtimePackages()
        #expect(!listed.isEmpty)
        #expect(listed.isSubset(of: installed), "make deps leaves out \(listed.subtracting(installed))")
    }

    @Test func theRuntimeStageInstallsTheListAndNoOtherPackage() throws {
        let stages = try Self.dockerfileStages()
        #expect(stages.count == 2, "a build stage and a run-time stage")
        let runtime = try #require(stages.last)
        #expect(
            runtime.contains { $0.instruction == "COPY" && $0.arguments.hasPrefix("deploy/runtime-packages.txt ") },
            "the run-time stage copies deploy/runtime-packages.txt")
        var installsTheList = false
        for step in runtime where step.instruction == "RUN" {
            for command in step.arguments.components(separatedBy: "&&").flatMap({ $0.components(separatedBy: ";") }) {
                guard let install = command.range(of: "apt-get install") else { continue }
                let pipeline = command.components(separatedBy: "|")
                let named = command[install.upperBound...].split(separator: " ").filter { !$0.hasPrefix("-") }
                #expect(named.isEmpty, "the run-time stage installs packages not in the list: \(named)")
                if pipeline.count == 2, pipeline[0].contains("runtime-packages.txt"),
                    pipeline[1].contains("xargs apt-get install")
                {
                    installsTheList = true
                }
            }
        }
        #expect(installsTheList, "the run-time stage installs the list: … runtime-packages.txt | xargs apt-get install")
        let build = try #require(stages.first)
        #expect(
            build.contains {
                $0.instruction == "RUN" && $0.arguments.contains("make deps") && $0.arguments.contains("make release")
            })
    }

    @Test func everyPathItCopiesIsInTheSourceOrABuild() throws {
        let stages = try Self.dockerfileStages()
        let build = try #require(stages.first)
        let workdir = try #require(build.last { $0.instruction == "WORKDIR" }?.arguments)
        // The tests run on a debug build, whose folder holds what a release build's does.
        let builtIn = ProcessRunner.easelExecutable.resolvingSymlinksInPath().deletingLastPathComponent()
        var copied: [String] = []
        for step in stages.joined() where step.instruction == "COPY" {
            var words = step.arguments.split(separator: " ").map(String.init)
            let fromBuild = words.first == "--from=build"
            if fromBuild { words.removeFirst() }
            for source in words.dropLast() where source != "." {
                let path: URL
                if fromBuild {
                    let relative = try #require(
                        source.hasPrefix(workdir + "/") ? String(source.dropFirst(workdir.count + 1)) : nil,
                        "\(source) is not in the build stage's WORKDIR \(workdir)")
                    path =
                        relative.hasPrefix(".build/release/")
                        ? builtIn.appendingPathComponent(String(relative.dropFirst(".build/release/".count)))
                        : Self.root.appendingPathComponent(relative)
                } else {
                    path = Self.root.appendingPathComponent(source)
                }
                #expect(
                    FileManager.default.fileExists(atPath: path.path), "the Dockerfile copies \(source): \(path.path) is missing")
                copied.append(source)
            }
        }
        for name in ["easel", "easel-serve", "Easel_EaselServer.resources"] {
            #expect(copied.contains("\(workdir)/.build/release/\(name)"), "the image gets \(name)")
        }
        // The build context leaves out the host's build folders (the image builds its own).
        let ignored = try String(contentsOf: Self.root.appendingPathComponent(".dockerignore"), encoding: .utf8)
        #expect(ignored.split(separator: "\n").contains(".build*"))
    }

    @Test func theImageRunsEaselAsAnUnprivilegedUser() throws {
        let runtime = try #require(try Self.dockerfileStages().last)
        #expect(runtime.first?.arguments == "debian:bookworm-slim")
        #expect(runtime.last { $0.instruction == "ENTRYPOINT" }?.arguments == #"["easel"]"#)
        let user = try #require(runtime.last { $0.instruction == "USER" }?.arguments)
        #expect(!["root", "0"].contains(user))
        #expect(runtime.last { $0.instruction == "WORKDIR" }?.arguments == "/data")
        #expect(
            runtime.contains {
                $0.instruction == "COPY" && $0.arguments.contains("/easel-serve") && $0.arguments.hasSuffix(" /usr/local/bin/")
            }, "easel-serve beside easel, on PATH")
    }
}
