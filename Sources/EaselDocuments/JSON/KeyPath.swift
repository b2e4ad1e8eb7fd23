/// Where a value sits in a JSON document, printed as `imageElements[2].transform.size`.
public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component] = []

    public init(_ components: [Component] = []) { self.components = components }

    public mutating func push(_ component: Component) { components.append(component) }
    public mutating func pop() { components.removeLast() }

    public func appending(key: String) -> KeyPath { KeyPath(components + [.key(key)]) }
    public func appending(index: Int) -> KeyPath { KeyPath(components + [.index(index)]) }

    public var description: String {
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
