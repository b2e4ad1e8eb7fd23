import EaselTestSupport
import Foundation

extension EaselScratch {
    /// The PNGs below `relative` (paths relative to the scratch folder).
    func pngs(in relative: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder.file(relative).path) ?? []).filter { $0.hasSuffix(".png") }
            .map { relative + "/" + $0 }
    }

    /// The totals of the report a run wrote at `name`.
    func totals(_ name: String) throws -> [String: Any] {
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file(name))) as? [String: Any]
        return report?["totals"] as? [String: Any] ?? [:]
    }
}
