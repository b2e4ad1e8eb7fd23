import Dispatch
import EaselSupport
import FoundationEssentials
import Glibc

/// Turns a render's deadline (`DispatchTime` uptime nanoseconds, as `Scene.deadline`) into
/// the time a C decoder may take from now, which it counts on its own monotonic clock; and
/// keeps a thread's default deadline for decodes that are not handed one.
package enum DecodeDeadline {
    /// Nanoseconds left before `deadline` (nil: no limit); throws `.pastDeadline` when none
    /// are left, so a decode that could not finish in time is not started.
    static func nanosecondsLeft(before deadline: UInt64?) throws(PNGError) -> UInt64? {
        guard let deadline else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        guard deadline > now else { throw .pastDeadline }
        return deadline - now
    }

    private static let threadDefault = ThreadLocal<UInt64?> { nil }

    /// Runs `work` with `deadline` as this thread's default for every decode in it that is
    /// given none (an upload's image, decoded deep inside an edit): a worker pool bounds
    /// whatever it runs this way. The previous default is restored after.
    package static func applying<T>(_ deadline: UInt64?, to work: () throws -> T) rethrows -> T {
        let previous = threadDefault.value
        threadDefault.value = deadline
        defer { threadDefault.value = previous }
        return try work()
    }

    /// This thread's default deadline (see `applying(_:to:)`), or nil.
    static var current: UInt64? { threadDefault.value }
}
