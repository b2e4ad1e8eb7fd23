import Foundation
import Testing

/// Every relative link of README.md and the pages in `docs/` leads to a file of the
/// repository (and an `#anchor` to a heading of it), and every document a code comment names
/// exists: so a page that moves leaves no dangling reference behind, and nothing points
/// outside the repository.
@Suite("Documentation links and the documents comments name")
struct DocumentationLinkTests {
    static let root = DocumentationSnippetTests.root.standardizedFileURL.path

    /// The Markdown pages whose links are checked, relative to the root.
    static func pages() throws -> [String] {
        var pages = ["README.md", "Examples/README.md"]
        for folder in ["docs", "Benchmarks/results"] {
            pages += try files(under: folder).filter { $0.hasSuffix(".md") }
        }
        return pages
    }

    /// The files whose comments are read, relative to the root: the package's code, its
    /// tools and scripts, and the example package's manifest and code (not `Examples/Easel`,
    /// a link back to the root).
    static func sourceFiles() throws -> [String] {
        var files = ["Makefile", "Package.swift", "Dockerfile", ".ci/run"].filter {
            FileManager.default.fileExists(atPath: root + "/" + $0)
        }
        for folder in [
            "Sources", "Tests", "Tools", "Benchmarks", "Fuzz", "Snippets", "Examples/CardStudio/Sources",
            "Examples/CardStudio/Tests", "Examples/CardStudio/Package.swift",
        ] {
            files += try Self.files(under: folder).filter {
                CommentMentions.Syntax.of(fileName: ($0 as NSString).lastPathComponent) != nil
            }
        }
        return files
    }

    /// The regular files below `folder` (or `folder` itself when it is a file), relative to
    /// the root, hidden ones and build folders left out; symbolic links are not followed.
    static func files(under folder: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/" + folder, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [folder] }
        var result: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + current).sorted()
            where !name.hasPrefix(".") {
                let path = current + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
                switch attributes[.type] as? FileAttributeType {
                case .typeDirectory?: pending.append(path)
                case .typeRegular?: result.append(path)
                default: continue
                }
            }
        }
        return result
    }

    /// What is wrong with a reference to `target` from a file in `folder` (both relative to
    /// `root`), or nil when it leads to an existing file or folder inside `root` — and, with an
    /// anchor, to a heading of a Markdown page. `folders` are the folders a relative path is
    /// tried against, in order.
    static func problem(
        with target: String, from folders: [String], root: String, exists: (String) -> Bool,
        anchors: (String) -> Set<String>?
    ) -> String? {
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        var outside = false
        for folder in folders {
            let resolved = URL(fileURLWithPath: root + "/" + folder).appendingPathComponent(path).standardizedFileURL.path
            guard resolved == root || resolved.hasPrefix(root + "/") else {
                outside = true
                continue
            }
            guard exists(resolved) else { continue }
            guard let anchor else { return nil }
            guard let headings = anchors(resolved) else { return "\(target): #\(anchor) is in no Markdown page" }
            return headings.contains(anchor) ? nil : "\(target): \(path) has no heading whose anchor is #\(anchor)"
        }
        return outside ? "\(target): leads outside the repository" : "\(target): no such file in the repository"
    }

    /// The heading anchors of the Markdown page at `path`, or nil when it is no Markdown page.
    static func anchorsOfFile(_ path: String) -> Set<String>? {
        guard path.hasSuffix(".md"), let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return MarkdownLinks.anchors(in: text)
    }

    /// Whether a file or folder is at `path`.
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The problems of one page's links.
    static func linkProblems(page: String, text: String, root: String, exists: (String) -> Bool) -> [String] {
        let folder = (page as NSString).deletingLastPathComponent
        return MarkdownLinks.links(in: text).compactMap { link in
            if link.target.contains("://") || link.target.hasPrefix("mailto:") { return nil }
            if link.target.hasPrefix("#") {
                let anchor = String(link.target.dropFirst())
                return MarkdownLinks.anchors(in: text).contains(anchor)
                    ? nil : "\(page):\(link.line): \(link.target): no heading of this page has that anchor"
            }
            let problem = Self.problem(
                with: link.target, from: [folder], root: root, exists: exists, anchors: anchorsOfFile)
            return problem.map { "\(page):\(link.line): \($0)" }
        }
    }

    /// The problems of the documents one file's comments name.
    static func mentionProblems(file: String, text: String, root: String, exists: (String) -> Bool) -> [String] {
        guard let syntax = CommentMentions.Syntax.of(fileName: (file as NSString).lastPathComponent) else { return [] }
        let folder = (file as NSString).deletingLastPathComponent
        return CommentMentions.mentions(in: text, syntax: syntax).compactMap { mention in
            guard let path = mention.path else {
                return "\(file):\(mention.line): names the README without a path: name the page that holds the text "
                    + "(docs/…), or README.md itself"
            }
            // A path is read from the commenting file's folder, or else from the root.
            let problem = Self.problem(with: path, from: [folder, "."], root: root, exists: exists, anchors: anchorsOfFile)
            return problem.map { "\(file):\(mention.line): \($0)" }
        }
    }

    @Test func everyRelativeLinkOfTheREADMEAndTheDocsResolves() throws {
        let pages = try Self.pages()
        #expect(pages.count >= 10, "found only \(pages)")
        var problems: [String] = []
        var links = 0
        for page in pages {
            let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
            links += MarkdownLinks.links(in: text).count
            problems += Self.linkProblems(page: page, text: text, root: Self.root, exists: Self.exists)
        }
        #expect(links >= 50, "found only \(links) links")
        #expect(problems.isEmpty, "broken links:\n\(problems.joined(separator: "\n"))")
    }

    @Test func everyDocumentACodeCommentNamesExists() throws {
        let files = try Self.sourceFiles()
        #expect(files.count >= 300, "found only \(files.count) source files")
        var problems: [String] = []
        var mentions = 0
        for file in files {
            guard let text = try? String(contentsOfFile: Self.root + "/" + file, encoding: .utf8) else { continue }
            if let syntax = CommentMentions.Syntax.of(fileName: (file as NSString).lastPathComponent) {
                mentions += CommentMentions.mentions(in: text, syntax: syntax).count
            }
            problems += Self.mentionProblems(file: file, text: text, root: Self.root, exists: Self.exists)
        }
        #expect(mentions >= 20, "found only \(mentions) documents named in comments")
        #expect(problems.isEmpty, "comments naming documents that are not there:\n\(problems.joined(separator: "\n"))")
    }

    // The checks themselves, on pages and files made up here: each kind of breakage is found.

    static let fakeRoot = "/repo"
    static let fakeFiles: Set<String> = ["/repo/README.md", "/repo/docs/cli.md", "/repo/docs/images/a.png", "/repo/docs"]
    static func fakeExists(_ path: String) -> Bool { fakeFiles.contains(path) }

    @Test func aLinkToAMissingFileOrOutsideTheRepositoryIsReported() {
        let page = """
            # Title
            [fine](docs/cli.md) ![picture](docs/images/a.png) [folder](docs) [web](https://example.com)
            [gone](docs/limits.md) and [out](../shared/architecture.md)
            ```sh
            [in a code block](nowhere.md)
            ```
            `[in a code span](nowhere.md)` [here](#title) [there](#nothing)
            """
        let problems = Self.linkProblems(page: "README.md", text: page, root: Self.fakeRoot, exists: Self.fakeExists)
        #expect(
            problems == [
                "README.md:3: docs/limits.md: no such file in the repository",
                "README.md:3: ../shared/architecture.md: leads outside the repository",
                "README.md:7: #nothing: no heading of this page has that anchor",
            ])
    }

    @Test func anchorsAreGitHubSlugs() {
        let page = """
            # Folder export
            ## The report (`--report FILE.json`)
            ## `easel serve`: documents, renders and edits over HTTP
            ## PNG settings and Easel's own writer
            ## Notes
            ## Notes
            ```
            # not a heading
            ```
            """
        #expect(
            MarkdownLinks.anchors(in: page) == [
                "folder-export", "the-report---report-filejson", "easel-serve-documents-renders-and-edits-over-http",
                "png-settings-and-easels-own-writer", "notes", "notes-1",
            ])
    }

    @Test func aCommentNamingAMissingDocumentOrTheBareREADMEIsReported() {
        let swift = #"""
            /// Documented in docs/cli.md and in docs/limits.md.
            let a = "README and docs/gone.md in a string are not comments"
            let b = #"a "raw" string // with docs/also-gone.md"#
            // see the README's limits; /* and ../shared/cards-format.md */
            /* README.md is the front door */
            """#
        let problems = Self.mentionProblems(file: "Sources/X/X.swift", text: swift, root: Self.fakeRoot, exists: Self.fakeExists)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("Sources/X/X.swift:1: docs/limits.md: no such file") })
        #expect(problems.contains { $0.hasPrefix("Sources/X/X.swift:4: names the README without a path") })
        #expect(
            problems.contains { $0.hasPrefix("Sources/X/X.swift:4: ../shared/cards-format.md: leads outside the repository") })

        let make = "build: # see docs/gone.md\n\t@# and the README\n\techo '# not docs/none.md' $$#\n"
        let makeProblems = Self.mentionProblems(file: "Makefile", text: make, root: Self.fakeRoot, exists: Self.fakeExists)
        #expect(makeProblems.count == 2, "\(makeProblems)")
    }
}
