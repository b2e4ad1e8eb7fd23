import Foundation
import Glibc

/// HTTP/1.1 over a plain socket: what the tests send is exactly what goes on the wire
/// (hostile requests included), and what comes back is read as the server wrote it.
public enum RawHTTP {
    public struct Response: Sendable {
        public var status: Int
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object.
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    }

    /// A connected socket to 127.0.0.1:`port`, with receive and send timeouts.
    public static func connect(port: Int, timeout: Double = 20) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket: \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw TestFailure("connect to port \(port): errno \(errno)")
        }
        return socket
    }

    public static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw TestFailure("send failed: errno \(errno)") }
            sent += count
        }
    }

    /// Everything the server sends, and whether it ended because the server closed the
    /// connection (rather than the socket's timeout or an error).
    public static func readUntilClosed(_ socket: Int32) -> (bytes: [UInt8], closedByServer: Bool) {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (result, true) }
            if count < 0 { return (result, errno == ECONNRESET) }
            result += buffer[0..<count]
        }
    }

    /// Sends `bytes` on a thread of its own while reading everything the server sends
    /// until it closes. A server that refuses a body part-way answers and closes while the
    /// client is still sending; the closing resets the connection, and a response not yet
    /// read by then is lost — reading at the same time as sending keeps it.
    public static func sendWhileReading(_ socket: Int32, _ bytes: [UInt8]) -> [UInt8] {
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? send(socket, bytes)
            sent.signal()
        }
        let response = readAll(socket)
        sent.wait()
        return response
    }

    /// Everything the server sends until it closes the connection (or the timeout).
    public static func readAll(_ socket: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// Sends one request with `Connection: close` and reads the whole response.
    public static func request(
        port: Int, method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> Response {
        let socket = try connect(port: port)
        defer { close(socket) }
        // The Host a test gives (a proxy's, a public name's) replaces this machine's own.
        let host = headers.first { $0.key.lowercased() == "host" }?.value ?? "127.0.0.1:\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers where name.lowercased() != "host" { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(socket, Array(head.utf8) + body)
        return try parse(readAll(socket))
    }

    public static func parse(_ bytes: [UInt8]) throws -> Response {
        guard let end = find([13, 10, 13, 10], in: bytes) else {
            throw TestFailure(
                "no complete response head in \(bytes.count) bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    public static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [], index = 0
        while let lineEnd = find([13, 10], in: bytes, from: index) {
            let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd + 2
            guard start + size <= bytes.count else {
                result += bytes[start...]
                break
            }
            result += bytes[start..<start + size]
            index = start + size + 2
        }
        return result
    }

    public static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

/// Runs blocking work (sockets, subprocesses) on a thread of its own and awaits it. Not on
/// Dispatch's global queues: on Linux Swift's tasks run on those same threads, so blocking
/// them would starve a server under test in the same process.
public func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// A test step that could not be carried out, saying why.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Reads an event stream from a socket, keeping what arrived.
public final class EventReader: @unchecked Sendable {
    public let socket: Int32
    private var received: [UInt8] = []

    public init(socket: Int32) { self.socket = socket }

    /// Waits (up to the socket's timeout) until `marker` has arrived; returns everything so far.
    public func read(until marker: String) async throws -> String {
        try await offThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: received, as: UTF8.self).contains(marker) {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    throw TestFailure(
                        "the stream ended or timed out before \(marker): \(String(decoding: received, as: UTF8.self))")
                }
                received += buffer[0..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }
    }
}
