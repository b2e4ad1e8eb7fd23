import EaselGeometry
import FoundationEssentials

/// When goldens are written. Recording always fails the test that recorded, so that no
/// new or changed golden passes unseen.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Record goldens that do not exist yet (the default on a developer's machine).
    case missing
    /// Rewrite every golden whose pixels changed (identical ones are left alone).
    case all
    /// Rewrite goldens whose comparison failed.
    case failed
    /// Never write; a missing golden fails (the default when `CI` is set).
    case never

    /// The variable that chooses the mode: `EASEL_GOLDEN_RECORD=missing|all|failed|never`.
    public static let environmentVariable = "EASEL_GOLDEN_RECORD"

    /// Thrown when `EASEL_GOLDEN_RECORD` holds a value that is not a record mode.
    public struct UnknownMode: Error, CustomStringConvertible {
        /// The value found in the environment.
        public var value: String
        /// A message naming the bad value and the modes that exist.
        public var description: String {
            "\(RecordMode.environmentVariable)=\(value) is not a record mode; use one of \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }

    /// The mode from the environment: `EASEL_GOLDEN_RECORD` if set (an unknown value is an
    /// error, never a silent default), else `never` when `CI` is set, else `missing`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(UnknownMode)
        -> RecordMode
    {
        if let value = environment[environmentVariable], !value.isEmpty {
            guard let mode = RecordMode(rawValue: value.lowercased()) else { throw UnknownMode(value: value) }
            return mode
        }
        return isCI(environment) ? .never : .missing
    }

    /// True when `CI` is set to anything but empty, `false` or `0`: the rule every Easel
    /// record mode follows (the golden assertions, and `Record.easel` for swift-snapshot-testing).
    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let ci = environment["CI"] else { return false }
        return !ci.isEmpty && ci.lowercased() != "false" && ci != "0"
    }
}
