import EaselTestSupport
import Foundation
import Glibc
import Testing

/// A property defined only in the element property table — the drop shadow's blur — is an
/// option of `easel set`, completed by Tab in `easel edit`, shown by `easel info`, checked
/// by the HTTP edit API with its key path, and listed by `GET /api/schema`.
@Suite("A table property is everywhere")
struct TablePropertyEverywhereTests {
    @Test func theShadowBlurIsAnOptionACompletionAnInfoFieldAnAPIKeyAndASchemaEntry() async throws {
        let s = CLIScratch()
        try FileManager.default.createDirectory(at: s.folder.file("docs"), withIntermediateDirectories: true)
        try s.ok(["new", "drawing", "docs/d.drawing", "--size", "200x100"])
        try s.ok(["add", "docs/d.drawing", "star"])
        try s.ok(["set", "docs/d.drawing", "0", "--shadow-blur", "6", "--shadow-offset", "3,4"])
        #expect(try s.ok(["info", "docs/d.drawing"]).stdout.contains("shadow-offset 3,4, shadow-blur 6"))

        // Tab completes the option at the prompt; the value typed after it is applied.
        let typed = try InteractivePromptTests.session(s, "docs/d.drawing", ["set 0 --shadow-bl\\t 9\\r", "quit\\r"])
        #expect(typed.status == 0, "\(typed.stdout)")
        let json = try s.ok(["info", "docs/d.drawing", "--json"]).stdout
        let element = try #require(InfoJSON.elements(json).first)
        #expect(element["shadowBlur"] as? Double == 9, "\(json)")

        let usage = try s.run(["set", "docs/d.drawing", "0", "--shadow-blur", "-1"])
        #expect(usage.status == 64 && usage.stderr.contains("--shadow-blur -1: the shadow blur must be from 0 to 1000, not -1"))

        let served = try await ServeCommandTests.serve(s, samples: false)
        defer { _ = served.process.sendIfRunning(SIGTERM) }
        let refused = try await offThread {
            try RawHTTP.request(
                port: served.port, method: "POST", path: "/api/documents/d.drawing/edits",
                headers: ["Content-Type": "application/json"],
                body: Array(#"{"operations":[{"verb":"set","index":0,"shadowBlur":-1}]}"#.utf8))
        }
        #expect(refused.status == 400, "\(refused.text)")
        let problem = try JSONSerialization.jsonObject(with: Data(refused.body)) as? [String: Any]
        #expect(problem?["keyPath"] as? String == "operations[0].shadowBlur", "\(refused.text)")
        #expect((problem?["detail"] as? String)?.contains("the shadow blur must be from 0 to 1000, not -1") == true)
        let schema = try await offThread { try RawHTTP.request(port: served.port, method: "GET", path: "/api/schema") }
        let properties = try #require(
            (try JSONSerialization.jsonObject(with: Data(schema.body)) as? [String: Any])?["properties"] as? [[String: Any]])
        let blur = try #require(properties.first { $0["key"] as? String == "shadowBlur" })
        #expect(blur["flag"] as? String == "--shadow-blur" && (blur["drawing"] as? [String])?.contains("star") == true)
    }
}

/// The elements of `easel info --json`, as JSON objects.
enum InfoJSON {
    static func elements(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["elements"] as? [[String: Any]], "\(json)")
    }
}
