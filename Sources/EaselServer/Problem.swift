import EaselSupport
import Foundation
import Hummingbird

/// An error answered as RFC 9457 `application/problem+json`: a status, a title, what went
/// wrong in words, and, when a document is involved, which one and the JSON key path.
/// Every failure of `easel serve` reaches the client as one of these.
public struct Problem: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// What went wrong, for people.
    public var detail: String
    /// The document's path relative to the served folder, when one is involved.
    public var document: String?
    /// The JSON key path in the document or request body, when known.
    public var keyPath: String?
    /// Extra members of the problem object (the current revision of a stale edit).
    public var extensions: [String: String] = [:]
    /// Extra response headers (`Retry-After`, `ETag`).
    public var headers: HTTPFields = [:]
    /// What the server's log says of a server fault: the error with its paths, which the
    /// client's `detail` hides. Never sent.
    public var logDetail: String?

    /// A problem with `status` and `detail`.
    public init(_ status: HTTPResponse.Status, _ detail: String, document: String? = nil, keyPath: String? = nil) {
        self.status = status
        self.detail = detail
        self.document = document
        self.keyPath = keyPath
    }

    public var description: String { "\(status.code) \(detail)" }

    /// A busy server's 503 with `Retry-After` (seconds). `nothingDone` says the request was
    /// refused before anything of it was done (its body may not even have been read), so a
    /// client may send it again as it is, a POST too: the problem's `nothingDone` member is
    /// then `"true"`. A request given up at its timeout is not such a one: its work may
    /// still finish.
    static func busy(_ detail: String, retryAfter seconds: Int = 1, nothingDone: Bool) -> Problem {
        var problem = Problem(.serviceUnavailable, detail)
        problem.headers[.retryAfter] = "\(seconds)"
        if nothingDone { problem.extensions["nothingDone"] = "true" }
        return problem
    }

    /// The problem object: type, title, status, detail, document, keyPath and extensions.
    public var json: [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("about:blank")), ("title", .string(status.reasonPhrase)), ("status", .number(Double(status.code))),
            ("detail", .string(detail)),
        ]
        if let document { members.append(("document", .string(document))) }
        if let keyPath, !keyPath.isEmpty { members.append(("keyPath", .string(keyPath))) }
        for (key, value) in extensions.sorted(by: { $0.key < $1.key }) { members.append((key, .string(value))) }
        return JSONWriter.prettyPrinted(.object(members))
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    // MARK: From Easel's errors

    /// A document that cannot be read or is not valid: 400 naming the key path (the file's
    /// path is shown relative to the served folder, never as a server path).
    static func invalidDocument(_ error: DocumentError, document: String, folder: URL) -> Problem {
        let status: HTTPResponse.Status
        switch error.kind {
        case .limitExceeded: status = .contentTooLarge
        default: status = .badRequest
        }
        return Problem(
            status, ServedFolder.hidingServerPaths(in: error.description, folder: folder), document: document,
            keyPath: error.keyPath.isEmpty ? nil : error.keyPath)
    }
}
