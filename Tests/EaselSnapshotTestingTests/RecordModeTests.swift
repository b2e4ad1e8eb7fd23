import EaselSnapshotTesting
import Testing

/// `withSnapshotTesting(record: .easel)`: Easel's rule over swift-snapshot-testing's setting.
@Suite("Snapshot record mode")
struct RecordModeTests {
    @Test func ciNeverRecordsAndTheLibrarysOwnVariableStillWins() {
        typealias Record = SnapshotTestingConfiguration.Record
        #expect(Record.easel(environment: [:]) == .missing)
        #expect(Record.easel(environment: ["CI": "true"]) == .never)
        #expect(Record.easel(environment: ["CI": "1"]) == .never)
        #expect(Record.easel(environment: ["CI": "false"]) == .missing)
        #expect(Record.easel(environment: ["CI": "0"]) == .missing)
        #expect(Record.easel(environment: ["CI": "true", "SNAPSHOT_TESTING_RECORD": "failed"]) == .failed)
        #expect(Record.easel(environment: ["SNAPSHOT_TESTING_RECORD": "all"]) == .all)
    }
}
