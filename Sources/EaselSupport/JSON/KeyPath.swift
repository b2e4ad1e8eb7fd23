/// Where a value sits in a JSON document, printed as `imageElements[2].transform.size`.
package struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    package enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    package private(set) var components: [Component] = []

    package init(_ components: [Component] = []) { self.components = components }

    package mutating func push(_ component: Component) { components.append(component) }
    package mutating func pop() { components.removeLast() }

    package func appending(key: String) -> KeyPath { KeyPath(components + [.key(key)]) }
    package func appending(index: Int) -> KeyPath { KeyPath(components + [.index(index)]) }

    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}
