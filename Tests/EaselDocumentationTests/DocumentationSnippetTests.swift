import Foundation
import Testing

/// Every Swift sample a user reads — in README.md, in `docs/`, in the DocC catalogs and in the doc
/// comments DocC shows — is part of a file in `Snippets/`, which SwiftPM compiles with the
/// package (each snippet is an executable). So a sample that stops compiling fails the
/// build, and a sample edited in the docs alone fails here.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// A sample: where it is, and its lines.
    struct Sample: CustomStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var description: String { "\(file):\(line)" }
    }

    /// The visible code of each snippet (what DocC shows: `// snippet.hide` … `// snippet.show`
    /// sections and the marker lines left out), by file name.
    static func snippets() throws -> [String: [String]] {
        let folder = root.appendingPathComponent("Snippets")
        var result: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            var hidden = false
            var lines: [String] = []
            for line in text.components(separatedBy: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed == "// snippet.hide" { hidden = true } else if trimmed == "// snippet.show" { hidden = false }
                if hidden || trimmed.hasPrefix("// snippet.") { continue }
                lines.append(trimmed)
            }
            result[name] = lines
        }
        return result
    }

    /// The ```swift blocks of a Markdown text; `prefix` is stripped first (`///` for doc comments).
    static func samples(in text: String, file: String, prefix: String = "") -> [Sample] {
        var samples: [Sample] = []
        var current: Sample?
        for (number, raw) in text.components(separatedBy: "\n").enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if !prefix.isEmpty {
                guard line.hasPrefix(prefix) else {
                    current = nil
                    continue
                }
                line = String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            }
            if current == nil, line == "```swift" {
                current = Sample(file: file, line: number + 1, lines: [])
            } else if var sample = current {
                if line == "```" {
                    while sample.lines.last == "" { sample.lines.removeLast() }
                    samples.append(sample)
                    current = nil
                } else {
                    sample.lines.append(line)
                    current = sample
                }
            }
        }
        return samples
    }

    /// README.md, the pages in `docs/`, every DocC article, and the doc comments in `Sources/`.
    static func allSamples() throws -> [Sample] {
        var samples: [Sample] = []
        var pages = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        pages += try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted().map {
            "docs/" + $0
        }
        for page in pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            samples += Self.samples(in: text, file: page)
        }
        let sources = root.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(atPath: sources.path)
        while let path = walker?.nextObject() as? String {
            let isArticle = path.contains(".docc/") && path.hasSuffix(".md")
            guard isArticle || path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            samples += Self.samples(in: text, file: "Sources/" + path, prefix: isArticle ? "" : "///")
        }
        return samples
    }

    /// A manifest, whole (`// swift-tools-version: …` first) or an excerpt (`// Package.swift`
    /// first): checked against the example package's manifest, not compiled as a snippet.
    static func isManifest(_ sample: Sample) -> Bool {
        sample.lines.first!.hasPrefix("// swift-tools-version") || sample.lines.first! == "// Package.swift"
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func everySwiftSampleIsPartOfACompiledSnippet() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 8)
        let samples = try Self.allSamples()
        #expect(samples.count >= 12, "found only \(samples.count) samples")
        for sample in samples where !Self.isManifest(sample) {
            let home = snippets.first { Self.contains($0.value, sample.lines) }
            #expect(
                home != nil,
                "\(sample): this sample is in no file of Snippets/ (copy it there exactly, so the build compiles it):\n\(sample.lines.joined(separator: "\n"))"
            )
        }
    }

    /// The snippets were built with this test bundle (SwiftPM builds each as an executable),
    /// so the samples above compiled.
    @Test func everySnippetWasBuilt() throws {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var folder = products
        // The test bundle is `<products>/EaselPackageTests.xctest` or a binary inside it.
        while !folder.path.hasSuffix("/debug") && !folder.path.hasSuffix("/release") && folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        for name in try Self.snippets().keys {
            let executable = folder.appendingPathComponent(String(name.dropLast(".swift".count)))
            #expect(FileManager.default.isExecutableFile(atPath: executable.path), "\(executable.path) was not built")
        }
    }

    /// The manifests the documentation shows are real ones: every line of each, whole or an
    /// excerpt, is a line of the example package's manifest (`Examples/CardStudio`), but for
    /// at most one dependency line (a URL instead of the example's path).
    @Test func documentedManifestsAreTheExamplePackages() throws {
        let manifests = try Self.allSamples().filter(Self.isManifest)
        #expect(manifests.filter { $0.file == "README.md" }.count >= 1, "the README shows the package line")
        #expect(
            manifests.filter { $0.file == "docs/library.md" && $0.lines.first!.hasPrefix("// swift-tools-version") }.count == 2,
            "docs/library.md shows a whole manifest for a path and for a URL dependency")
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/CardStudio/Package.swift"), encoding: .utf8
        ).components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for manifest in manifests {
            let differing = manifest.lines.dropFirst(manifest.lines.first == "// Package.swift" ? 1 : 0).filter {
                !$0.isEmpty && !example.contains($0)
            }
            #expect(
                differing.count <= 1 && differing.allSatisfy { $0.hasPrefix(".package(") },
                "\(manifest): differs from Examples/CardStudio/Package.swift in more than its dependency line: \(differing)")
        }
    }
}
