import Foundation

/// The comments of a source file, and the documents they name. A comment names a document by
/// its path (`docs/limits.md`, `Tests/EaselGoldenTests/Fixtures/pixelmatch/README.md`,
/// `docs/cli.md#export`); naming "README" without a path is a mention too, and one that no
/// longer says where the text is (the word in double quotes, as here, is the word itself, not
/// a mention).
enum CommentMentions {
    /// How a file writes its comments.
    enum Syntax {
        /// `//` and `/* … */`, with `"…"` strings (Swift's `"""…"""` and `#"…"#` too) and
        /// `'…'` characters that are not comments.
        case cFamily
        /// `#` to the end of the line; Python's `"""…"""` docstrings are comments too.
        case hash(docstrings: Bool)

        /// The syntax of a file by its name, or nil for a file that holds no code comments.
        static func of(fileName name: String) -> Syntax? {
            switch (name as NSString).pathExtension {
            case "swift", "c", "h", "js", "css": return .cFamily
            case "py": return .hash(docstrings: true)
            case "sh", "yml", "yaml", "toml": return .hash(docstrings: false)
            case "": return ["Makefile", "Dockerfile", "run"].contains(name) ? .hash(docstrings: false) : nil
            default: return nil
            }
        }
    }

    /// A comment's text and the line it starts on (from 1).
    struct Comment: Equatable {
        var line: Int
        var text: String
    }

    /// A document named in a comment: the path as written (with its `#anchor`, if any), or
    /// nil for "README" written without a path.
    struct Mention: Equatable {
        var line: Int
        var path: String?
    }

    /// The documents the comments of `text` name.
    static func mentions(in text: String, syntax: Syntax) -> [Mention] {
        comments(in: text, syntax: syntax).flatMap { comment in
            var found: [Mention] = []
            for (offset, line) in comment.text.components(separatedBy: "\n").enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                for match in documentPath.matches(in: line, range: range) {
                    guard let path = Range(match.range, in: line) else { continue }
                    found.append(Mention(line: comment.line + offset, path: String(line[path])))
                }
                for _ in bareReadme.matches(in: line, range: range) {
                    found.append(Mention(line: comment.line + offset, path: nil))
                }
            }
            return found
        }
    }

    /// Every comment of `text`.
    static func comments(in text: String, syntax: Syntax) -> [Comment] {
        switch syntax {
        case .cFamily: return cFamilyComments(Array(text.unicodeScalars))
        case .hash(let docstrings): return hashComments(text, docstrings: docstrings)
        }
    }

    /// A small lexer: enough of C, Swift and JavaScript to tell comments from strings.
    private static func cFamilyComments(_ s: [Unicode.Scalar]) -> [Comment] {
        var comments: [Comment] = []
        var index = 0
        var line = 1
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < s.count ? s[index + offset] : nil }
        func advance() {
            if s[index] == "\n" { line += 1 }
            index += 1
        }
        func skip(past terminator: [Unicode.Scalar], escapes: Bool) {
            while index < s.count {
                if escapes && s[index] == "\\" {
                    advance()
                    if index < s.count { advance() }
                    continue
                }
                if Array(s[index..<min(s.count, index + terminator.count)]) == terminator {
                    for _ in terminator { advance() }
                    return
                }
                advance()
            }
        }
        while index < s.count {
            let c = s[index]
            if c == "/" && at(1) == "/" {
                let start = index
                let startLine = line
                while index < s.count && s[index] != "\n" { index += 1 }
                comments.append(Comment(line: startLine, text: String(String.UnicodeScalarView(s[start..<index]))))
            } else if c == "/" && at(1) == "*" {
                let start = index
                let startLine = line
                index += 2
                skip(past: ["*", "/"], escapes: false)
                comments.append(Comment(line: startLine, text: String(String.UnicodeScalarView(s[start..<index]))))
            } else if c == "#" && (at(1) == "\"" || at(1) == "#") {
                // A Swift raw string: as many `#` close it as opened it.
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    advance()
                    continue
                }
                for _ in 0..<hashes { advance() }
                let quotes: [Unicode.Scalar] = at(0) == "\"" && at(1) == "\"" && at(2) == "\"" ? ["\"", "\"", "\""] : ["\""]
                for _ in quotes { advance() }
                skip(past: quotes + Array(repeating: "#", count: hashes), escapes: false)
            } else if c == "\"" {
                let triple = at(1) == "\"" && at(2) == "\""
                let quotes: [Unicode.Scalar] = triple ? ["\"", "\"", "\""] : ["\""]
                for _ in quotes { advance() }
                skip(past: quotes, escapes: true)
            } else if c == "'" || c == "`" {
                advance()
                skip(past: [c], escapes: true)
            } else {
                advance()
            }
        }
        return comments
    }

    /// `#` comments outside quotes (a `#` that starts a line or follows a space), and, for
    /// Python, triple-quoted strings.
    private static func hashComments(_ text: String, docstrings: Bool) -> [Comment] {
        var comments: [Comment] = []
        var docstring: (line: Int, text: String)?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            var line = raw
            if docstrings {
                if var open = docstring {
                    open.text += "\n" + raw
                    if raw.contains("\"\"\"") {
                        comments.append(Comment(line: open.line, text: open.text))
                        docstring = nil
                    } else {
                        docstring = open
                    }
                    continue
                }
                if let start = raw.range(of: "\"\"\"") {
                    let rest = raw[start.upperBound...]
                    if rest.contains("\"\"\"") {
                        comments.append(Comment(line: index + 1, text: String(raw[start.lowerBound...])))
                    } else {
                        docstring = (index + 1, String(raw[start.lowerBound...]))
                    }
                    line = String(raw[..<start.lowerBound])
                }
            }
            if let hash = commentStart(in: line) {
                comments.append(Comment(line: index + 1, text: String(line[hash...])))
            }
        }
        return comments
    }

    /// Where a `#` comment starts in a line, outside `'…'` and `"…"`: at the start, or after a
    /// space (so `$#` and `${#x}` are not comments).
    private static func commentStart(in line: String) -> String.Index? {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let c = line[index]
            if let open = quote {
                if c == open && previous != "\\" { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#" && (previous.isWhitespace || previous == "@") {
                // `@#` is a make recipe's silent comment.
                return index
            }
            previous = c
        }
        return nil
    }

    // A path of one or more segments ending in `.md`, with an optional anchor.
    private static let documentPath = try! NSRegularExpression(
        pattern: #"(?<![A-Za-z0-9_./-])[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.md(?:#[A-Za-z0-9_-]+)?(?![A-Za-z0-9_])"#)
    // "README" that is not part of a path to a `.md` file, nor the word quoted.
    private static let bareReadme = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_./"-])README(?![A-Za-z0-9_"]|\.md)"#)
}
