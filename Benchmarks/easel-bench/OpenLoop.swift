import EaselSupport
import EaselTestSupport
import Foundation
import Glibc

/// An open-loop load of many clients, as the overload table measures it: each client holds
/// a keep-alive connection (as a browser or a service does) and asks on its own schedule,
/// `rate` times a second, whatever the answers; a request due while the client's previous
/// one is still out goes the moment that is answered. Each answer's status and time (from
/// its sending to its last byte) is kept. Clients start spread over one period, so the load
/// is even from the first moment.
enum OpenLoopLoad {
    struct Answer: Sendable {
        var status: Int
        var milliseconds: Double
    }

    static func run(
        port: Int, clients: Int, rate: Double, seconds: Double, path: @escaping @Sendable (Int) -> String
    ) -> [Answer] {
        let answers = Locked([Answer]())
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds + 50_000_000
        let period = 1 / rate
        let perClient = max(1, Int(seconds * rate))
        for client in 0..<clients {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var connection: Int32 = -1
                var mine: [Answer] = []
                for index in 0..<perClient {
                    let due = start + UInt64((Double(client) / Double(clients) + Double(index)) * period * 1e9)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { usleep(UInt32(min(1_000_000, (due - now) / 1000))) }
                    let sent = DispatchTime.now().uptimeNanoseconds
                    let status = get(path(client * perClient + index), port: port, connection: &connection)
                    mine.append(Answer(status: status, milliseconds: Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e6))
                }
                if connection >= 0 { close(connection) }
                answers.withLock { $0 += mine }
            }
            thread.stackSize = 256 << 10
            thread.start()
        }
        group.wait()
        return answers.withLock { $0 }
    }

    /// One GET on the client's connection (opened, or opened again after the server closed
    /// it); the answer's status, 0 when none came.
    static func get(_ path: String, port: Int, connection: inout Int32) -> Int {
        for _ in 0..<2 {
            if connection < 0 { connection = (try? RawHTTP.connect(port: port, timeout: 60)) ?? -1 }
            guard connection >= 0 else { return 0 }
            let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
            if (try? RawHTTP.send(connection, Array(request.utf8))) != nil, let status = readResponse(connection) {
                return status
            }
            close(connection)
            connection = -1
        }
        return 0
    }

    /// Reads one response (its head, then a body of `Content-Length` bytes or chunks up to
    /// the last); its status, nil when the connection ended first.
    static func readResponse(_ socket: Int32) -> Int? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        func more() -> Bool {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            bytes += buffer[0..<count]
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            guard more() else { return nil }
            headEnd = RawHTTP.find([13, 10, 13, 10], in: bytes)
        }
        guard let end = headEnd else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let length = lines.first { $0.hasPrefix("content-length:") }.flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }
        if let length {
            while bytes.count - (end + 4) < length { guard more() else { return nil } }
        } else if head.contains("transfer-encoding: chunked") {
            while RawHTTP.find([13, 10, 48, 13, 10, 13, 10], in: bytes, from: max(end, bytes.count - 64)) == nil {
                guard more() else { return nil }
            }
        }
        return status
    }
}
