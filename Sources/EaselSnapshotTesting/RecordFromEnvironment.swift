import EaselGolden
import Foundation
import SnapshotTesting

extension SnapshotTestingConfiguration.Record {
    /// The record mode by Easel's rule, for `withSnapshotTesting(record: .easel)`:
    /// `SNAPSHOT_TESTING_RECORD` when set (swift-snapshot-testing's own variable), else
    /// `never` when `CI` is set (and not `false` or `0`), else `missing`.
    ///
    /// swift-snapshot-testing's own default is `missing` everywhere, CI included, so a CI
    /// run without references would record them and fail only that once; with this mode a
    /// missing reference in CI is a failure every time and nothing is written.
    public static var easel: Self { easel(environment: ProcessInfo.processInfo.environment) }

    /// The same rule over the given environment (tests pass their own).
    public static func easel(environment: [String: String]) -> Self {
        if let value = environment["SNAPSHOT_TESTING_RECORD"], let mode = Self(rawValue: value) { return mode }
        return RecordMode.isCI(environment) ? .never : .missing
    }
}
