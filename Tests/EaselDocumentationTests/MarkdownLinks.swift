import Foundation

/// The links and headings of a Markdown page, read the way GitHub renders it: links in fenced
/// code blocks and in code spans are text, not links, and a heading's anchor is its slug.
enum MarkdownLinks {
    /// A link on a page: its line (from 1) and its target as written (`docs/cli.md#export`).
    struct Link: Equatable {
        var line: Int
        var target: String
    }

    /// Every inline link and image (`[text](target)`, `![alt](target)`) and reference
    /// definition (`[name]: target`) outside fenced code blocks and code spans.
    static func links(in text: String) -> [Link] {
        var links: [Link] = []
        for (number, line) in linesOutsideFences(text) {
            let prose = removingCodeSpans(line)
            for match in inlineLink.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
                guard let range = Range(match.range(at: 1), in: prose) else { continue }
                links.append(Link(line: number, target: String(prose[range])))
            }
            if let match = referenceDefinition.firstMatch(in: prose, range: NSRange(prose.startIndex..., in: prose)),
                let range = Range(match.range(at: 1), in: prose)
            {
                links.append(Link(line: number, target: String(prose[range])))
            }
        }
        return links
    }

    /// The anchors of the page's headings, as GitHub makes them: lower case, every character
    /// but letters, digits, `_`, `-` and spaces removed, spaces made `-`; a repeated slug takes
    /// `-1`, `-2`, … in order.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        for (_, line) in linesOutsideFences(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let hashes = trimmed.firstIndex(where: { $0 != "#" }), trimmed.hasPrefix("#"),
                trimmed.distance(from: trimmed.startIndex, to: hashes) <= 6, trimmed[hashes] == " "
            else { continue }
            let base = slug(String(trimmed[hashes...]))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// The GitHub anchor of a heading's text.
    static func slug(_ heading: String) -> String {
        // A link in a heading is anchored by its text.
        let text = heading.replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        var slug = ""
        for character in text.trimmingCharacters(in: .whitespaces).lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// The page's lines with their numbers (from 1), leaving out fenced code blocks and
    /// their fences (a fence is a line starting with three backticks or tildes, indented or not).
    static func linesOutsideFences(_ text: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) && trimmed.allSatisfy({ $0 == open.first }) { fence = nil }
                continue
            }
            if let marker = ["```", "~~~"].first(where: { trimmed.hasPrefix($0) }) {
                fence = String(trimmed.prefix { $0 == marker.first })
                continue
            }
            result.append((index + 1, line))
        }
        return result
    }

    /// The line with its code spans (`` `…` ``, any number of backticks) blanked out.
    static func removingCodeSpans(_ line: String) -> String {
        codeSpan.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "``")
    }

    // The target stops at the first space (a title may follow) or closing parenthesis.
    private static let inlineLink = try! NSRegularExpression(pattern: #"!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)"#)
    private static let referenceDefinition = try! NSRegularExpression(pattern: #"^\s{0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?"#)
    private static let codeSpan = try! NSRegularExpression(pattern: #"(`+)(?:(?!\1).)+?\1"#)
}
