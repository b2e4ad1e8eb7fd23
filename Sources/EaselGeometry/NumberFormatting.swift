/// Formats a number for stable, human-readable text output (scene dumps, `info`):
/// at most four decimals, no trailing zeros, and no "-0".
public func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return String(describing: value) }
    let rounded = roundedForText(value)
    if rounded == rounded.rounded(), abs(rounded) < 1e15 {
        return String(Int64(rounded))
    }
    var text = String(rounded)
    if text.contains("e") { return text }
    while text.hasSuffix("0") { text.removeLast() }
    return text
}

/// `value` to the 1/10,000 that Easel prints numbers to, without "-0": the rounding noise
/// of a transform goes (149.99999999999997 is 150).
public func roundedForText(_ value: Double) -> Double {
    let rounded = (value * 10_000).rounded() / 10_000
    return rounded == 0 ? 0 : rounded  // turns -0 into 0
}
