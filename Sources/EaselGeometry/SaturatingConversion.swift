/// Conversions from `Double` that cannot trap.
///
/// Swift's `Int(_: Double)` stops the process on NaN, an infinity or a value outside `Int`'s
/// range, and any number that came from a document, a request or a flag can be one of those
/// (a dash of 1e-300 makes an infinite dash count). Every conversion of such a number goes
/// through here instead; `Int(exactly:)` is the other safe form, where a fraction must fail.
extension Int {
    /// `value` rounded toward zero and clamped to `Int`'s range; NaN is 0.
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.223_372_036_854_775e18 {
            self = .max
        } else if value <= -9.223_372_036_854_775e18 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}

extension Int32 {
    /// `value` rounded toward zero and clamped to `Int32`'s range; NaN is 0.
    package init(saturating value: Double) {
        self = value.isNaN ? 0 : Int32(Swift.min(Swift.max(value, Double(Int32.min)), Double(Int32.max)))
    }
}

extension Int64 {
    /// `value` rounded toward zero and clamped to `Int64`'s range; NaN is 0.
    package init(saturating value: Double) {
        self = Int64(Int(saturating: value))
    }
}
