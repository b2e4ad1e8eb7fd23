import Foundation
import MultipartKit
import NIOCore

/// `multipart/form-data` bodies (RFC 7578) held in memory, read with Vapor's MultipartKit:
/// each part's name, filename and bytes. Easel adds what a service needs around it: a
/// body must end with its closing boundary (a truncated upload is refused, not half
/// used), every part must be named, and there are at most `maxParts` parts.
enum MultipartBody {
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
        guard contains(Array("--\(boundary)--".utf8), in: body) else {
            throw Problem(.badRequest, "the multipart body does not end with its closing boundary (truncated?)")
        }
        let parser = MultipartParser(boundary: boundary)
        var parts: [Part] = [], headers: [(String, String)] = [], bytes: [UInt8] = []
        var tooMany = false, unnamed = false
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { buffer in bytes += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        parser.onPartComplete = {
            defer {
                headers = []
                bytes = []
            }
            guard parts.count < maxParts else {
                tooMany = true
                return
            }
            guard let (name, filename) = disposition(headers) else {
                unnamed = true
                return
            }
            parts.append(Part(name: name, filename: filename, bytes: bytes))
        }
        do {
            try parser.execute(body)
        } catch {
            throw Problem(.badRequest, "the multipart body is malformed (\(error))")
        }
        if tooMany { throw Problem(.contentTooLarge, "more than \(maxParts) parts in one request") }
        if unnamed { throw Problem(.badRequest, "a multipart part has no Content-Disposition name") }
        return parts
    }

    /// The name and filename of a part's `Content-Disposition: form-data; name="…"; filename="…"`.
    private static func disposition(_ headers: [(String, String)]) -> (String, String?)? {
        guard let value = headers.first(where: { $0.0.lowercased() == "content-disposition" })?.1 else { return nil }
        var name: String?, filename: String?
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            var text = pair[1]
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            switch pair[0].lowercased() {
            case "name": name = text
            case "filename": filename = text
            default: break
            }
        }
        return name.map { ($0, filename) }
    }

    private static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for index in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
