import EaselDocuments
import EaselEditing
import EaselTestSupport
import Foundation
import Testing

/// Two `easel serve` replicas on one folder, each with a state folder of its own (as two
/// machines have), and the CLI, all editing one document at once: the revision an `If-Match`
/// names is compared and the edit written under a lock all of them see (beside the document),
/// so no edit that was answered 2xx is ever lost; and an undo on a replica whose history
/// another wrote past says so (409) instead of "nothing to undo".
@Suite("easel serve: replicas and the CLI editing one document")
struct ReplicaEditingTests {
    static let document = "shared.drawing"
    /// Each client's edits: enough for hundreds of contended attempts (every save rewrites a
    /// document that grows with each edit, so 50 each took 40 s of the suite's time).
    static let editsPerClient = 15

    struct Outcome: Sendable {
        var names: [String] = []
        var revisions: [String] = []
        var unexpected: [String] = []
    }

    /// One client: `count` edits, each adding a rectangle named for it, each sent with the
    /// revision it last saw and retried on 412 with the current one, to the replicas in turn.
    static func client(_ id: Int, count: Int, replicas: [LiveServer], initial: String) async throws -> Outcome {
        var outcome = Outcome()
        var revision = initial
        var attempts = 0
        while outcome.names.count < count, attempts < count * 200 {
            attempts += 1
            let name = "c\(id)-e\(outcome.names.count)"
            let server = replicas[attempts % replicas.count]
            let body = #"{"verb":"add","kind":"rect","at":[50,50],"size":[4,4],"name":"\#(name)"}"#
            let response = try await server.request(
                "POST", "/api/documents/\(document)/edits",
                headers: ["Content-Type": "application/json", "If-Match": "\"\(revision)\""], body: Array(body.utf8))
            switch response.status {
            case 200:
                outcome.names.append(name)
                revision = try #require(response.json["revision"] as? String)
                outcome.revisions.append(revision)
            case 412:
                revision = try #require(response.json["currentRevision"] as? String)
            case 409, 503:
                continue  // the lock was busy past its timeout: try again
            default:
                outcome.unexpected.append("\(response.status): \(response.text)")
            }
        }
        return outcome
    }

    /// A new drawing in a folder, served by two replicas with state folders of their own.
    static func replicas() async throws -> (document: URL, first: LiveServer, second: LiveServer) {
        let folder = TemporaryFolder("easel-replicas")
        let url = folder.file(document)
        _ = try DocumentEditor.create(Drawing(), at: url, stateFolder: TemporaryFolder("easel-create-state").url)
        let first = try await LiveServer.start(folder, state: TemporaryFolder("easel-state-a"))
        let second = try await LiveServer.start(folder, state: TemporaryFolder("easel-state-b"))
        return (url, first, second)
    }

    @Test func noEditAnswered2xxIsLostAcrossReplicasAndTheCLI() async throws {
        let (url, first, second) = try await Self.replicas()
        defer {
            Task {
                try await first.stop()
                try await second.stop()
            }
        }
        let initial = DocumentServiceRevision.of(Array(try Data(contentsOf: url)))
        let cliState = TemporaryFolder("easel-state-cli")
        // The CLI adds its own rectangles meanwhile, with a third state folder (on a thread of
        // its own: waiting for a process must not hold one of Swift concurrency's threads).
        let cli = Task {
            try await offThread { () throws -> [String] in
                var added: [String] = []
                for index in 0..<8 {
                    let name = "cli-\(index)"
                    let result = try ProcessRunner.run(
                        ProcessRunner.easelExecutable,
                        ["add", url.path, "rect", "--at", "20,20", "--size", "3x3", "--name", name],
                        environment: ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": cliState.url.path]) { $1 })
                    if result.status == 0 { added.append(name) }
                }
                return added
            }
        }
        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            // Eight clients on one document: most attempts meet another's newer revision.
            for id in 0..<8 {
                group.addTask {
                    try await Self.client(id, count: Self.editsPerClient, replicas: [first, second], initial: initial)
                }
            }
            return try await group.reduce(into: [Outcome]()) { $0.append($1) }
        }
        let cliAdded = try await cli.value
        for outcome in outcomes { #expect(outcome.unexpected.isEmpty, "\(outcome.unexpected.prefix(3))") }
        let answered = outcomes.flatMap(\.names)
        #expect(answered.count == 8 * Self.editsPerClient, "every client made its edits")
        #expect(!cliAdded.isEmpty, "the CLI's edits went in among them")

        let drawing = try #require(try DocumentRegistry.standard.open(url).document as? Drawing)
        let names = drawing.graphics.compactMap(\.name)
        let lost = (answered + cliAdded).filter { !names.contains($0) }
        #expect(lost.isEmpty, "edits answered 2xx but lost: \(lost.prefix(10))")
        #expect(Set(names).count == names.count, "no edit was applied twice")
        let revisions = outcomes.flatMap(\.revisions)
        #expect(Set(revisions).count == revisions.count, "no two edits were answered with the same revision")
    }

    @Test func undoOnAReplicaThatCannotSeeTheLastEditorsHistorySaysSo() async throws {
        let (url, first, second) = try await Self.replicas()
        defer {
            Task {
                try await first.stop()
                try await second.stop()
            }
        }
        let add = Array(#"{"verb":"add","kind":"rect","at":[50,50],"size":[4,4]}"#.utf8)
        let json = ["Content-Type": "application/json"]
        #expect(try await first.request("POST", "/api/documents/\(Self.document)/edits", headers: json, body: add).status == 200)
        // The second replica's state folder never saw that edit: its undo cannot be done there.
        for _ in 0..<2 {
            let undo = try await second.request("POST", "/api/documents/\(Self.document)/undo")
            #expect(undo.status == 409, "\(undo.text)")
            #expect(undo.text.contains("holds no undo history of the document as it is now"), "\(undo.text)")
        }
        // The first replica's history is intact: its undo works.
        #expect(try await first.request("POST", "/api/documents/\(Self.document)/undo").status == 200)
        #expect(try #require(try DocumentRegistry.standard.open(url).document as? Drawing).graphics.isEmpty)
        // Now the second replica changes the document: the first's history is of a version
        // gone, and its undo says so too.
        #expect(try await second.request("POST", "/api/documents/\(Self.document)/edits", headers: json, body: add).status == 200)
        let stale = try await first.request("POST", "/api/documents/\(Self.document)/redo")
        #expect(stale.status == 409, "\(stale.text)")
    }
}
