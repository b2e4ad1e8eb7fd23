import Dispatch

/// Turns a time allowed, in seconds, into a scene's deadline (`Scene.deadline`): the one
/// rule the CLI's `--timeout` and the server's render timeout share.
public enum RenderTimeout {
    /// The longest time allowed, in seconds (a day): a larger one is taken as this, so the
    /// deadline never overflows.
    public static let maxSeconds: Double = 86_400

    /// The deadline `seconds` from now, in `DispatchTime` uptime nanoseconds; nil for no limit.
    /// Negative or NaN seconds mean a deadline already past.
    public static func deadline(seconds: Double?) -> UInt64? {
        guard let seconds else { return nil }
        let allowed = seconds.isNaN ? 0 : min(max(0, seconds), maxSeconds)
        return DispatchTime.now().uptimeNanoseconds + UInt64(allowed * 1e9)
    }
}
