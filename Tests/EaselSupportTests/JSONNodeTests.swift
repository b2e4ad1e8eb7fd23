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

    /// The parsed text is flat (`JSONTape`): a member or item after a nested container is
    /// found past everything inside it, and read as the tree reads it.
    @Test func valuesAfterNestedContainersAreFoundPastThem() throws {
        let text = #"{"a": {"x": [1, [2, [3]], {"y": 4}, "s"]}, "b": [5, 6], "c": 7, "d": {}, "e": []}"#
        let node = try JSONNode.parse(Array(text.utf8), file: "f.json")
        #expect(try node.required("c").int() == 7)
        #expect(try node.required("b").numbers(count: 2, meaning: "two") == [5, 6])
        let x = try node.required("a").required("x").array()
        #expect(x.count == 4)
        #expect(try x[2].required("y").int() == 4)
        #expect(keyPath(try x[2].required("y")) == "a.x[2].y")
        #expect(try x[3].string() == "s")
        #expect(node.shape == .object(count: 5))
        #expect(try node.required("d").shape == .object(count: 0))
        #expect(try node.required("e").shape == .array(count: 0))
        #expect(try node.members().map(\.key) == ["a", "b", "c", "d", "e"])
        // The tree made back from the tape is the one the text describes.
        #expect(node.value == (try JSONParser.parse(Array(text.utf8))))
        #expect(
            try node.required("a").value
                == .object([
                    (
                        "x",
                        .array([
                            .number(1), .array([.number(2), .array([.number(3)])]), .object([("y", .number(4))]), .string("s"),
                        ])
                    )
                ]))
    }

    /// A node made from a tree in memory (a migrated document) reads as a parsed one.
    @Test func aNodeMadeFromATreeReadsAsAParsedOne() throws {
        let value = JSONValue.object([
            ("n", .number(2)), ("list", .array([.string("a"), .object([("k", .bool(true))]), .null])),
            ("pair", .array([.number(1), .number(2)])),
        ])
        let node = JSONNode(value: value, file: "memory")
        #expect(node.value == value)
        #expect(try node.required("n").int() == 2)
        #expect(try node.required("list").array()[1].required("k").bool())
        #expect(try node.required("list").array()[2].isNull)
        #expect(try node.required("pair").pair(meaning: "a pair") == (1, 2))
        #expect(keyPath(try node.required("list").array()[1].required("k")) == "list[1].k")
    }

    /// Numbers read in place name the item that is not a number, even after a container.
    @Test func aContainerAmongNumbersIsNamedByItsIndex() throws {
        let node = try JSONNode.parse(Array(#"{"v": [1, [2, 3], 4], "w": [1e999, 2]}"#.utf8), file: "f.json")
        do {
            _ = try node.required("v").numbers(count: 3, meaning: "three")
            Issue.record("an array was read as a number")
        } catch {
            #expect(error.keyPath == "v[1]")
            #expect(error.description.contains("an array of 2 items"))
        }
        do {
            _ = try node.required("w").pair(meaning: "a pair")
            Issue.record("an infinite number was read")
        } catch {
            #expect(error.keyPath == "w[0]")
        }
    }
}
