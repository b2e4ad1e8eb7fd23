import CoreMetrics
import Foundation
import Metrics
import Prometheus

/// The service's metrics, through swift-metrics into a Prometheus registry of this server's
/// own (two servers in one process, as in the tests, keep separate figures): requests by
/// route and status, latency by route, render time, cache hits and misses, queue depth.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    /// Counts a finished request and records its latency.
    func request(route: String, method: String, status: Int, nanoseconds: UInt64) {
        Counter(
            label: "easel_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        ).increment()
        Metrics.Timer(label: "easel_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Records a render's time (a cache miss).
    func render(format: String, nanoseconds: UInt64) {
        Metrics.Timer(label: "easel_render_duration_seconds", dimensions: [("format", format)], factory: factory)
            .recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Counts a render request answered from the cache (`hit`) or rendered.
    func cache(hit: Bool) {
        Counter(label: hit ? "easel_render_cache_hits_total" : "easel_render_cache_misses_total", factory: factory).increment()
    }

    /// Sets the gauges read at scrape time.
    func gauges(queueDepth: Int, bodyBytes: Int, cacheEntries: Int, cacheBytes: Int, subscribers: Int) {
        Gauge(label: "easel_render_queue_depth", factory: factory).record(queueDepth)
        Gauge(label: "easel_request_body_bytes_reserved", factory: factory).record(bodyBytes)
        Gauge(label: "easel_render_cache_entries", factory: factory).record(cacheEntries)
        Gauge(label: "easel_render_cache_bytes", factory: factory).record(cacheBytes)
        Gauge(label: "easel_event_subscribers", factory: factory).record(subscribers)
    }

    /// The Prometheus text exposition.
    func exposition() -> [UInt8] { registry.emitToBuffer() }

    /// A bounded route label for a request path: routes, never raw document paths.
    static func route(method: String, path: String) -> String {
        let path = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        switch path {
        case "/api/documents", "/api/documents/": return "/api/documents"
        case "/api/render", "/api/events", "/healthz", "/readyz", "/metrics": return path
        default: break
        }
        if path.hasPrefix("/api/documents/") {
            let last = path.split(separator: "/").last.map(String.init) ?? ""
            switch (method, last) {
            case ("GET", "render.png"), ("GET", "render.svg"), ("GET", "render.pdf"): return "/api/documents/{path}/\(last)"
            case ("POST", "edits"), ("POST", "undo"), ("POST", "redo"), ("POST", "duplicate"), ("POST", "images"):
                return "/api/documents/{path}/\(last)"
            default: return "/api/documents/{path}"
            }
        }
        return "other"
    }
}
