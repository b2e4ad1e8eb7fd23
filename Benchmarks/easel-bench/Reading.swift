import EaselDocuments
import EaselRender
import EaselSupport
import Foundation

extension Results {
    /// Reading the 1,000-shape drawing in one process, stage by stage (warm: the process
    /// has read it before, so the figures are CPU, not page faults or the disk).
    struct Reading: Codable {
        var fileBytes: Int
        var readFile: Timing, parse: Timing, parseAndDecode: Timing, lower: Timing
    }
}

extension Benchmarks {
    /// 10. Where a single export of the 1,000-shape drawing spends the time before its first
    /// band: the bytes read, parsed into a JSON tree, decoded into a `Drawing` (the tree's
    /// parse included, as `DrawingDecoder.decode` does both), and lowered to a scene.
    func reading() throws -> Results.Reading {
        let url = try inputs.save(inputs.shapes(1000), as: "reading-shapes")
        let runs = max(3, scale.iterations * 5)
        var bytes: [UInt8] = []
        let readFile = try measure(runs: runs) {
            bytes = try FileIO.readBytes(at: url.path, maxBytes: DrawingLimits.maxFileBytes)
        }
        let parse = try measure(runs: runs) { _ = try JSONNode.parse(bytes, file: url.path) }
        let parseAndDecode = try measure(runs: runs) {
            var warnings: [DocumentWarning] = []
            _ = try Drawing(decoding: bytes, file: url.path, warnings: &warnings)
        }
        let document = try DocumentRegistry.standard.open(url)
        let lower = try measure(runs: runs) { _ = try DocumentRenderer.scene(for: document) }
        return Results.Reading(
            fileBytes: bytes.count, readFile: readFile, parse: parse, parseAndDecode: parseAndDecode, lower: lower)
    }
}
