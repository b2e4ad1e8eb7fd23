import EaselSupport
import EaselTestSupport
import Foundation
import Glibc

extension Results {
    /// Issue 18's goals, each measured in this run: `easel serve` under load on loopback.
    struct Serve: Codable {
        /// Cached PNG hits per second (wrk), and nginx serving the same PNG file statically.
        var cachedHitsPerSecond: Double?, nginxPerSecond: Double?
        /// Renders per second with the cache off (wrk), and `easel export --jobs 2` cards per second.
        var uncachedRendersPerSecond: Double, exportCardsPerSecond: Double
        /// Open-loop loads of more and more clients, each asking for an uncached render at an
        /// eighth of the sustainable rate (8 clients ask for what the server can do).
        var overload: [OverloadLevel], perClientRate: Double
        var rssBeforeMiB: Double, rssAfterOverloadMiB: Double
        /// Resident memory after half of this many cached requests, and after all of them.
        var requestsForRSS: Int, rssAfterHalfMiB: Double, rssAfterRequestsMiB: Double
    }
}

extension Results.Serve {
    /// One load of the overload table: what was asked for, what was served and how fast,
    /// and how fast the rest were refused.
    struct OverloadLevel: Codable {
        var clients: Int, offeredPerSecond: Double, seconds: Double
        var served: Int, servedPerSecond: Double, servedP50Milliseconds: Double, servedP99Milliseconds: Double
        var refused: Int, refusedP99Milliseconds: Double, other: Int
        /// The machine's CPU time the server and the load generator took while it lasted (1 = every core).
        var serverCPUShare: Double, loadCPUShare: Double
    }
}

extension Benchmarks {
    /// A running `easel serve` process.
    final class ServerProcess {
        let process: Process
        let port: Int
        init(easel: URL, folder: URL, extra: [String], log: URL) throws {
            process = Process()
            process.executableURL = easel
            process.arguments = ["serve", folder.path, "--port", "0"] + extra
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardError = handle
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            var found: Int?
            while Date() < deadline, found == nil {
                Thread.sleep(forTimeInterval: 0.05)
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"serving .* on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    found = Int(text[range].split(separator: ":").last ?? "")
                }
            }
            guard let found else {
                process.terminate()
                throw Failed(description: "easel serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            port = found
        }
        var rssMiB: Double {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        /// CPU seconds the server has used (user and system), from /proc.
        var cpuSeconds: Double { Self.cpuSeconds(stat: "/proc/\(process.processIdentifier)/stat") }
        /// Fields 14 and 15 of a /proc stat file (user and system clock ticks), in seconds.
        static func cpuSeconds(stat path: String) -> Double {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            // The name (field 2) is in parentheses and may hold spaces: count after it.
            guard let close = text.lastIndex(of: ")") else { return 0 }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
        func stop() {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    /// wrk's requests per second on `url` (nil when wrk is not installed).
    func wrk(_ url: String, connections: Int, seconds: Int) throws -> Double? {
        guard let wrk = which("wrk") else { return nil }
        let output = try run(wrk, ["-t2", "-c\(connections)", "-d\(seconds)s", url])
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func number(after prefix: String) -> Double? {
            lines.first { $0.hasPrefix(prefix) }.flatMap {
                Double($0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces))
            }
        }
        // "N requests in Ts": only successful answers count.
        guard let rate = number(after: "Requests/sec:"),
            let total = lines.first(where: { $0.contains(" requests in ") }).flatMap({ Double($0.split(separator: " ")[0]) }),
            total > 0
        else { return nil }
        let failed = number(after: "Non-2xx or 3xx responses:") ?? 0
        return rate * (total - failed) / total
    }

    /// Sends `rate` requests a second for `seconds`, whatever the answers (an open loop, as
    /// real clients arrive), each on its own connection; returns each request's status and time.
    func openLoop(port: Int, path: @escaping @Sendable (Int) -> String, rate: Double, seconds: Double) -> [(
        status: Int, ms: Double
    )] {
        let total = max(1, Int(rate * seconds))
        let results = Locked([(status: Int, ms: Double)]())
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<total {
            let due = start + UInt64(Double(index) / rate * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(UInt32((due - now) / 1000)) }
            group.enter()
            Thread {
                let started = DispatchTime.now().uptimeNanoseconds
                let status = (try? RawHTTP.request(port: port, method: "GET", path: path(index)).status) ?? 0
                let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                results.withLock { $0.append((status, ms)) }
                group.leave()
            }.start()
        }
        group.wait()
        return results.withLock { $0 }
    }

    /// `clients` clients each asking for `path(i)` `perClientRate` times a second for
    /// `seconds`, open loop (`OpenLoopLoad`): one load of the overload table.
    func overloadLevel(
        server: ServerProcess, clients: Int, perClientRate: Double, seconds: Double, path: @escaping @Sendable (Int) -> String
    ) -> Results.Serve.OverloadLevel {
        let started = DispatchTime.now().uptimeNanoseconds
        let (serverCPU, loadCPU) = (server.cpuSeconds, ServerProcess.cpuSeconds(stat: "/proc/self/stat"))
        let answers = OpenLoopLoad.run(port: server.port, clients: clients, rate: perClientRate, seconds: seconds, path: path)
        let lasted = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let machine = lasted * Double(ProcessInfo.processInfo.activeProcessorCount)
        let served = answers.filter { $0.status == 200 }.map(\.milliseconds).sorted()
        let refused = answers.filter { $0.status == 503 }.map(\.milliseconds).sorted()
        func percentile(_ values: [Double], _ p: Double) -> Double {
            values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * p))]
        }
        // Per second over the time the load lasted (until the last answer).
        return Results.Serve.OverloadLevel(
            clients: clients, offeredPerSecond: Double(answers.count) / lasted, seconds: lasted, served: served.count,
            servedPerSecond: Double(served.count) / lasted, servedP50Milliseconds: percentile(served, 0.5),
            servedP99Milliseconds: percentile(served, 0.99), refused: refused.count,
            refusedP99Milliseconds: percentile(refused, 0.99), other: answers.count - served.count - refused.count,
            serverCPUShare: (server.cpuSeconds - serverCPU) / machine,
            loadCPUShare: (ServerProcess.cpuSeconds(stat: "/proc/self/stat") - loadCPU) / machine)
    }

    /// 9. easel serve: cached hits against nginx, uncached renders against the CLI batch,
    /// the overload table (8, 64 and 256 open-loop clients), memory after many requests.
    func serve() throws -> Results.Serve {
        let easel = binaries.appendingPathComponent("easel")
        let cards = try inputs.cardFolder(scale.smoke ? 4 : 40)
        let names = try FileManager.default.contentsOfDirectory(atPath: cards.path).filter { $0.hasSuffix(".rwcard") }.sorted()
        let card = names[0]
        let seconds = scale.smoke ? 1 : 5

        // Cached hits, and nginx serving the very same PNG bytes as a static file.
        let cached = try ServerProcess(
            easel: easel, folder: cards, extra: [], log: inputs.folder.appendingPathComponent("serve-cached.log"))
        defer { cached.stop() }
        let rssBefore = cached.rssMiB
        let cachedURL = "http://127.0.0.1:\(cached.port)/api/documents/\(card)/render.png"
        let png = try RawHTTP.request(port: cached.port, method: "GET", path: "/api/documents/\(card)/render.png")
        let hits = try wrk(cachedURL, connections: 32, seconds: seconds)
        let nginxRate = try nginx(serving: png.body) { url in try wrk(url, connections: 32, seconds: seconds) }

        // Uncached renders (no cache), against the batch exporter on the same cards.
        let uncached = try ServerProcess(
            easel: easel, folder: cards, extra: ["--cache-mb", "0"],
            log: inputs.folder.appendingPathComponent("serve-uncached.log"))
        defer { uncached.stop() }
        let uncachedURL = "http://127.0.0.1:\(uncached.port)/api/documents/\(card)/render.png"
        let renders: Double
        if let measured = try wrk(uncachedURL, connections: 4, seconds: seconds) {
            renders = measured
        } else {
            let started = DispatchTime.now().uptimeNanoseconds
            let count = scale.smoke ? 4 : 40
            _ = openLoop(
                port: uncached.port, path: { _ in "/api/documents/\(card)/render.png" }, rate: 1000, seconds: Double(count) / 1000
            )
            renders = Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        }
        let out = inputs.folder.appendingPathComponent("serve-export")
        try? FileManager.default.removeItem(at: out)
        let exportStarted = DispatchTime.now().uptimeNanoseconds
        try run(easel, ["export", cards.path, "--out", out.path, "--jobs", "2", "--quiet"])
        let exportRate = Double(scale.smoke ? 4 : 40) / (Double(DispatchTime.now().uptimeNanoseconds - exportStarted) / 1e9)

        // More and more clients, open loop (each asks on time whatever the answers, as people
        // and services do): the served requests' throughput and latency, the refusals' latency.
        let perClient = max(0.25, renders / 8)
        let overload = [8, 64, 256].map { clients in
            overloadLevel(
                server: uncached, clients: clients, perClientRate: perClient, seconds: scale.smoke ? 0.5 : Double(seconds)
            ) { index in "/api/documents/\(names[index % names.count])/render.png" }
        }
        let rssAfterOverload = uncached.rssMiB

        // Memory after many requests (cached hits), in two halves: flat means the same after both.
        let requests = scale.smoke ? 200 : 100_000
        var rssAfterHalf = 0.0
        for _ in 0..<2 {
            if let wrk = which("wrk"), !scale.smoke {
                // Half the requests: wrk runs for as long as that takes at the measured rate.
                let duration = max(2, Int(Double(requests / 2) / max(1, hits ?? 1000)) + 1)
                try run(wrk, ["-t2", "-c32", "-d\(duration)s", cachedURL])
            } else {
                _ = openLoop(
                    port: cached.port, path: { _ in "/api/documents/\(card)/render.png" }, rate: 2000,
                    seconds: Double(requests / 2) / 2000)
            }
            if rssAfterHalf == 0 { rssAfterHalf = cached.rssMiB }
        }
        return Results.Serve(
            cachedHitsPerSecond: hits, nginxPerSecond: nginxRate, uncachedRendersPerSecond: renders,
            exportCardsPerSecond: exportRate, overload: overload, perClientRate: perClient, rssBeforeMiB: rssBefore,
            rssAfterOverloadMiB: rssAfterOverload, requestsForRSS: requests, rssAfterHalfMiB: rssAfterHalf,
            rssAfterRequestsMiB: cached.rssMiB)
    }

    /// Runs `measure` against nginx serving `bytes` as a static file on loopback with two
    /// workers (the limit a cache hit is compared with); nil when nginx is not installed.
    func nginx(serving bytes: [UInt8], _ measure: (String) throws -> Double?) throws -> Double? {
        guard
            let nginx = which("nginx")
                ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
                    ? URL(fileURLWithPath: "/usr/sbin/nginx") : nil)
        else { return nil }
        let prefix = inputs.folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("html"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try Data(bytes).write(to: prefix.appendingPathComponent("html/card.png"))
        let port = Int.random(in: 20_000...40_000)
        let config = """
            worker_processes 2;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/logs/error.log;
            events { worker_connections 1024; }
            http {
              access_log off;
              sendfile on;
              client_body_temp_path \(prefix.path)/tmp;
              proxy_temp_path \(prefix.path)/tmp;
              fastcgi_temp_path \(prefix.path)/tmp;
              uwsgi_temp_path \(prefix.path)/tmp;
              scgi_temp_path \(prefix.path)/tmp;
              server { listen 127.0.0.1:\(port); root \(prefix.path)/html; }
            }
            """
        let conf = prefix.appendingPathComponent("nginx.conf")
        try config.write(to: conf, atomically: true, encoding: .utf8)
        try run(nginx, ["-p", prefix.path, "-c", conf.path])
        defer { _ = try? run(nginx, ["-p", prefix.path, "-c", conf.path, "-s", "stop"]) }
        Thread.sleep(forTimeInterval: 0.3)
        return try measure("http://127.0.0.1:\(port)/card.png")
    }
}
