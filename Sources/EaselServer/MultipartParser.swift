import Foundation

/// A strict reader of `multipart/form-data` bodies (RFC 7578) held in memory: each part's
/// name, filename and bytes. It refuses, rather than guesses at, a body that does not
/// follow the format, and stops at `maxParts`.
enum MultipartParser {
    struct Part {
        var name: String
        var filename: String?
        var bytes: [UInt8]
    }

    /// The boundary parameter of a Content-Type header.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    static func parse(_ body: [UInt8], boundary: String, maxParts: Int) throws(Problem) -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        guard var position = find(delimiter, in: body, from: 0) else {
            throw Problem(.badRequest, "the multipart body does not contain its boundary")
        }
        var parts: [Part] = []
        while true {
            position += delimiter.count
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") {
                return parts
            }
            guard body.count >= position + 2, body[position] == 0x0D, body[position + 1] == 0x0A else {
                throw Problem(.badRequest, "the multipart body is malformed after a boundary")
            }
            position += 2
            guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: position), headerEnd - position <= 8192 else {
                throw Problem(.badRequest, "a multipart part has no end to its headers")
            }
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
            position = headerEnd + 4
            guard let next = find([0x0D, 0x0A] + delimiter, in: body, from: position) else {
                throw Problem(.badRequest, "the multipart body ends inside a part (truncated?)")
            }
            guard parts.count < maxParts else { throw Problem(.contentTooLarge, "more than \(maxParts) parts in one request") }
            let (name, filename) = try disposition(headers)
            parts.append(Part(name: name, filename: filename, bytes: Array(body[position..<next])))
            position = next + 2
        }
    }

    private static func disposition(_ headers: String) throws(Problem) -> (String, String?) {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else {
                continue
            }
            var name: String?, filename: String?
            for parameter in pair[1].split(separator: ";").dropFirst() {
                let kv = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard kv.count == 2 else { continue }
                var value = kv[1]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                switch kv[0].lowercased() {
                case "name": name = value
                case "filename": filename = value
                default: break
                }
            }
            guard let name else { break }
            return (name, filename)
        }
        throw Problem(.badRequest, "a multipart part has no Content-Disposition name")
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
