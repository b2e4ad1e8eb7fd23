/// Formats a number for stable, human-readable text output (scene dumps, `info`):
/// at most four decimals, no trailing zeros, and no "-0".
public func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return String(describing: value) }
    var rounded = (value * 10_000).rounded() / 10_000
    if rounded == 0 { rounded = 0 }  // turns -0 into 0
    if rounded == rounded.rounded(), abs(rounded) < 1e15 {
        return String(Int64(rounded))
    }
    var text = String(rounded)
    if text.contains("e") { return text }
    while text.hasSuffix("0") { text.removeLast() }
    return text
}
