import Testing
import EaselSupport

/// A node's key path is linked to its parent's only when something asks for it (most
/// values are read as leaves): whichever way a value was reached, its errors must still
/// name its whole path.
@Suite("JSON nodes and their key paths")
struct JSONNodeTests {
    let root: JSONNode

    init() throws {
        let text = #"""
            {"a": {"b": {"c": "text", "n": 1.5, "items": [1, "two", {"d": true}, [3, "four"]]}},
             "top": null, "list": [{"e": 1}]}
            """#
        root = try JSONNode.parse(Array(text.utf8), file: "f.json")
    }

    /// The key path an error at `node` names.
    func keyPath(_ node: JSONNode) -> String { node.typeMismatch(expected: "something else").keyPath }

    @Test func leavesReachedThroughObjectsNameTheirWholePath() throws {
        let b = try root.required("a").required("b")
        #expect(keyPath(try b.required("c")) == "a.b.c")
        #expect(keyPath(try b.required("n")) == "a.b.n")
        #expect(try b.required("n").path.description == "a.b.n")
        #expect(keyPath(try root.required("top")) == "top")
        #expect(keyPath(b) == "a.b")
        #expect(keyPath(root) == "")
    }

    @Test func itemsAndTheirMembersNameTheirIndex() throws {
        let items = try root.required("a").required("b").required("items")
        #expect(keyPath(items) == "a.b.items")
        let nodes = try items.array()
        #expect(nodes.map(keyPath) == ["a.b.items[0]", "a.b.items[1]", "a.b.items[2]", "a.b.items[3]"])
        #expect(keyPath(try nodes[2].required("d")) == "a.b.items[2].d")
        #expect(keyPath(try nodes[3].array()[1]) == "a.b.items[3][1]")
        #expect(keyPath(try root.required("list").array()[0].required("e")) == "list[0].e")
        let members = try root.required("a").required("b").members()
        #expect(members.map { keyPath($0.node) } == ["a.b.c", "a.b.n", "a.b.items"])
    }

    @Test func errorsFromTypedReadsNameThePath() throws {
        let items = try root.required("a").required("b").required("items")
        #expect(throws: DocumentError.self) { try items.numbers(count: 4, meaning: "four numbers") }
        do {
            _ = try items.array()[3].numbers(count: 2, meaning: "a pair")
            Issue.record("a string among numbers was read")
        } catch {
            #expect(error.keyPath == "a.b.items[3][1]")
        }
        do {
            _ = try root.required("a").required("b").required("c").double()
            Issue.record("a string was read as a number")
        } catch {
            #expect(error.keyPath == "a.b.c")
            #expect(error.description.contains("f.json"))
        }
        do {
            _ = try root.required("a").required("missing")
            Issue.record("a missing key was found")
        } catch {
            #expect(error.keyPath == "a")
        }
    }
}
