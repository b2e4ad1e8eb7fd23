import Foundation

/// Repeated timings: the median, with the spread (fastest and slowest).
struct Timing: Codable {
    var median: Double
    var min: Double
    var max: Double
    var runs: Int

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        median =
            sorted.isEmpty
            ? 0
            : (sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        runs = sorted.count
    }

    /// `12.3 ms [11.9–13.0]`
    var text: String { String(format: "%.1f ms [%.1f–%.1f]", median, min, max) }
}

/// Milliseconds taken by one run of `body`.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// Milliseconds taken by `body`, `runs` times (after one unmeasured warm-up).
func measure(runs: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Timing {
    if warmUp { try body() }
    var samples: [Double] = []
    for _ in 0..<runs { samples.append(try milliseconds(body)) }
    return Timing(samples)
}

/// Milliseconds taken by `first` and by `second`, run in turn `runs` times each (after one
/// unmeasured warm-up of each): this machine speeds up and slows down by a third within
/// minutes, and taking turns makes such a change fall on both alike, so their ratio holds.
func measureInTurn(runs: Int, _ first: () throws -> Void, _ second: () throws -> Void) rethrows -> (Timing, Timing) {
    try first()
    try second()
    var firstSamples: [Double] = [], secondSamples: [Double] = []
    for _ in 0..<runs {
        firstSamples.append(try milliseconds(first))
        secondSamples.append(try milliseconds(second))
    }
    return (Timing(firstSamples), Timing(secondSamples))
}

func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2fx", a / b) : "–" }

/// Prints a table with aligned columns.
func printTable(_ title: String, _ header: [String], _ rows: [[String]]) {
    print("\n## \(title)\n")
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
        "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ")
            + " |"
    }
    print(line(header))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    rows.forEach { print(line($0)) }
}
